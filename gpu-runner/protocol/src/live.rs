//! What happens to a submission while it is graded, as events: the worker reports them, the
//! server keeps them in order (each with an id), and the learner's page, the terminal client and
//! `Last-Event-ID` replay read them back. Also the messages a remote worker and the server
//! exchange over HTTP.

use serde::{Deserialize, Serialize};

use crate::{Check, RunRole, Status, Verdict};

/// One step of a submission's grading. Serialized with its kind as `"kind"`, which is also the
/// server-sent event's name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// Waiting for a worker, behind `ahead` other gradings.
    Queued { ahead: u64 },
    /// A worker took it (`attempt` counts from 1; a later attempt follows a lost worker or a
    /// failure of the platform, never a graded script).
    Started { worker: String, attempt: u32 },
    /// A `torchrun` of the grading began: the graded N-process run, or a 1-process run the
    /// speedup is measured against. `index` counts runs from 1.
    RunStarted { index: u32, role: RunRole, nproc: u32 },
    /// ... and ended after `wall_s` seconds.
    RunFinished { index: u32, role: RunRole, nproc: u32, wall_s: f64 },
    /// A check was decided.
    Check { check: Check },
    /// The verdict is stored; the whole of it is the submission's.
    Verdict { status: Status, summary: String },
    /// Put back in the queue: the worker stopped answering, or the platform failed.
    Requeued { reason: String },
    /// The platform gave up on it after several attempts: no verdict, nothing to fix in the
    /// script.
    Failed { reason: String },
    /// Cancelled before a worker took it.
    Cancelled,
}

impl Event {
    /// The event's kind, as stored and as the server-sent event's name.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Queued { .. } => "queued",
            Event::Started { .. } => "started",
            Event::RunStarted { .. } => "run_started",
            Event::RunFinished { .. } => "run_finished",
            Event::Check { .. } => "check",
            Event::Verdict { .. } => "verdict",
            Event::Requeued { .. } => "requeued",
            Event::Failed { .. } => "failed",
            Event::Cancelled => "cancelled",
        }
    }

    /// Whether nothing follows it (until an instructor runs the submission again).
    pub fn is_final(&self) -> bool {
        matches!(self, Event::Verdict { .. } | Event::Failed { .. } | Event::Cancelled)
    }
}

/// Worker → server: asks for a job (`POST /api/worker/claim`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimRequest {
    /// How the worker names itself in events and logs (a host name, a Slurm job).
    pub worker: String,
}

/// Server → worker: a job to grade, held under `lease` for `lease_s` seconds unless renewed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub job: i64,
    pub lease: String,
    pub lease_s: f64,
    pub attempt: u32,
    pub submission: i64,
    pub exercise: String,
    pub file_name: String,
    pub script: String,
}

/// Worker → server, about the job it holds: renew the lease, report an event, hand in the
/// verdict, or say the platform failed (`POST /api/worker/jobs/{job}/…`). Every message names
/// the lease; a worker that no longer holds it gets 409 Conflict and must drop the job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lease {
    pub lease: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub lease: String,
    pub event: Event,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finish {
    pub lease: String,
    pub verdict: Verdict,
}

/// The runner could not grade (no environment, no sandbox, a disk full): not the script's
/// fault, so the job is tried again later, elsewhere if another worker takes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    pub lease: String,
    pub reason: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_carry_their_kind() {
        let events = [
            Event::Queued { ahead: 2 },
            Event::Started { worker: "w".into(), attempt: 1 },
            Event::RunStarted { index: 1, role: RunRole::Ddp, nproc: 2 },
            Event::RunFinished { index: 1, role: RunRole::Single, nproc: 1, wall_s: 1.5 },
            Event::Verdict { status: Status::Pass, summary: "ok".into() },
            Event::Requeued { reason: "r".into() },
            Event::Failed { reason: "f".into() },
            Event::Cancelled,
        ];
        for e in events {
            let json = serde_json::to_value(&e).unwrap();
            assert_eq!(json["kind"], e.kind(), "{json}");
            assert_eq!(serde_json::from_value::<Event>(json).unwrap(), e);
        }
    }
}
