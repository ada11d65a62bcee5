//! Did N processes get through the data faster than one? The throughput of distinct samples per
//! second in steady-state epochs, N processes against one.

use std::collections::BTreeSet;

use grading_protocol::{Check, CheckId, Said};

use crate::evidence::{Evidence, RunEvidence};
use crate::record::Pass;
use crate::{fail, pass, rank0, skip};

/// One steady-state epoch of a run, all ranks together.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Epoch {
    /// Distinct samples per second.
    pub samples_per_s: f64,
    /// From the first rank's start to the last rank's end.
    pub seconds: f64,
    pub samples: u64,
}

/// Each steady-state epoch's throughput: the unique samples of the epoch (all ranks together)
/// per second of that epoch. The first epoch is left out when there are more: it includes
/// warm-up.
pub fn epoch_throughputs(run: &RunEvidence) -> Vec<Epoch> {
    let per_rank: Vec<Vec<&Pass>> = run.records.iter().map(|r| r.training_passes()).collect();
    let epochs = per_rank.iter().map(Vec::len).min().unwrap_or(0);
    let mut out = Vec::new();
    for k in 0..epochs {
        let start = per_rank.iter().map(|p| p[k].start).fold(f64::INFINITY, f64::min);
        let end = per_rank.iter().map(|p| p[k].end).fold(f64::NEG_INFINITY, f64::max);
        let unique: BTreeSet<i64> =
            per_rank.iter().flat_map(|p| p[k].indices.iter().copied()).collect();
        let seconds = (end - start).max(1e-9);
        out.push(Epoch {
            samples_per_s: unique.len() as f64 / seconds,
            seconds,
            samples: unique.len() as u64,
        });
    }
    if out.len() > 1 {
        out.remove(0);
    }
    out
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 })
}

/// The default threshold: 1 + 0.05 per extra process (1.05× for 2). Deliberately low: on a
/// shared 2-core CPU runner the reference solution measured between 1.10× and 1.75×, and a
/// correct script must pass every time; scripts that do not divide the work (about 0.9×) or
/// are communication-bound (0.4×) still fail. The evidence always shows the ratio.
pub fn default_min_speedup(nproc: u32) -> f64 {
    1.0 + 0.05 * f64::from(nproc.saturating_sub(1))
}

/// Other work (in cores) above which a timing counts as taken on a busy machine. The job
/// itself fills every core it may use, so anything else slows it.
pub const BUSY_CORES: f64 = 0.25;

/// Medians over every steady-state epoch of every run: (samples/s, epochs, seconds per epoch).
fn throughput(runs: &[RunEvidence]) -> Option<(f64, usize, f64)> {
    let all: Vec<Epoch> = runs.iter().flat_map(epoch_throughputs).collect();
    let rate = median(all.iter().map(|e| e.samples_per_s).collect())?;
    let secs = median(all.iter().map(|e| e.seconds).collect())?;
    Some((rate, all.len(), secs))
}

/// `sharded`: whether the first N-process run divided the data (the sharding check did not
/// fail), which decides what the hint blames.
pub fn speedup(evidence: &Evidence, sharded: bool) -> Check {
    const ID: CheckId = CheckId::Speedup;
    let (ddp, single, min) = (&evidence.ddp, &evidence.single, evidence.min_speedup);
    let n = ddp.first().map_or(0, |r| r.nproc);
    let Some((tn, epochs_n, secs_n)) = throughput(ddp) else {
        return skip(ID, Said::NoSteadyEpoch { n });
    };
    let Some((t1, epochs_1, secs_1)) = throughput(single) else {
        return skip(ID, Said::NoSteadyEpoch { n: 1 });
    };
    let ratio = tn / t1;
    // What the evidence explains: work per rank, and what the gradient all-reduce costs.
    let first = rank0(&ddp[0]);
    let (samples, steps, batch) = first
        .training_passes()
        .last()
        .map_or((0, 0, None), |p| (p.samples, p.batches, p.batch_size));
    let allreduce_ms = first.ddp().first().and_then(|d| d.1);
    let busiest =
        |runs: &[RunEvidence]| runs.iter().filter_map(RunEvidence::others_cores).reduce(f64::max);
    let (busy_n, busy_1) = (busiest(ddp), busiest(single));
    let evidence_text = Said::Speedup {
        n,
        tn,
        t1,
        ratio,
        min,
        epochs_n: epochs_n as u64,
        epochs_1: epochs_1 as u64,
        secs_n,
        secs_1,
        samples,
        steps,
        batch,
        allreduce_ms,
        busy: busy_n.zip(busy_1),
        remeasured: evidence.remeasured,
    };
    if ratio >= min {
        return pass(ID, evidence_text);
    }
    // A busy machine slows the N-process side most (the job alone fills every core). Near the
    // threshold that may be the whole story; far below it the script is the cause, and the
    // busy machine only a footnote.
    let busy = busy_n.filter(|b| *b > BUSY_CORES);
    let hint = if !sharded {
        Said::HintNotDivided {}
    } else if let Some(cores) = busy.filter(|_| ratio >= 0.8 * min) {
        Said::HintBusyMachine { n, cores }
    } else {
        // The work was divided and still did not pay: per-step synchronisation (the
        // all-reduce, its latency and DDP's bookkeeping) outweighs the computing saved.
        Said::HintCommunicationBound { busy }
    };
    fail(ID, evidence_text, hint)
}

