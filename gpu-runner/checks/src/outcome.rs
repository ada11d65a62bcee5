//! The verdict's status and summary: nothing to grade (an `error`), a timeout, a pass, or the
//! checks that failed.

use grading_protocol::{Check, CheckStatus, ErrorInfo, Status};

use crate::evidence::RunEvidence;
use crate::record::Event;

/// The line number of a harness call site, `file.py:LINE`.
fn site_line(site: Option<&str>) -> Option<u32> {
    site?.rsplit(':').next()?.parse().ok()
}

/// Why nothing could be graded, if so: a syntax error, NCCL without a GPU, or a script that
/// died before any rank reached the process group.
pub fn nothing_to_grade(run: &RunEvidence, script_name: &str) -> Option<ErrorInfo> {
    for rec in &run.records {
        for e in &rec.events {
            match e {
                Event::SyntaxError { line, message, text, .. } => {
                    let text =
                        if text.is_empty() { String::new() } else { format!(": {}", text.trim()) };
                    return Some(ErrorInfo {
                        message: format!("SyntaxError: {message}{text}"),
                        file: Some(script_name.into()),
                        line: *line,
                    });
                }
                Event::InitError { reason, backend, error, site }
                    if reason == "nccl_without_gpu" =>
                {
                    return Some(ErrorInfo {
                        message: format!(
                            "the script asks for the {} backend, but this runner has no GPU ({error}); choose it with \"nccl\" if torch.cuda.is_available() else \"gloo\"",
                            backend.as_deref().unwrap_or("nccl")
                        ),
                        file: Some(script_name.into()),
                        line: site_line(site.as_deref()),
                    });
                }
                _ => {}
            }
        }
    }
    // A script that never forms a process group has nothing distributed to grade: checks
    // that pass on it (a sampler epoch, a clean exit) would only be false comfort, so the
    // unconverted single-GPU script gets this error rather than a verdict with passes in it.
    if run.records.iter().any(|r| r.init().is_some()) || run.timed_out {
        return None;
    }
    let trained = run.records.iter().any(|r| r.passes().next().is_some());
    let exc = run.records.iter().find_map(|r| r.exception());
    let (message, line) = match exc {
        // Died before doing anything distributed: an import error, an exception at the top.
        Some((kind, msg, site)) => (format!("{kind}: {msg}"), site_line(site)),
        None if trained => (
            format!(
                "the script never calls dist.init_process_group(), so torchrun ran {} copies of it that each trained alone on the whole dataset: there is no DDP to grade yet. Start by initialising a process group with the rank and world size torchrun provides",
                run.nproc
            ),
            None,
        ),
        None if run.records.iter().all(|r| r.end().is_some()) => {
            ("the script finished without starting a process group or a DataLoader: there was nothing to grade".into(), None)
        }
        None => {
            let last_line = |text: &str| text.lines().last().unwrap_or("").to_string();
            let said = run
                .ranks
                .iter()
                .map(|r| last_line(&r.stderr_tail))
                .find(|l| !l.is_empty())
                .unwrap_or_else(|| last_line(&run.launcher_tail));
            (format!("no rank got going: {said}"), None)
        }
    };
    Some(ErrorInfo { message, file: Some(script_name.into()), line })
}

/// For `survive-a-crash`, whose checks compare a run left alone with one interrupted: why the
/// run left alone already failed, if it did (its first exception, or the rank that did not
/// finish). Nothing after a crash can be judged against a run that fails without one. Asked
/// once [`nothing_to_grade`] has found something to grade.
pub fn fails_unharmed(run: &RunEvidence, script_name: &str) -> Option<ErrorInfo> {
    let failed = run.records.iter().find(|r| !r.ended_well())?;
    let (message, line) = match failed.exception() {
        Some((kind, msg, site)) => (format!("{kind}: {msg}"), site_line(site)),
        None if run.timed_out => ("the run did not finish within its time limit".into(), None),
        None => (format!("rank {} did not finish", failed.rank), None),
    };
    Some(ErrorInfo {
        message: format!("the script fails even when nothing crashes: {message}"),
        file: Some(script_name.into()),
        line,
    })
}

/// The summary of an `error` verdict.
pub fn error_summary(error: &ErrorInfo) -> String {
    match (&error.file, error.line) {
        (Some(f), Some(l)) => format!("nothing could be graded: {f}:{l}: {}", error.message),
        _ => format!("nothing could be graded: {}", error.message),
    }
}

