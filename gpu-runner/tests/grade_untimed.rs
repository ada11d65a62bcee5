//! `gpu-runner grade` on real torch (CPU, gloo, 2 processes), the grades that do not time the
//! speedup: each broken variant fails the check it breaks, with `speedup` skipped as "not
//! measured", and a script that cannot be graded gets an error or a timeout that explains
//! itself. Nothing here is timed, so `cargo xtask test` runs this binary beside others; its
//! grades still take turns.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::verdicts::*;
use gpu_runner::protocol::live::Event;
use gpu_runner::protocol::{Check, CheckId, Status};
use lockstep_routes::Lang;

#[test]
fn separate_one_process_groups_fail_launched() {
    let v = graded_quick("broken/own_world.py");
    assert_eq!(v.status, Status::Fail, "{}", explain(&v));
    assert_eq!(failed(&v), BTreeSet::from(["launched"]), "{}", explain(&v));
    only_waiting_for_launched(&v);
    let c = &v.checks[0];
    assert!(c.message.contains("rank 0 (world size 1), rank 0 (world size 1)"), "{}", c.message);
}

#[test]
fn averaging_gradients_by_hand_fails_ddp_wrapped_only() {
    // No DDP, but a correct all_reduce of every gradient: the replicas (read from what the
    // optimizer updates) stay in sync; only the wrapping is missing.
    let v = fails_exactly("manual_allreduce.py", "ddp_wrapped");
    let c = &v.checks[1];
    assert!(c.message.contains("averaging the gradients by hand"), "{}", c.message);
    let sync = v.checks.iter().find(|c| c.id == CheckId::ReplicasInSync).unwrap();
    assert!(sync.message.contains("the parameters the optimizer updates"), "{}", sync.message);
}

/// The lesson's starting point, taken from the course itself, submitted unconverted: it
/// trains, but never forms a process group, so there is nothing distributed to grade and no
/// check may pass on it as false comfort.
#[test]
fn the_unconverted_starter_is_an_error_with_no_checks() {
    let dir = tempfile::tempdir().unwrap();
    let script = common::starter("ddp-conversion", dir.path());
    assert!(script.ends_with("single_gpu_train.py"));
    let v = grade_path(&script, quick());
    assert_eq!(v.status, Status::Error, "{}", explain(&v));
    assert!(v.checks.is_empty(), "{}", explain(&v));
    let error = v.error.as_ref().unwrap();
    assert!(
        error.message.starts_with("the script never calls dist.init_process_group()"),
        "{}",
        error.message
    );
    assert!(v.summary.starts_with("nothing could be graded: "), "{}", v.summary);
}

/// Checks reach the learner as the graded run settles them: `launched` and `ddp_wrapped`
/// while the run is still going, the rest when it ends; each exactly once, as the verdict has it.
#[test]
fn checks_are_reported_as_the_run_settles_them() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut events = Vec::new();
    let v = gpu_runner::grade::grade_reporting(&exercise("solution.py"), &quick(), &mut |e| {
        events.push(e)
    })
    .unwrap();
    assert_eq!(v.status, Status::Fail, "speedup not timed: {}", explain(&v));
    let position = |f: &dyn Fn(&Event) -> bool| events.iter().position(f).unwrap();
    let check_at =
        |id: CheckId| position(&|e| matches!(e, Event::Check { check } if check.id == id));
    let first_run_ends = position(&|e| matches!(e, Event::RunFinished { index: 1, .. }));
    assert!(check_at(CheckId::Launched) < first_run_ends, "{events:?}");
    assert!(check_at(CheckId::DdpWrapped) < first_run_ends, "{events:?}");
    assert!(check_at(CheckId::SamplerSharding) > first_run_ends);
    let reported: Vec<&Check> = events
        .iter()
        .filter_map(|e| match e {
            Event::Check { check } => Some(check),
            _ => None,
        })
        .collect();
    assert_eq!(reported.len(), v.checks.len(), "each once: {reported:?}");
    for check in &v.checks {
        assert!(reported.contains(&check), "as the verdict has it: {check:?}");
    }
}

#[test]
fn missing_set_epoch_fails_sampler_set_epoch() {
    let v = fails_exactly("no_set_epoch.py", "sampler_set_epoch");
    // The same verdict for a Korean reader: the evidence, hint and summary worded in Korean
    // from what the run showed, with the check's numbers as they are and its title in Korean.
    let check = v.checks.iter().find(|c| c.id == CheckId::SamplerSetEpoch).unwrap();
    let ko = check.message_in(Lang::Ko);
    assert!(ko.starts_with("rank 0이 epoch ") && ko.contains("같은 순서로 읽었습니다"), "{ko}");
    assert_eq!(check.message_in(Lang::En), check.message, "the English is the stored text");
    let report = v.report_in(Lang::Ko, &|c| format!("/ko/lessons/{}", c.section.lesson));
    assert!(
        report.starts_with("실패: 검사 10개 중 1개 실패: epoch마다 set_epoch 호출"),
        "{report}"
    );
    assert!(
        report.contains("힌트: epoch마다 시작할 때 sampler.set_epoch(epoch)를 부르세요"),
        "{report}"
    );
    assert!(report.contains("참고 /ko/lessons/distributed-sampler"), "{report}");
}

#[test]
fn logging_on_every_rank_fails_rank0_logging() {
    fails_exactly("all_ranks_log.py", "rank0_logging");
}

#[test]
fn checkpoint_on_every_rank_fails_checkpoint_rank0_only() {
    fails_exactly("ckpt_every_rank.py", "checkpoint_rank0_only");
}

#[test]
fn wrapped_checkpoint_fails_checkpoint_unwrapped() {
    fails_exactly("ckpt_wrapped.py", "checkpoint_unwrapped");
}

#[test]
fn forward_through_module_fails_replicas_in_sync() {
    fails_exactly("module_forward.py", "replicas_in_sync");
}

#[test]
fn barrier_on_rank_zero_only_fails_no_deadlock_naming_the_line() {
    let v = fails_exactly("barrier_rank0.py", "no_deadlock");
    let c = v.checks.iter().find(|c| c.id == CheckId::NoDeadlock).unwrap();
    assert!(c.message.contains("barrier() at barrier_rank0.py:63"), "{}", c.message);
}

#[test]
fn syntax_error_is_an_error_with_its_line() {
    let v = graded_quick("broken/syntax_error.py");
    assert_eq!(v.status, Status::Error, "{}", explain(&v));
    let e = v.error.unwrap();
    assert_eq!((e.file.as_deref(), e.line), (Some("syntax_error.py"), Some(32)), "{}", e.message);
}

#[test]
fn nccl_without_a_gpu_is_a_clear_error() {
    let v = graded_quick("broken/nccl_on_cpu.py");
    assert_eq!(v.status, Status::Error, "{}", explain(&v));
    let e = v.error.unwrap();
    assert!(e.message.contains("NCCL") || e.message.contains("nccl"), "{}", e.message);
    assert!(e.message.contains("no GPU"), "{}", e.message);
}

#[test]
fn a_script_that_never_ends_is_a_timeout() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/forever.py");
    let mut opts = quick();
    opts.limits.wall_s = 8.0;
    let v = grade_path(&script, opts);
    assert_eq!(v.status, Status::Timeout, "{}", explain(&v));
    assert!(v.summary.contains("8 s"), "{}", v.summary);
    assert_eq!(v.runs.len(), 1, "nothing more is run after a timeout");
}
