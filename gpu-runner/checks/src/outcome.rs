//! The verdict's status and summary: nothing to grade (an `error`), a timeout, a pass, or the
//! checks that failed.

use grading_protocol::{Check, CheckId, CheckStatus, ErrorInfo, Said, Status};

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
                    let text = format!("SyntaxError: {message}{text}");
                    return Some(ErrorInfo::new(
                        Said::Text { text },
                        Some(script_name.into()),
                        *line,
                    ));
                }
                Event::InitError { reason, backend, error, site }
                    if reason == "nccl_without_gpu" =>
                {
                    let backend = backend.as_deref().unwrap_or("nccl").to_string();
                    return Some(ErrorInfo::new(
                        Said::NcclWithoutGpu { backend, error: error.clone() },
                        Some(script_name.into()),
                        site_line(site.as_deref()),
                    ));
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
        Some((kind, msg, site)) => (Said::Text { text: format!("{kind}: {msg}") }, site_line(site)),
        None if trained => (Said::NeverInitialised { nproc: run.nproc }, None),
        None if run.records.iter().all(|r| r.end().is_some()) => (Said::NothingStarted {}, None),
        None => {
            let last_line = |text: &str| text.lines().last().unwrap_or("").to_string();
            let said = run
                .ranks
                .iter()
                .map(|r| last_line(&r.stderr_tail))
                .find(|l| !l.is_empty())
                .unwrap_or_else(|| last_line(&run.launcher_tail));
            (Said::NoRankGotGoing { said }, None)
        }
    };
    Some(ErrorInfo::new(message, Some(script_name.into()), line))
}

/// For `survive-a-crash`, whose checks compare a run left alone with one interrupted: why the
/// run left alone already failed, if it did (its first exception, or the rank that did not
/// finish). Nothing after a crash can be judged against a run that fails without one. Asked
/// once [`nothing_to_grade`] has found something to grade.
pub fn fails_unharmed(run: &RunEvidence, script_name: &str) -> Option<ErrorInfo> {
    let failed = run.records.iter().find(|r| !r.ended_well())?;
    let (message, line) = match failed.exception() {
        Some((kind, msg, site)) => (Said::Text { text: format!("{kind}: {msg}") }, site_line(site)),
        None if run.timed_out => (Said::OutOfTime {}, None),
        None => (Said::RankUnfinished { rank: failed.rank }, None),
    };
    let said = Said::FailsUnharmed { what: Box::new(message) };
    Some(ErrorInfo::new(said, Some(script_name.into()), line))
}

/// The summary of an `error` verdict.
pub fn error_summary(error: &ErrorInfo) -> Said {
    let at = match (&error.file, error.line) {
        (Some(f), Some(l)) => Some(format!("{f}:{l}")),
        _ => None,
    };
    let what = error.words.clone().unwrap_or_else(|| Said::Text { text: error.message.clone() });
    Said::NothingGraded { at, what: Box::new(what) }
}

/// The status and one-sentence summary of a graded verdict. `timed_out`: the graded run was
/// stopped by the wall clock, after `wall_s` seconds.
pub fn summarize(checks: &[Check], timed_out: bool, wall_s: f64) -> (Status, Said) {
    let ids = |status| -> Vec<CheckId> {
        checks.iter().filter(|c| c.required && c.status == status).map(|c| c.id).collect()
    };
    let (failed, skipped) = (ids(CheckStatus::Fail), ids(CheckStatus::Skip));
    if timed_out {
        return (Status::Timeout, Said::StoppedAtLimit { wall_s });
    }
    let total = checks.len() as u64;
    if failed.is_empty() && skipped.is_empty() {
        return (Status::Pass, Said::AllPassed { checks: total });
    }
    // A required check that could not be judged is not a pass either.
    (Status::Fail, Said::SomeFailed { checks: total, failed, skipped })
}

#[cfg(test)]
mod tests {
    use lockstep_routes::Lang;

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
            error_summary(&e).say(Lang::En),
            "nothing could be graded: train.py:32: SyntaxError: invalid syntax: for x in"
        );
        assert_eq!(
            error_summary(&e).say(Lang::Ko),
            "채점할 수 없었습니다: train.py:32: SyntaxError: invalid syntax: for x in"
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
        let summary = |checks: &[Check], timed_out, wall_s| {
            let (status, said) = summarize(checks, timed_out, wall_s);
            (status, said.say(Lang::En))
        };
        let checks = crate::all(&correct(2.0));
        assert_eq!(
            summary(&checks, false, 300.0),
            (Status::Pass, "all 10 checks passed".to_string())
        );
        assert_eq!(
            summary(&checks, true, 8.0),
            (Status::Timeout, "the run was stopped after 8 s (the wall-clock limit)".to_string())
        );
        let mut broken = checks.clone();
        broken[0].status = CheckStatus::Fail;
        broken[2].status = CheckStatus::Skip;
        broken[9].status = CheckStatus::Skip;
        assert_eq!(
            summary(&broken, false, 300.0),
            (
                Status::Fail,
                "1 of 10 checks failed: Launched as a process group; 2 not judged: Data split \
                 between ranks, Faster than one process"
                    .to_string()
            )
        );
        assert_eq!(
            summarize(&broken, false, 300.0).1.say(Lang::Ko),
            "검사 10개 중 1개 실패: process group으로 실행됨; 2개 판정 보류: rank마다 데이터를 \
             나눠 가짐, 프로세스 하나보다 빠름"
        );
    }
}
