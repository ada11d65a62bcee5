//! A finished run's evidence: its records, logs and timings as they are, plus what its tensors
//! show, compared with tch. This is the grader's only reading of tensors; the checks
//! (`grading-checks`) judge the result without touching a file.

use std::path::{Path, PathBuf};

use grading_checks::checkpoint;
use grading_checks::evidence::{Difference, FinalParams, ParamsSize, RunEvidence};
use grading_checks::record::Params;

use crate::launch::Run;
use crate::tensors::{compare, StateDict};

/// The run's evidence. `tensors`: whether to read and compare its saved tensors, which only
/// the checks on the first graded run look at.
pub fn evidence(run: Run, tensors: bool) -> RunEvidence {
    let (final_params, checkpoint_equals_final) =
        if tensors { (final_params(&run), checkpoint_equals_final(&run)) } else { (None, None) };
    RunEvidence {
        nproc: run.nproc,
        records: run.records,
        stdout: run.stdout,
        ranks: run.ranks,
        launcher_tail: run.launcher_tail,
        wall_s: run.finished.wall_s,
        timed_out: run.finished.timed_out,
        cpu: run.finished.cpu,
        final_params,
        checkpoint_equals_final,
    }
}

fn load(dir: &Path, file: &str) -> Option<StateDict> {
    StateDict::load(&dir.join(file)).ok()
}

/// Each rank's last parameters file against rank 0's, when every rank saved one.
fn final_params(run: &Run) -> Option<FinalParams> {
    let files: Vec<(u32, Params)> = run
        .records
        .iter()
        .map(|r| r.params().first().map(|p| (r.rank, *p)))
        .collect::<Option<_>>()?;
    let (_, first) = files.first()?;
    let Some(reference) = load(&run.records_dir, first.file) else {
        return Some(FinalParams { reference: None, others: Vec::new() });
    };
    let others = files[1..]
        .iter()
        .map(|(rank, params)| {
            let difference = load(&run.records_dir, params.file).map(|other| {
                let d = compare(&reference, &other, str::to_string);
                Difference { identical: d.identical(), worst: d.worst }
            });
            (*rank, difference)
        })
        .collect();
    let size = ParamsSize { tensors: reference.0.len(), values: reference.numel() as u64 };
    Some(FinalParams { reference: Some(size), others })
}

/// The file of rank 0's final parameters (its last attempt's, after a restart), if it saved
/// them.
pub fn rank0_final_params(run: &Run) -> Option<PathBuf> {
    let params = *run.records.first()?.params().first()?;
    Some(run.records_dir.join(params.file))
}

/// Rank 0's final parameters at the end of `b` against those in `a` (another run's
/// [`rank0_final_params`]); `None` where either could not be read.
pub fn final_params_against(a: &Path, b: &Run) -> Option<Difference> {
    let read = |file: PathBuf| StateDict::load(&file).ok();
    let (x, y) = (read(a.to_path_buf())?, read(rank0_final_params(b)?)?);
    let d = compare(&x, &y, str::to_string);
    let worst = d.worst.clone().or_else(|| {
        // Names in one and not the other: as unequal as tensors get.
        d.missing.first().or(d.extra.first()).map(|n| (n.clone(), f64::INFINITY))
    });
    Some(Difference { identical: d.identical(), worst })
}

/// Whether the checkpoint the checks judge holds its rank's final parameters (a `module.`
/// prefix aside).
fn checkpoint_equals_final(run: &Run) -> Option<bool> {
    let save = checkpoint::chosen(&run.records)?;
    let saved = load(&run.records_dir, save.tensors?)?;
    let params = *run.records.iter().find(|r| r.rank == save.rank)?.params().first()?;
    let fin = load(&run.records_dir, params.file)?;
    Some(compare(&fin, &saved, |k| k.strip_prefix("module.").unwrap_or(k).to_string()).identical())
}
