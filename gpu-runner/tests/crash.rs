//! `gpu-runner grade --exercise=survive-a-crash` on real torch (CPU, gloo, 2 processes, torchrun
//! with one restart): the reference solution passes wherever the runner kills a rank, the
//! lesson's starting point fails what it lacks, and each broken variant fails the check it
//! breaks. The crash moment is chosen at random in each grade, as for learners: the checks must
//! hold for any of them.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use gpu_runner::grade::{grade, Options};
use gpu_runner::grading_checks::exercises::SURVIVE_A_CRASH;
use gpu_runner::grading_checks::resume::CrashPlan;
use gpu_runner::protocol::{CheckStatus, RunRole, Status, Verdict};

/// Two torchruns with a restart each are plenty for two cores.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn crash_exercise(name: &str) -> PathBuf {
    common::exercise_script("survive-a-crash", name)
}

fn graded(script: &Path, crash_at: Option<CrashPlan>) -> Verdict {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let opts = Options { exercise: &SURVIVE_A_CRASH, crash_at, ..Options::default() };
    grade(script, &opts).unwrap_or_else(|e| panic!("{}: {e}", script.display()))
}

fn explain(v: &Verdict) -> String {
    let mut out = v.report();
    for r in &v.runs {
        out.push_str(&format!(
            "\n--- {} run, torchrun's end:\n{}",
            r.role.as_str(),
            r.launcher_tail
        ));
        for rank in &r.ranks {
            out.push_str(&format!("\n--- rank {} stderr:\n{}", rank.rank, rank.stderr_tail));
        }
    }
    out
}

fn not_passed(v: &Verdict) -> BTreeSet<&str> {
    v.checks.iter().filter(|c| c.status != CheckStatus::Pass).map(|c| c.id.as_str()).collect()
}

/// The variant's verdict fails exactly `failing`, and passes the rest.
fn fails_exactly(name: &str, failing: &[&str]) -> Verdict {
    let v = graded(&crash_exercise(&format!("broken/{name}")), None);
    assert_eq!(v.status, Status::Fail, "{name}: {}", explain(&v));
    assert_eq!(not_passed(&v), failing.iter().copied().collect(), "{name}: {}", explain(&v));
    v
}

#[test]
fn the_reference_solution_survives_a_crash_anywhere() {
    let v = graded(&crash_exercise("solution.py"), None);
    assert_eq!(v.status, Status::Pass, "{}", explain(&v));
    assert!(v.checks.iter().map(|c| c.id).eq(SURVIVE_A_CRASH.check_ids()));
    let roles: Vec<RunRole> = v.runs.iter().map(|r| r.role).collect();
    assert_eq!(roles, [RunRole::Uninterrupted, RunRole::Interrupted], "{}", explain(&v));
    assert!(v.runs.iter().all(|r| r.command.contains(&"--max-restarts=1".to_string())));
    // The killed rank's crash and the restart are in its log; the verdict names the moment.
    assert!(v.checks[0].message.contains(" was killed in epoch "), "{}", explain(&v));
    let interrupted = &v.runs[1];
    assert!(
        interrupted.ranks.iter().all(|r| r.stdout_tail.contains("torchrun restart 1")
            || r.stderr_tail.contains("torchrun restart 1")),
        "{}",
        explain(&v)
    );
    assert!(v.checks[4].message.contains("bit for bit"), "{}", explain(&v));

    // Rank 0 itself, at the last batch of the last epoch: the hardest place to lose.
    let last = CrashPlan { rank: 0, loader: 0, pass: 3, batch: 32 };
    let v = graded(&crash_exercise("solution.py"), Some(last));
    assert_eq!(v.status, Status::Pass, "{}", explain(&v));
    assert!(v.checks[0].message.starts_with("rank 0 was killed in epoch 3, before its batch 32"));
}

/// The lesson's starting point, taken from the course itself: it restarts from scratch and
/// writes no snapshot.
#[test]
fn the_starting_point_fails_resume_and_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let script = common::starter("survive-a-crash", dir.path());
    assert!(script.ends_with("train_resumable.py"));
    let v = graded(&script, None);
    assert_eq!(
        not_passed(&v),
        BTreeSet::from(["resumed_from_snapshot", "snapshot_rank0_only"]),
        "{}",
        explain(&v)
    );
    assert!(v.checks[1].message.contains("began again at epoch 0"), "{}", explain(&v));
    assert!(v.checks[3].message.starts_with("no rank called torch.save"), "{}", explain(&v));
}

#[test]
fn a_resume_that_fails_at_start_up_fails_restarted_and_finished() {
    let v = fails_exactly(
        "resume_crashes.py",
        &[
            "restarted_and_finished",
            "resumed_from_snapshot",
            "sampler_order_resumed",
            "final_params_match",
        ],
    );
    let c = &v.checks[0];
    assert!(c.message.contains("KeyError: 'optimizer_state' (resume_crashes.py:"), "{}", c.message);
    // The checks that need a finished restart wait for it instead of failing too.
    assert!(v.checks[1..]
        .iter()
        .filter(|c| c.status != CheckStatus::Pass)
        .all(|c| c.status == CheckStatus::Skip));
}

#[test]
fn never_loading_the_snapshot_fails_resumed_from_snapshot() {
    fails_exactly("starts_over.py", &["resumed_from_snapshot"]);
}

#[test]
fn set_epoch_counted_from_zero_fails_sampler_order_resumed() {
    // A different data order also trains different weights.
    let v =
        fails_exactly("set_epoch_from_zero.py", &["sampler_order_resumed", "final_params_match"]);
    assert!(v.checks[2].message.contains("(sampler epoch 0)"), "{}", explain(&v));
}

#[test]
fn every_rank_writing_fails_snapshot_rank0_only() {
    let v = fails_exactly("every_rank_saves.py", &["snapshot_rank0_only"]);
    assert!(v.checks[3].message.contains("rank 1 wrote snapshot-rank1.pt"), "{}", explain(&v));
}

#[test]
fn a_snapshot_without_the_optimizer_fails_final_params_match() {
    let v = fails_exactly("no_optimizer_state.py", &["final_params_match"]);
    assert!(v.checks[4].message.contains("differ from the uninterrupted run's"), "{}", explain(&v));
}

/// A script that trains one epoch leaves no moment after a snapshot: an error that says so.
#[test]
fn one_epoch_is_too_few_to_crash() {
    let source = std::fs::read_to_string(crash_exercise("solution.py"))
        .unwrap()
        .replace("EPOCHS = 4", "EPOCHS = 1");
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("one_epoch.py");
    std::fs::write(&script, source).unwrap();
    let v = graded(&script, None);
    assert_eq!(v.status, Status::Error, "{}", explain(&v));
    assert!(v.summary.contains("fewer than 2 epochs"), "{}", v.summary);
    assert_eq!(v.runs.len(), 1, "no crash run is made");
}
