//! Grading an exercise file with `gpu-runner grade` and reading its verdict, for the tests
//! that time the speedup (`grade.rs`) and those that do not (`grade_untimed.rs`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use gpu_runner::grade::{grade, Options};
use gpu_runner::protocol::{CheckId, CheckStatus, RunRole, Status, Verdict};

/// A grade is two processes on two cores: the grades of one test binary take turns.
pub static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Script `name` of `ddp-conversion`: `solution.py` or `broken/<wrong answer>.py`.
pub fn exercise(name: &str) -> PathBuf {
    super::exercise_script("ddp-conversion", name)
}

/// Graded as the runner grades, with the default speedup threshold and two repeats: for the
/// reference solution.
pub fn graded(name: &str) -> Verdict {
    grade_with(name, Options::default())
}

/// A variant whose mistake costs the speedup, graded with one repeat: its runs are the suite's
/// slowest, so a second pair would only cost minutes.
pub fn graded_once(name: &str) -> Verdict {
    grade_with(name, Options { repeats: 1, ..Options::default() })
}

/// For the variants aimed at other checks: the graded run alone, the speedup not timed.
pub fn graded_quick(name: &str) -> Verdict {
    grade_with(name, quick())
}

pub fn quick() -> Options {
    Options { time_speedup: false, ..Options::default() }
}

/// For a variant whose mistake must also cost the speedup: one repeat, and a threshold of 1.0
/// (not slower), so the verdict does not hang on a noisy minute of a shared 2-core machine.
pub fn graded_timed_once(name: &str) -> Verdict {
    grade_with(name, Options { repeats: 1, min_speedup: Some(1.0), ..Options::default() })
}

/// The skip of a grade that did not time the speedup.
pub fn untimed(c: &gpu_runner::protocol::Check) -> bool {
    c.id == CheckId::Speedup
        && c.status == CheckStatus::Skip
        && c.message.starts_with("not measured: this grade was asked not to time")
}

pub fn grade_with(name: &str, opts: Options) -> Verdict {
    grade_path(&exercise(name), opts)
}

pub fn grade_path(script: &Path, opts: Options) -> Verdict {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    grade(script, &opts).unwrap_or_else(|e| panic!("{}: {e}", script.display()))
}

/// The checks that did not pass, the untimed speedup aside.
pub fn not_passed(v: &Verdict) -> BTreeSet<&str> {
    v.checks
        .iter()
        .filter(|c| c.status != CheckStatus::Pass && !untimed(c))
        .map(|c| c.id.as_str())
        .collect()
}

pub fn failed(v: &Verdict) -> BTreeSet<&str> {
    v.checks.iter().filter(|c| c.status == CheckStatus::Fail).map(|c| c.id.as_str()).collect()
}

/// When the processes did not form one group, the checks that compare ranks within it may
/// not fail on their own account: what they saw waits, as a skip, for `launched`.
pub fn only_waiting_for_launched(v: &Verdict) {
    for c in v.checks.iter().filter(|c| c.status == CheckStatus::Skip && !untimed(c)) {
        assert!(c.message.starts_with(grading_checks::WAITS_FOR_LAUNCHED), "{c:?}");
    }
}

pub fn explain(v: &Verdict) -> String {
    format!(
        "{}\n{}",
        v.report(),
        v.runs
            .iter()
            .flat_map(|r| r.ranks.iter().map(|k| k.stderr_tail.clone()))
            .collect::<Vec<_>>()
            .join("\n---\n")
    )
}

/// Each broken variant fails exactly the check it breaks. Returns the verdict for further
/// assertions.
pub fn fails_exactly(script: &str, check: &str) -> Verdict {
    fails_only(script, check, &[check])
}

/// A variant whose mistake also costs another check, and why it must.
pub fn fails_only(script: &str, check: &str, all: &[&str]) -> Verdict {
    let name = format!("broken/{script}");
    let v = match (check, all.contains(&"speedup")) {
        ("speedup", _) => graded_once(&name),
        (_, true) => graded_timed_once(&name),
        _ => graded_quick(&name),
    };
    assert_eq!(v.status, Status::Fail, "{}", explain(&v));
    assert_eq!(not_passed(&v), all.iter().copied().collect::<BTreeSet<_>>(), "{}", explain(&v));
    let timed = v.runs.iter().any(|r| r.role == RunRole::Single);
    assert_eq!(timed, !untimed(&v.checks[9]), "{}", explain(&v));
    let c = v.checks.iter().find(|c| c.id.as_str() == check).unwrap();
    assert!(c.hint.is_some(), "{c:?}");
    assert_eq!(c.section, gpu_runner::grading_checks::exercises::section(c.id));
    v
}
