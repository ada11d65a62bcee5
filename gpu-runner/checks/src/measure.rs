//! What a run measured of its training, carried in the verdict so the learner can hold their
//! real run against the cost model's prediction: per rank, each pass over the training
//! DataLoader (time, steps, mean loss), and the model DDP wrapped.

use grading_protocol::{EpochMeasure, Measured, ModelShape, RankEpochs};

use crate::record::{Event, RankRecord};

/// `None` when no rank trained over a DataLoader and nothing was wrapped in DDP.
pub fn measured(records: &[RankRecord]) -> Option<Measured> {
    let ranks: Vec<RankEpochs> = records
        .iter()
        .map(|r| RankEpochs {
            rank: r.rank,
            epochs: r
                .training_passes()
                .iter()
                .map(|p| EpochMeasure {
                    seconds: (p.end - p.start).max(0.0),
                    batches: p.batches,
                    samples: p.samples,
                    loss: p.loss.filter(|l| l.is_finite()),
                })
                .collect(),
        })
        .collect();
    let model = records.iter().find_map(|r| {
        r.events.iter().find_map(|e| match e {
            Event::Ddp { numel, allreduce_ms, device, linears, .. } => Some(ModelShape {
                numel: *numel,
                linears: linears.clone(),
                allreduce_ms: *allreduce_ms,
                device: device.clone(),
            }),
            _ => None,
        })
    });
    let first_rank = records.first().map(|r| r.training_passes()).unwrap_or_default();
    if model.is_none() && ranks.iter().all(|r| r.epochs.is_empty()) {
        return None;
    }
    let first = first_rank.first();
    let epochs: Vec<Option<i64>> = first_rank.iter().map(|p| p.sampler.epoch).collect();
    Some(Measured {
        ranks,
        model,
        batch_size: first.and_then(|p| p.batch_size),
        dataset_len: first.and_then(|p| p.dataset_len),
        sampler: first.map(|p| p.sampler.kind.clone()),
        epoch_changed: (epochs.len() > 1 && epochs.iter().all(Option::is_some))
            .then(|| epochs.windows(2).any(|w| w[0] != w[1])),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::correct_run;

    #[test]
    fn a_correct_run_measures_every_rank_epoch_and_the_model() {
        let run = correct_run(2, 40, 3, 0.5);
        let m = measured(&run.records).unwrap();
        assert_eq!(m.ranks.len(), 2);
        for r in &m.ranks {
            assert_eq!(r.epochs.len(), 3);
            assert!(r.epochs.iter().all(|e| (e.seconds - 0.5).abs() < 1e-9 && e.samples == 20));
            assert_eq!(r.epochs.iter().map(|e| e.batches).sum::<u64>(), 15);
        }
        let model = m.model.unwrap();
        assert_eq!((model.numel, model.allreduce_ms), (12_345, Some(0.5)));
        assert_eq!((m.batch_size, m.dataset_len), (Some(4), Some(40)));
        assert_eq!(m.sampler.as_deref(), Some("DistributedSampler"));
        assert_eq!(m.epoch_changed, Some(true));
    }

    #[test]
    fn a_sampler_whose_epoch_never_changes_is_noticed() {
        let mut run = correct_run(2, 40, 3, 0.5);
        for r in &mut run.records {
            for e in &mut r.events {
                if let Event::Pass(p) = e {
                    p.sampler.epoch = Some(0);
                }
            }
        }
        assert_eq!(measured(&run.records).unwrap().epoch_changed, Some(false));
    }

    #[test]
    fn nothing_trained_measures_nothing() {
        assert_eq!(measured(&[]), None);
        assert_eq!(measured(&[RankRecord { rank: 0, events: vec![] }]), None);
    }

    #[test]
    fn an_mlp_is_recognised_only_when_its_linears_chain_and_hold_every_parameter() {
        let shape = |linears: Vec<(u64, u64)>, numel| ModelShape {
            numel,
            linears,
            allreduce_ms: None,
            device: None,
        };
        let mlp = shape(vec![(784, 256), (256, 10)], 784 * 256 + 256 + 256 * 10 + 10);
        assert_eq!(mlp.mlp_widths(), Some(vec![784, 256, 10]));
        assert_eq!(shape(vec![(784, 256), (128, 10)], 0).mlp_widths(), None, "no chain");
        let conv_too = shape(vec![(784, 256), (256, 10)], 784 * 256 + 256 + 256 * 10 + 10 + 9);
        assert_eq!(conv_too.mlp_widths(), None, "parameters outside the linears");
        assert_eq!(shape(vec![], 0).mlp_widths(), None);
    }
}
