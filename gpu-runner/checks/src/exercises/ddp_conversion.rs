//! Convert a single-GPU training script to DDP (lesson 6). The N-process run is graded; 1-process
//! runs alternate with more N-process runs to time the speedup. Checks: [`crate::all`].

use grading_protocol::{CheckId, RunRole};

use super::{Exercise, Taught};

const fn taught(check: CheckId, lesson: &'static str, heading: &'static str) -> Taught {
    Taught { check, lesson, heading }
}

pub const DDP_CONVERSION: Exercise = Exercise {
    id: "ddp-conversion",
    version: 1,
    runs: &[RunRole::Ddp, RunRole::Single],
    checks: &[
        taught(CheckId::Launched, "torchrun", "initializing-the-process-group"),
        taught(CheckId::DdpWrapped, "ddp-allreduce", "the-life-of-a-ddp-training-step"),
        taught(CheckId::SamplerSharding, "distributed-sampler", "wiring-it-into-a-dataloader"),
        taught(CheckId::SamplerSetEpoch, "distributed-sampler", "set-epoch-do-not-skip-it"),
        taught(CheckId::Rank0Logging, "checkpoints-and-pitfalls", "logging-from-one-rank"),
        taught(
            CheckId::ReplicasInSync,
            "checkpoints-and-pitfalls",
            "call-the-ddp-model-never-its-module-in-training",
        ),
        taught(CheckId::CheckpointRank0Only, "checkpoints-and-pitfalls", "only-rank-0-writes"),
        taught(
            CheckId::CheckpointUnwrapped,
            "checkpoints-and-pitfalls",
            "unwrap-the-model-with-module",
        ),
        taught(CheckId::NoDeadlock, "checkpoints-and-pitfalls", "the-barrier-deadlock"),
        taught(CheckId::Speedup, "distributed-sampler", "per-rank-batch-size-vs-global-batch-size"),
    ],
};
