//! The lesson section each check points to. A test loads the real course and checks that
//! every one of these headings exists.

use grading_protocol::CheckId;

/// The lesson (its slug) and heading (its id) that teach what `id` checks.
pub fn section(id: CheckId) -> (&'static str, &'static str) {
    match id {
        CheckId::Launched => ("torchrun", "initializing-the-process-group"),
        CheckId::DdpWrapped => ("ddp-allreduce", "the-life-of-a-ddp-training-step"),
        CheckId::SamplerSharding => ("distributed-sampler", "wiring-it-into-a-dataloader"),
        CheckId::SamplerSetEpoch => ("distributed-sampler", "set-epoch-do-not-skip-it"),
        CheckId::Rank0Logging => ("checkpoints-and-pitfalls", "logging-from-one-rank"),
        CheckId::ReplicasInSync => {
            ("ddp-allreduce", "backward-bucketed-all-reduce-overlapped-with-computation")
        }
        CheckId::CheckpointRank0Only => ("checkpoints-and-pitfalls", "only-rank-0-writes"),
        CheckId::CheckpointUnwrapped => {
            ("checkpoints-and-pitfalls", "unwrap-the-model-with-module")
        }
        CheckId::NoDeadlock => ("checkpoints-and-pitfalls", "the-barrier-deadlock"),
        CheckId::Speedup => ("distributed-sampler", "per-rank-batch-size-vs-global-batch-size"),
    }
}

/// The URL of that section, as the verdict's `lesson` field carries it.
pub fn url(id: CheckId) -> String {
    let (slug, anchor) = section(id);
    lockstep_routes::lesson_section(slug, Some(anchor))
}