/// The status and one-sentence summary of a graded verdict. `timed_out`: the graded run was
/// stopped by the wall clock, after `wall_s` seconds.
pub fn summarize(checks: &[Check], timed_out: bool, wall_s: f64) -> (Status, String) {
    let ids = |status| -> Vec<&str> {
        checks.iter().filter(|c| c.required && c.status == status).map(|c| c.id.as_str()).collect()
    };
    let (failed, skipped) = (ids(CheckStatus::Fail), ids(CheckStatus::Skip));
    if timed_out {
        return (
            Status::Timeout,
            format!("the run was stopped after {wall_s:.0} s (the wall-clock limit)"),
        );
    }
    if failed.is_empty() && skipped.is_empty() {
        return (Status::Pass, format!("all {} checks passed", checks.len()));
    }
    // A required check that could not be judged is not a pass either.
    let mut parts = Vec::new();
    if !failed.is_empty() {
        parts.push(format!(
            "{} of {} checks failed: {}",
            failed.len(),
            checks.len(),
            failed.join(", ")
        ));
    }
    if !skipped.is_empty() {
        parts.push(format!("{} not judged: {}", skipped.len(), skipped.join(", ")));
    }
    (Status::Fail, parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;

    #[test]
    fn a_syntax_error_names_its_line() {
        let mut run = correct_run(2, 8, 1, 1.0);
        for r in &mut run.records {
            r.events = vec![Event::SyntaxError {
                line: Some(32),
                offset: Some(5),
                message: "invalid syntax".into(),
                text: "  for x in\n".into(),
            }];
        }
        let e = nothing_to_grade(&run, "train.py").unwrap();
        assert_eq!(
            (e.message.as_str(), e.file.as_deref(), e.line),
            ("SyntaxError: invalid syntax: for x in", Some("train.py"), Some(32))
        );
        assert_eq!(
            error_summary(&e),
            "nothing could be graded: train.py:32: SyntaxError: invalid syntax: for x in"
        );
    }

    #[test]
    fn nccl_without_a_gpu_points_at_the_init() {
        let mut run = correct_run(2, 8, 1, 1.0);
        run.records[0].events = vec![Event::InitError {
            backend: Some("nccl".into()),
            site: Some("train.py:21".into()),
            reason: "nccl_without_gpu".into(),
            error: "no CUDA device".into(),
        }];
        let e = nothing_to_grade(&run, "train.py").unwrap();
        assert_eq!(e.line, Some(21));
        assert!(
            e.message.starts_with(
                "the script asks for the nccl backend, but this runner has no GPU (no CUDA device)"
            ),
            "{}",
            e.message
        );
    }

    #[test]
    fn training_without_a_process_group_is_an_error_not_a_verdict() {
        let mut run = correct_run(2, 8, 1, 1.0);
        for r in &mut run.records {
            r.events.retain(|e| !matches!(e, Event::Init { .. }));
        }
        let e = nothing_to_grade(&run, "single_gpu_train.py").unwrap();
        assert!(
            e.message.starts_with(
                "the script never calls dist.init_process_group(), so torchrun ran 2 copies"
            ),
            "{}",
            e.message
        );
        // One rank in a group is a broken conversion, graded (and failed) check by check.
        run.records[0] = correct_run(2, 8, 1, 1.0).records[0].clone();
        assert_eq!(nothing_to_grade(&run, "single_gpu_train.py"), None);
    }

    #[test]
    fn dying_before_anything_distributed_says_how() {
        let mut run = correct_run(2, 8, 1, 1.0);
        for r in &mut run.records {
            r.events = vec![Event::Exception {
                kind: "ImportError".into(),
                message: "no module named foo".into(),
                site: Some("train.py:3".into()),
            }];
        }
        let e = nothing_to_grade(&run, "train.py").unwrap();
        assert_eq!((e.message.as_str(), e.line), ("ImportError: no module named foo", Some(3)));
        for r in &mut run.records {
            r.events = vec![Event::End { status: "ok".into(), code: 0 }];
        }
        assert!(nothing_to_grade(&run, "train.py")
            .unwrap()
            .message
            .contains("there was nothing to grade"));
        for r in &mut run.records {
            r.events.clear();
        }
        run.ranks[1].stderr_tail = "Traceback …\nMemoryError\n".into();
        assert_eq!(
            nothing_to_grade(&run, "train.py").unwrap().message,
            "no rank got going: MemoryError"
        );
        run.timed_out = true;
        assert_eq!(nothing_to_grade(&run, "train.py"), None, "a timeout is graded as a timeout");
    }

    #[test]
    fn a_run_that_started_is_graded() {
        assert_eq!(nothing_to_grade(&correct_run(2, 8, 1, 1.0), "train.py"), None);
    }

    #[test]
    fn summaries() {
        let checks = crate::all(&correct(2.0));
        assert_eq!(
            summarize(&checks, false, 300.0),
            (Status::Pass, "all 10 checks passed".to_string())
        );
        assert_eq!(
            summarize(&checks, true, 8.0),
            (Status::Timeout, "the run was stopped after 8 s (the wall-clock limit)".to_string())
        );
        let mut broken = checks.clone();
        broken[0].status = CheckStatus::Fail;
        broken[2].status = CheckStatus::Skip;
        broken[9].status = CheckStatus::Skip;
        assert_eq!(
            summarize(&broken, false, 300.0),
            (
                Status::Fail,
                "1 of 10 checks failed: launched; 2 not judged: sampler_sharding, speedup"
                    .to_string()
            )
        );
    }
}