/// Whether the speedup should be measured again: it fell short while other work was using the
/// machine during an N-process run (other work during a 1-process run raises the ratio, so only
/// that side counts).
pub fn worth_measuring_again(evidence: &Evidence) -> bool {
    let short = speedup(evidence, true).status == grading_protocol::CheckStatus::Fail;
    let busy = evidence.ddp.iter().filter_map(RunEvidence::others_cores).any(|c| c > BUSY_CORES);
    short && busy
}

#[cfg(test)]
mod tests {
    use grading_protocol::CheckStatus;

    use super::*;
    use crate::test_support::*;

    #[test]
    fn the_first_epoch_is_warm_up() {
        let e = epoch_throughputs(&correct_run(2, 64, 3, 0.5));
        assert_eq!(e.len(), 2);
        assert_eq!(e[0], Epoch { samples_per_s: 128.0, seconds: 0.5, samples: 64 });
        assert_eq!(
            epoch_throughputs(&correct_run(2, 64, 1, 0.5)).len(),
            1,
            "one epoch is all there is"
        );
    }

    #[test]
    fn twice_as_fast_passes_with_the_numbers() {
        let c = speedup(&correct(2.0), true);
        assert_eq!(c.status, CheckStatus::Pass);
        assert!(c.message.starts_with("2 processes: 64 samples/s against 32 for 1 process = 2.00× (threshold 1.05×; medians of 2 and 2 steady-state epochs, 1.00 s and 2.00 s each); per rank 32 samples in 8 steps of 4; one all-reduce of the gradients took 0.50 ms, 4 ms per epoch (0% of it); other work on the machine meanwhile: up to 0.00 cores"), "{}", c.message);
    }

    #[test]
    fn a_tie_at_the_threshold_passes_and_just_below_fails() {
        let mut e = correct(1.05);
        assert_eq!(speedup(&e, true).status, CheckStatus::Pass, "ratio 1.05 against 1.05");
        e.single = vec![correct_run(1, 64, 3, 1.0499)];
        assert_eq!(speedup(&e, true).status, CheckStatus::Fail);
        // One process against one: the threshold for 1 process is 1.0, and equal is enough.
        let one = Evidence {
            ddp: vec![correct_run(1, 8, 2, 1.0)],
            single: vec![correct_run(1, 8, 2, 1.0)],
            min_speedup: default_min_speedup(1),
            remeasured: 0,
            not_timed: None,
        };
        assert_eq!(speedup(&one, true).status, CheckStatus::Pass);
    }

    #[test]
    fn the_hint_blames_what_went_wrong() {
        let slow = correct(0.9);
        assert!(speedup(&slow, false)
            .hint
            .unwrap()
            .starts_with("the processes did not divide the work"));
        assert!(speedup(&slow, true)
            .hint
            .unwrap()
            .starts_with("the conversion divides the work but is communication-bound"));
        // Near the threshold on a busy machine: submit again.
        let mut busy = correct(1.0);
        busy.ddp[0].cpu = Some(grading_protocol::CpuTime { job_s: 6.0, others_s: 1.5 });
        assert!(speedup(&busy, true).hint.unwrap().starts_with(
            "other work was using this machine while it was measured (up to 0.50 cores)"
        ));
        assert!(worth_measuring_again(&busy));
        // Far below it, the script is the cause and the busy machine a footnote.
        let mut far = correct(0.5);
        far.ddp[0].cpu = busy.ddp[0].cpu;
        let hint = speedup(&far, true).hint.unwrap();
        assert!(
            hint.starts_with("the conversion divides the work")
                && hint.ends_with("up to 0.50 cores, which lowers the figure somewhat.)"),
            "{hint}"
        );
        assert!(!worth_measuring_again(&correct(0.5)), "short but on a quiet machine");
    }

    #[test]
    fn remeasuring_is_reported() {
        let mut e = correct(2.0);
        e.remeasured = 2;
        assert!(speedup(&e, true)
            .message
            .ends_with("; measured again 2 time(s) because the machine was busy"));
    }

    #[test]
    fn runs_without_epochs_are_not_judged() {
        let mut e = correct(2.0);
        e.single = vec![RunEvidence::default()];
        assert_eq!(speedup(&e, true).message, "the 1-process run completed no steady-state epoch");
        e.ddp = vec![RunEvidence { nproc: 2, ..RunEvidence::default() }];
        assert_eq!(speedup(&e, true).message, "the 2-process run completed no steady-state epoch");
    }
}
