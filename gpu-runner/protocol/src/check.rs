//! One check of a verdict, and the ids the web app and lessons refer to checks by.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The checks of both exercises, in report order: the ten of `ddp-conversion`, then the five of
/// `survive-a-crash`. The serialized names are stable: stored verdicts, lesson links and the
/// web app use them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckId {
    Launched,
    DdpWrapped,
    SamplerSharding,
    SamplerSetEpoch,
    Rank0Logging,
    ReplicasInSync,
    CheckpointRank0Only,
    CheckpointUnwrapped,
    NoDeadlock,
    Speedup,
    RestartedAndFinished,
    ResumedFromSnapshot,
    SamplerOrderResumed,
    SnapshotRank0Only,
    FinalParamsMatch,
}

impl CheckId {
    /// The checks of the `ddp-conversion` exercise, in the order its verdict lists them.
    pub const CONVERSION: [CheckId; 10] = [
        CheckId::Launched,
        CheckId::DdpWrapped,
        CheckId::SamplerSharding,
        CheckId::SamplerSetEpoch,
        CheckId::Rank0Logging,
        CheckId::ReplicasInSync,
        CheckId::CheckpointRank0Only,
        CheckId::CheckpointUnwrapped,
        CheckId::NoDeadlock,
        CheckId::Speedup,
    ];

    /// The checks of the `survive-a-crash` exercise, in the order its verdict lists them.
    pub const CRASH: [CheckId; 5] = [
        CheckId::RestartedAndFinished,
        CheckId::ResumedFromSnapshot,
        CheckId::SamplerOrderResumed,
        CheckId::SnapshotRank0Only,
        CheckId::FinalParamsMatch,
    ];

    /// Every check of every exercise: each exercise's, in order.
    pub const ALL: [CheckId; 15] = {
        let mut all = [CheckId::Launched; 15];
        let mut i = 0;
        while i < Self::CONVERSION.len() {
            all[i] = Self::CONVERSION[i];
            i += 1;
        }
        while i < all.len() {
            all[i] = Self::CRASH[i - Self::CONVERSION.len()];
            i += 1;
        }
        all
    };

    /// The id as it appears in JSON and in messages, e.g. `rank0_logging`.
    pub fn as_str(self) -> &'static str {
        match self {
            CheckId::Launched => "launched",
            CheckId::DdpWrapped => "ddp_wrapped",
            CheckId::SamplerSharding => "sampler_sharding",
            CheckId::SamplerSetEpoch => "sampler_set_epoch",
            CheckId::Rank0Logging => "rank0_logging",
            CheckId::ReplicasInSync => "replicas_in_sync",
            CheckId::CheckpointRank0Only => "checkpoint_rank0_only",
            CheckId::CheckpointUnwrapped => "checkpoint_unwrapped",
            CheckId::NoDeadlock => "no_deadlock",
            CheckId::Speedup => "speedup",
            CheckId::RestartedAndFinished => "restarted_and_finished",
            CheckId::ResumedFromSnapshot => "resumed_from_snapshot",
            CheckId::SamplerOrderResumed => "sampler_order_resumed",
            CheckId::SnapshotRank0Only => "snapshot_rank0_only",
            CheckId::FinalParamsMatch => "final_params_match",
        }
    }
}

