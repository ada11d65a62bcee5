//! The lesson section each check points to, and the exercises the runner grades. `lessons
//! check` (lockstep-course) reports an exercise without a grader, and a check whose heading is
//! missing, at the exercise's line.

use grading_protocol::CheckId;

/// Each exercise the runner grades (its id in the lesson's `exercise="ID"`) and the checks
/// its verdict carries.
pub const EXERCISES: &[(&str, &[CheckId])] =
    &[("ddp-conversion", &CheckId::CONVERSION), ("survive-a-crash", &CheckId::CRASH)];

/// The checks an exercise's verdict carries, or `None` for an exercise the runner cannot grade.
pub fn checks_of(exercise: &str) -> Option<&'static [CheckId]> {
    EXERCISES.iter().find(|(id, _)| *id == exercise).map(|(_, checks)| *checks)
}

/// The lesson (its slug) and heading (its id) that teach what `id` checks.
pub fn section(id: CheckId) -> (&'static str, &'static str) {
    match id {
        CheckId::Launched => ("torchrun", "initializing-the-process-group"),
        CheckId::DdpWrapped => ("ddp-allreduce", "the-life-of-a-ddp-training-step"),
        CheckId::SamplerSharding => ("distributed-sampler", "wiring-it-into-a-dataloader"),
        CheckId::SamplerSetEpoch => ("distributed-sampler", "set-epoch-do-not-skip-it"),
        CheckId::Rank0Logging => ("checkpoints-and-pitfalls", "logging-from-one-rank"),
        CheckId::ReplicasInSync => {
            ("checkpoints-and-pitfalls", "call-the-ddp-model-never-its-module-in-training")
        }
        CheckId::CheckpointRank0Only => ("checkpoints-and-pitfalls", "only-rank-0-writes"),
        CheckId::CheckpointUnwrapped => {
            ("checkpoints-and-pitfalls", "unwrap-the-model-with-module")
        }
        CheckId::NoDeadlock => ("checkpoints-and-pitfalls", "the-barrier-deadlock"),
        CheckId::Speedup => ("distributed-sampler", "per-rank-batch-size-vs-global-batch-size"),
        CheckId::RestartedAndFinished => ("fault-tolerance", "the-job-restarts-and-finishes"),
        CheckId::ResumedFromSnapshot => ("fault-tolerance", "it-resumes-from-the-snapshot"),
        CheckId::SamplerOrderResumed => {
            ("fault-tolerance", "the-data-order-matches-an-uninterrupted-run")
        }
        CheckId::SnapshotRank0Only => ("fault-tolerance", "only-rank-0-writes-the-snapshot"),
        CheckId::FinalParamsMatch => ("fault-tolerance", "the-final-parameters-match"),
    }
}

/// The URL of that section, as the verdict's `lesson` field carries it.
pub fn url(id: CheckId) -> String {
    let (slug, anchor) = section(id);
    lockstep_routes::lesson_section(slug, Some(anchor))
}
