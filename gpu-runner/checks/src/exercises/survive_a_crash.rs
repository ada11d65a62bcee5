//! Make training survive a crash (lesson 9): the run under `torchrun --max-restarts=1` left
//! alone, then again with one rank killed mid-epoch. Checks: [`crate::resume::all`].

use grading_protocol::{CheckId, RunRole};

use super::{Exercise, Taught};

const LESSON: &str = "fault-tolerance";

const fn taught(check: CheckId, heading: &'static str) -> Taught {
    Taught { check, lesson: LESSON, heading }
}

pub const SURVIVE_A_CRASH: Exercise = Exercise {
    id: "survive-a-crash",
    version: 1,
    runs: &[RunRole::Uninterrupted, RunRole::Interrupted],
    checks: &[
        taught(CheckId::RestartedAndFinished, "the-job-restarts-and-finishes"),
        taught(CheckId::ResumedFromSnapshot, "it-resumes-from-the-snapshot"),
        taught(CheckId::SamplerOrderResumed, "the-data-order-matches-an-uninterrupted-run"),
        taught(CheckId::SnapshotRank0Only, "only-rank-0-writes-the-snapshot"),
        taught(CheckId::FinalParamsMatch, "the-final-parameters-match"),
    ],
};
