//! `gpu-runner grade` on real torch (CPU, gloo, 2 processes), the grades that time the speedup:
//! the reference solution passes every check, and the variants whose mistake costs the speedup
//! fail it. `cargo xtask test` runs this binary alone on the machine, and its grades take turns:
//! two jobs side by side on two cores would each see half the machine.
//!
//! The other broken variants make just the graded run, with `speedup` skipped as "not
//! measured", in `grade_untimed.rs`. The speedup's judgement in every corner is unit-tested on
//! synthetic evidence in `grading-checks`.

mod common;

use common::verdicts::*;
use gpu_runner::grade::Options;
use gpu_runner::protocol::{CheckId, RunRole, Status};

#[test]
fn reference_solution_passes_every_check() {
    let v = graded("solution.py");
    assert_eq!(v.status, Status::Pass, "{}", explain(&v));
    assert_eq!(v.checks.len(), 10);
    assert_eq!(v.backend, "gloo");
    assert!(v.runs.iter().any(|r| r.role == RunRole::Single && r.nproc == 1));
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["status"], "pass");
    assert_eq!(json["checks"][0]["id"], "launched");
}

#[test]
fn overlapping_shards_fail_sampler_sharding() {
    // Both ranks train on the same half of the data: the other half is never seen, so the
    // throughput of distinct samples does not improve either.
    fails_only("same_shard.py", "sampler_sharding", &["sampler_sharding", "speedup"]);
}

/// Batches of 16: the all-reduce is a third of each epoch. On this machine's two cores such a
/// script still gains a little (1.00× to 1.13× measured here, where the reference solution
/// makes 1.63×), so the default 1.05× is too close to judge it by; 1.4× lies between the two
/// with room on both sides. The default threshold's judgement is unit-tested in
/// `grading-checks`; this is the real run's evidence reaching it.
#[test]
fn communication_bound_conversion_fails_speedup_with_a_teaching_hint() {
    let options = Options { repeats: 1, min_speedup: Some(1.4), ..Options::default() };
    let v = grade_with("broken/small_batch.py", options);
    assert_eq!(v.status, Status::Fail, "{}", explain(&v));
    assert_eq!(not_passed(&v), ["speedup"].into_iter().collect(), "{}", explain(&v));
    let c = v.checks.iter().find(|c| c.id == CheckId::Speedup).unwrap();
    assert!(c.hint.as_deref().unwrap().contains("communication-bound"), "{c:?}");
}
