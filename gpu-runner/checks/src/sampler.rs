//! Did each rank read its own shard of the data, and a new order every epoch?

use std::collections::BTreeSet;

use grading_protocol::{Check, CheckId, Said};

use crate::evidence::RunEvidence;
use crate::{fail, pass, rank0, skip};

/// The indices of each rank's training pass number `k`.
fn pass_indices(run: &RunEvidence, k: usize) -> Option<Vec<Vec<i64>>> {
    if run.records.is_empty() {
        return None;
    }
    run.records.iter().map(|r| r.training_passes().get(k).map(|p| p.indices.clone())).collect()
}

pub fn sharding(run: &RunEvidence) -> Check {
    const ID: CheckId = CheckId::SamplerSharding;
    let Some(shards) = pass_indices(run, 0) else {
        return skip(ID, Said::NoPass {});
    };
    let first = rank0(run).training_passes()[0];
    let Some(len) = first.dataset_len else {
        return skip(ID, Said::NoDatasetLength {});
    };
    let n = shards.len() as u64;
    let total: u64 = shards.iter().map(|s| s.len() as u64).sum();
    let union: BTreeSet<i64> = shards.iter().flatten().copied().collect();
    let unique = union.len() as u64;
    let duplicates = total - unique;
    // DistributedSampler pads the index list by repeating its head until every rank gets as
    // many (`drop_last=False`), or drops the tail so they do (`drop_last=True`).
    let padding = (n - len % n) % n;
    let drop_last = first.sampler.drop_last.unwrap_or(false);
    let (allowed_dup, allowed_missing) = if drop_last { (0, len % n) } else { (padding, 0) };
    let missing = len.saturating_sub(unique);
    let reads: Vec<u64> = shards.iter().map(|s| s.len() as u64).collect();
    let evidence =
        |padding| Said::Shards { reads: reads.clone(), duplicates, unique, len, padding };
    // DistributedSampler gives every rank the same number of samples, and DDP relies on it: a
    // rank with fewer batches stops calling all-reduce and leaves the others waiting.
    let balanced = shards.iter().map(Vec::len).min() == shards.iter().map(Vec::len).max();
    if balanced && duplicates <= allowed_dup && missing <= allowed_missing {
        return pass(ID, evidence(Some(allowed_dup)));
    }
    let whole = shards.iter().all(|s| s.len() as u64 >= len);
    let hint = if !balanced && duplicates <= allowed_dup && missing <= allowed_missing {
        Said::HintUneven {}
    } else if whole {
        Said::HintWholeDataset {}
    } else {
        Said::HintOverlap {}
    };
    fail(ID, evidence(None), hint)
}

pub fn set_epoch(run: &RunEvidence) -> Check {
    const ID: CheckId = CheckId::SamplerSetEpoch;
    let passes = rank0(run).training_passes();
    if passes.len() < 2 {
        return skip(ID, Said::FewPasses { passes: passes.len() as u64 });
    }
    let same: Vec<usize> =
        (1..passes.len()).filter(|&k| passes[k].indices == passes[k - 1].indices).collect();
    let sampler_epochs: Vec<String> =
        passes.iter().map(|p| p.sampler.epoch.map_or("-".into(), |e| e.to_string())).collect();
    let epochs = passes.len() as u64;
    let head = |k: usize| {
        passes[k].indices.iter().take(4).map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
    };
    if same.is_empty() {
        return pass(ID, Said::OrderChanged { epochs, first: head(0), second: head(1) });
    }
    let distributed = passes[0].sampler.kind == "DistributedSampler";
    let hint = if distributed && passes.iter().all(|p| p.sampler.epoch == passes[0].sampler.epoch) {
        Said::HintSetEpochSeed {}
    } else if passes[0].sampler.shuffle == Some(false)
        || passes[0].sampler.kind == "SequentialSampler"
    {
        Said::HintShuffle {}
    } else {
        Said::HintOrderChanges {}
    };
    let (same, sampler_epochs) = (same.len() as u64 + 1, sampler_epochs.join(", "));
    fail(ID, Said::OrderRepeated { same, epochs, first: head(0), sampler_epochs }, hint)
}

#[cfg(test)]
mod tests {
    use grading_protocol::CheckStatus;

    use super::*;
    use crate::record::Event;
    use crate::test_support::*;

    fn with_shards(len: u64, shards: &[Vec<i64>], drop_last: bool) -> RunEvidence {
        let mut run = correct_run(shards.len() as u32, len, 1, 1.0);
        for (r, indices) in shards.iter().enumerate() {
            let mut s = sampler(0);
            s.drop_last = Some(drop_last);
            run.records[r].events.retain(|e| !matches!(e, Event::Pass(_)));
            run.records[r].events.push(epoch_pass(0, indices.clone(), len, s, 0.0, 1.0));
        }
        run
    }

    #[test]
    fn a_correct_run_is_sharded() {
        let c = sharding(&correct_run(2, 64, 3, 1.0));
        assert_eq!(c.status, CheckStatus::Pass, "{c:?}");
        assert_eq!(c.message, "first epoch: rank 0 read 32, rank 1 read 32; 0 read by more than one rank; together 64 of 64 samples (padding allows 0)");
    }

