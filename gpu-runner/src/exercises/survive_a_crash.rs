//! `survive-a-crash`: the N-process run under `torchrun --max-restarts=1` left alone, then the
//! same run with one rank killed mid-epoch, at a moment nobody can predict from the script.

use grading_checks::resume::{CrashEvidence, CrashPlan};
use grading_protocol::{ErrorInfo, RunRole, Said, Verdict};

use crate::gather;
use crate::grade::Job;
use crate::launch::Restarts;
use crate::RunnerError;

pub fn grade(job: &mut Job<'_>) -> Result<Verdict, RunnerError> {
    let nproc = job.nproc;
    // Left alone under the same torchrun as the run a rank will be killed in.
    let restarts = Restarts { max: 1, crash: None };
    let (run, retried) = job.run_with(nproc, RunRole::Uninterrupted, restarts)?;
    job.file(RunRole::Uninterrupted, &run, retried);
    // Only rank 0's final parameters are compared with the interrupted run's: kept where they
    // are rather than read as tensors now.
    let first_params = gather::rank0_final_params(&run);
    let first = gather::evidence(run, false);
    let script_name = job.script_name.clone();
    if let Some(error) = grading_checks::nothing_to_grade(&first, &script_name)
        .or_else(|| grading_checks::outcome::fails_unharmed(&first, &script_name))
    {
        return Ok(job.error(error));
    }
    let training_loader =
        first.records.first().and_then(|r| r.training_passes().first().map(|p| p.loader));
    let chosen = match job.opts.crash_at {
        Some(at) => Some(CrashPlan { loader: training_loader.unwrap_or(at.loader), ..at }),
        None => CrashPlan::choose(&first, random()),
    };
    let Some(plan) = chosen else {
        return Ok(job.error(ErrorInfo::new(Said::TooFewEpochs {}, Some(script_name), None)));
    };
    let restarts = Restarts { max: 1, crash: Some(plan) };
    let (run, retried) = job.run_with(nproc, RunRole::Interrupted, restarts)?;
    job.file(RunRole::Interrupted, &run, retried);
    let final_params =
        first_params.as_deref().and_then(|first| gather::final_params_against(first, &run));
    let interrupted = gather::evidence(run, false);
    let timed_out = first.timed_out || interrupted.timed_out;
    let evidence = CrashEvidence { uninterrupted: first, interrupted, plan, final_params };
    let checks = grading_checks::resume::all(&evidence);
    for check in &checks {
        job.decided(check);
    }
    Ok(job.judged(checks, timed_out))
}

/// A number nobody can predict from the script, for the moment a rank is killed: a learner
/// cannot tune the script to one epoch and batch.
fn random() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}