impl CheckId {
    /// The check's name for learners: "Only rank 0 logs".
    pub fn title(self) -> &'static str {
        self.words().0
    }

    /// What the check asks of a script, in a sentence, for the exercise page.
    pub fn asks(self) -> &'static str {
        self.words().1
    }

    fn words(self) -> (&'static str, &'static str) {
        match self {
            CheckId::Launched => (
                "Launched as a process group",
                "Every process starts under torchrun and joins the process group with init_process_group.",
            ),
            CheckId::DdpWrapped => (
                "Model wrapped in DDP",
                "The model is wrapped in DistributedDataParallel and trained through the wrapper.",
            ),
            CheckId::SamplerSharding => (
                "Data split between ranks",
                "A DistributedSampler gives each rank its own share of the dataset.",
            ),
            CheckId::SamplerSetEpoch => (
                "set_epoch every epoch",
                "sampler.set_epoch(epoch) runs at the start of each epoch, so the order changes from epoch to epoch.",
            ),
            CheckId::Rank0Logging => (
                "Only rank 0 logs",
                "Progress is printed once per job, by global rank 0.",
            ),
            CheckId::ReplicasInSync => (
                "Replicas stay in sync",
                "Every rank ends with the same parameters.",
            ),
            CheckId::CheckpointRank0Only => (
                "Only rank 0 writes the checkpoint",
                "One process writes the checkpoint, so no two writers race on one file.",
            ),
            CheckId::CheckpointUnwrapped => (
                "Checkpoint of the unwrapped model",
                "The checkpoint is model.module's state_dict: it loads into a plain model, without DDP.",
            ),
            CheckId::NoDeadlock => (
                "No deadlock",
                "Every rank reaches the end: no collective or barrier waits for a rank that never comes.",
            ),
            CheckId::Speedup => (
                "Faster than one process",
                "N processes get through the data faster than one, in samples per second.",
            ),
            CheckId::RestartedAndFinished => (
                "Restarted and finished",
                "After a rank is killed in the middle of an epoch, torchrun restarts the job and it finishes.",
            ),
            CheckId::ResumedFromSnapshot => (
                "Resumed from the snapshot",
                "The restarted job continues from its last snapshot, not from epoch 0.",
            ),
            CheckId::SamplerOrderResumed => (
                "Same data order as without the crash",
                "After the restart each rank sees the samples an uninterrupted run would have shown it.",
            ),
            CheckId::SnapshotRank0Only => (
                "Only rank 0 writes the snapshot",
                "One process writes the snapshot file.",
            ),
            CheckId::FinalParamsMatch => (
                "Same final parameters as without the crash",
                "The interrupted-and-resumed run ends with the parameters of a run that was never interrupted.",
            ),
        }
    }
}

impl fmt::Display for CheckId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCheckId(pub String);

impl fmt::Display for UnknownCheckId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = CheckId::ALL.iter().map(|c| c.as_str()).collect();
        write!(f, "unknown check `{}`: the checks are {}", self.0, known.join(", "))
    }
}

impl std::error::Error for UnknownCheckId {}

impl FromStr for CheckId {
    type Err = UnknownCheckId;

    fn from_str(s: &str) -> Result<CheckId, UnknownCheckId> {
        CheckId::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownCheckId(s.to_string()))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckStatus {
    Pass,
    Fail,
    /// Not evaluated: what it needs never happened (the message says what).
    Skip,
}

impl CheckStatus {
    /// As serialized: `pass`, `fail`, `skip`.
    pub fn as_str(self) -> &'static str {
        match self {
            CheckStatus::Pass => "pass",
            CheckStatus::Fail => "fail",
            CheckStatus::Skip => "skip",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub id: CheckId,
    pub status: CheckStatus,
    pub required: bool,
    /// The evidence, in words, with the numbers.
    pub message: String,
    /// What to do about a failure; absent when it passed.
    pub hint: Option<String>,
    /// The lesson section that teaches it: `/lessons/SLUG#ANCHOR`.
    pub lesson: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_serialize_as_their_names() {
        for id in CheckId::ALL {
            assert_eq!(serde_json::to_value(id).unwrap(), id.as_str());
            assert_eq!(serde_json::from_value::<CheckId>(id.as_str().into()).unwrap(), id);
            assert_eq!(id.as_str().parse::<CheckId>(), Ok(id));
        }
        let both: Vec<CheckId> = CheckId::CONVERSION.into_iter().chain(CheckId::CRASH).collect();
        assert_eq!(both, CheckId::ALL, "each exercise's checks, in order, make up all of them");
        let err = "rank_0_logging".parse::<CheckId>().unwrap_err().to_string();
        assert!(err.contains("the checks are launched, ddp_wrapped"), "{err}");
    }
}