    #[test]
    fn one_rank_reads_everything() {
        let c = sharding(&correct_run(1, 10, 2, 1.0));
        assert_eq!(c.status, CheckStatus::Pass, "{c:?}");
        assert!(c.message.contains("together 10 of 10"), "{}", c.message);
    }

    #[test]
    fn a_padded_last_batch_may_repeat_only_the_padding() {
        // 10 samples on 4 ranks: DistributedSampler pads to 12 by repeating the first two.
        let padded =
            with_shards(10, &[vec![0, 4, 8], vec![1, 5, 9], vec![2, 6, 0], vec![3, 7, 1]], false);
        let c = sharding(&padded);
        assert_eq!(c.status, CheckStatus::Pass, "{c:?}");
        assert!(
            c.message.ends_with(
                "2 read by more than one rank; together 10 of 10 samples (padding allows 2)"
            ),
            "{}",
            c.message
        );
        let too_many =
            with_shards(10, &[vec![0, 4, 8], vec![1, 5, 9], vec![2, 6, 0], vec![3, 1, 1]], false);
        assert_eq!(sharding(&too_many).status, CheckStatus::Fail);
    }

    #[test]
    fn drop_last_may_leave_out_the_tail() {
        let run = with_shards(10, &[vec![0, 4], vec![1, 5], vec![2, 6], vec![3, 7]], true);
        assert_eq!(sharding(&run).status, CheckStatus::Pass);
        let padded_instead =
            with_shards(10, &[vec![0, 4], vec![1, 5], vec![2, 6], vec![3, 7]], false);
        assert_eq!(
            sharding(&padded_instead).status,
            CheckStatus::Fail,
            "without drop_last every sample must be read"
        );
    }

    #[test]
    fn empty_shards_of_an_empty_dataset_pass() {
        let c = sharding(&with_shards(0, &[vec![], vec![]], false));
        assert_eq!(c.status, CheckStatus::Pass, "{c:?}");
        assert!(c.message.contains("together 0 of 0"), "{}", c.message);
    }

    #[test]
    fn one_rank_reading_everything_while_another_reads_nothing_fails() {
        let c = sharding(&with_shards(4, &[vec![0, 1, 2, 3], vec![]], false));
        assert_eq!(c.status, CheckStatus::Fail, "{c:?}");
        assert!(c.hint.unwrap().contains("shards of different sizes"));
    }

    #[test]
    fn every_rank_reading_the_whole_dataset_is_told_to_use_the_sampler() {
        let c = sharding(&with_shards(4, &[vec![0, 1, 2, 3], vec![3, 2, 1, 0]], false));
        assert_eq!(c.status, CheckStatus::Fail);
        assert!(c.message.contains("4 read by more than one rank"), "{}", c.message);
        assert!(c.hint.unwrap().starts_with("every rank iterated the whole dataset"));
    }

    #[test]
    fn overlapping_halves_are_told_to_read_the_rank() {
        let c = sharding(&with_shards(8, &[vec![0, 2, 4, 6], vec![0, 2, 4, 6]], false));
        assert_eq!(c.status, CheckStatus::Fail);
        assert!(c.hint.unwrap().starts_with("the ranks' shards overlap"));
    }

    #[test]
    fn a_rank_without_a_pass_is_not_judged() {
        let mut run = correct_run(2, 8, 1, 1.0);
        run.records[1].events.retain(|e| !matches!(e, Event::Pass(_)));
        assert_eq!(sharding(&run).status, CheckStatus::Skip);
        assert_eq!(sharding(&RunEvidence::default()).status, CheckStatus::Skip);
    }

    #[test]
    fn the_order_must_change_every_epoch() {
        assert_eq!(set_epoch(&correct_run(2, 16, 3, 1.0)).status, CheckStatus::Pass);
        // Without set_epoch every pass has the same order and the same sampler epoch.
        let mut run = correct_run(2, 16, 3, 1.0);
        let first = shard(16, 2, 0, 0);
        edit(&mut run, 0, |e| match e {
            Event::Pass(p) => {
                Some(epoch_pass(p.number, first.clone(), 16, sampler(0), p.start, p.end))
            }
            _ => None,
        });
        let c = set_epoch(&run);
        assert_eq!(c.status, CheckStatus::Fail);
        assert!(c.message.contains("same order in 3 of 3 epochs"), "{}", c.message);
        assert!(c.message.ends_with("sampler epoch per pass: 0, 0, 0)"), "{}", c.message);
        assert!(c.hint.unwrap().starts_with("call sampler.set_epoch(epoch)"));
        // A sampler that does not shuffle gets a different hint.
        edit(&mut run, 0, |e| match e {
            Event::Pass(p) => {
                let mut s = p.sampler.clone();
                s.shuffle = Some(false);
                s.epoch = Some(i64::from(p.number));
                Some(epoch_pass(p.number, p.indices.clone(), 16, s, p.start, p.end))
            }
            _ => None,
        });
        assert!(set_epoch(&run).hint.unwrap().contains("does not shuffle"));
    }

    #[test]
    fn one_epoch_cannot_show_the_order_changing() {
        let c = set_epoch(&correct_run(2, 16, 1, 1.0));
        assert_eq!(c.status, CheckStatus::Skip);
        assert_eq!(
            c.message,
            "rank 0 completed 1 pass(es) over its DataLoader; two are needed to compare"
        );
    }
}
