//! `ddp-conversion`: the N-process run is graded; then, when it trained, 1-process runs
//! alternate with more N-process runs (a noisy minute hurts both sides alike) to time the
//! speedup.

use grading_checks::evidence::Evidence;
use grading_checks::speedup;
use grading_protocol::{CheckId, CheckStatus, RunRole, Verdict};

use crate::gather;
use crate::grade::Job;
use crate::RunnerError;

/// At most this many extra pairs of runs when the speedup fell short on a busy machine.
const BUSY_REMEASURES: u32 = 2;

pub fn grade(job: &mut Job<'_>) -> Result<Verdict, RunnerError> {
    let nproc = job.nproc;
    // The graded run reports the checks it settles as it goes, not all at its end.
    job.watch_early = true;
    let (run, retried) = job.run(nproc, RunRole::Ddp)?;
    job.watch_early = false;
    job.file(RunRole::Ddp, &run, retried);
    let first = gather::evidence(run, true);
    if let Some(error) = grading_checks::nothing_to_grade(&first, &job.script_name) {
        return Ok(job.error(error));
    }

    // The speedup needs the N-process run to have trained (a script that hangs at the very
    // end, at a misplaced barrier, has).
    let trained = !speedup::epoch_throughputs(&first).is_empty() && !first.timed_out;
    let timed_out = first.timed_out;
    let opts = job.opts;
    let mut evidence = Evidence {
        ddp: vec![first],
        single: Vec::new(),
        min_speedup: opts.min_speedup.unwrap_or_else(|| speedup::default_min_speedup(nproc)),
        remeasured: 0,
        not_timed: (!opts.time_speedup).then_some(grading_protocol::Said::NotTimedAsked {}),
    };
    let decided = grading_checks::all(&evidence);
    // What the run settled as it went stands; the rest now (a check reported early is sent
    // again only if the whole run says otherwise, which records that only grow never do).
    let early = std::mem::take(&mut job.reported_early);
    for check in decided.iter().filter(|c| c.id != CheckId::Speedup && !early.contains(c)) {
        job.decided(check);
    }
    if trained && opts.time_speedup {
        for i in 0..opts.repeats.max(1) {
            evidence.single.push(job.measure(1, RunRole::Single, false)?);
            if i + 1 < opts.repeats {
                evidence.ddp.push(job.measure(nproc, RunRole::Ddp, false)?);
            }
        }
        // A speedup that falls short while other work was using the machine is measured
        // again, a pair of runs at a time, so that a correct script is not failed for a noisy
        // minute. Not when the script did not divide the work: no quiet minute fixes that.
        let sharded =
            grading_checks::sampler::sharding(&evidence.ddp[0]).status != CheckStatus::Fail;
        while sharded
            && evidence.remeasured < BUSY_REMEASURES
            && speedup::worth_measuring_again(&evidence)
        {
            evidence.remeasured += 1;
            evidence.ddp.push(job.measure(nproc, RunRole::Ddp, false)?);
            evidence.single.push(job.measure(1, RunRole::Single, false)?);
        }
    }
    let checks = grading_checks::all(&evidence);
    // The timed runs change only the speedup: what was reported before stands.
    debug_assert!(decided.iter().zip(&checks).all(|(a, b)| a.id == CheckId::Speedup || a == b));
    if let Some(speedup) = checks.iter().find(|c| c.id == CheckId::Speedup) {
        job.decided(speedup);
    }
    Ok(job.judged(checks, timed_out))
}
