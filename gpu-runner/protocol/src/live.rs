//! What happens to a submission while it is graded, as events: the worker reports them, the
//! server keeps them in order (each with an id), and the learner's page, the terminal client and
//! `Last-Event-ID` replay read them back. Also the messages a remote worker and the server
//! exchange over HTTP.

use serde::{Deserialize, Serialize};

use lockstep_lang::{say, words};
use lockstep_routes::Lang;

#[cfg(feature = "words")]
use crate::Said;
use crate::{Check, RunRole, Status, Verdict};

/// One step of a submission's grading. Serialized with its kind as `"kind"`, which is also the
/// server-sent event's name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// Waiting for a worker, behind `ahead` other gradings.
    Queued { ahead: u64 },
    /// Waiting for the batch system to start the worker that will grade it on a node.
    WaitingForNode(NodeWait),
    /// A worker took it (`attempt` counts from 1; a later attempt follows a lost worker or a
    /// failure of the platform, never a graded script). `node` is the batch system's node the
    /// worker runs on, when it runs on one.
    Started {
        worker: String,
        attempt: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<String>,
    },
    /// A `torchrun` of the grading began: the graded N-process run, or a 1-process run the
    /// speedup is measured against. `index` counts runs from 1.
    RunStarted { index: u32, role: RunRole, nproc: u32 },
    /// ... and ended after `wall_s` seconds.
    RunFinished { index: u32, role: RunRole, nproc: u32, wall_s: f64 },
    /// A check was decided.
    Check { check: Check },
    /// The verdict is stored; the whole of it is the submission's.
    /// `words`: the summary as a sentence (see [`Said`]), absent from older events.
    Verdict {
        status: Status,
        summary: String,
        #[cfg(feature = "words")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        words: Option<Box<Said>>,
    },
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
            Event::WaitingForNode(_) => "waiting_for_node",
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

    /// A verdict event's summary in `lang`, as [`Check::message_in`].
    pub fn summary_in(&self, lang: Lang) -> Option<String> {
        let _ = lang;
        match self {
            #[cfg(feature = "words")]
            Event::Verdict { words: Some(words), .. } => Some(words.say(lang)),
            Event::Verdict { summary, .. } => Some(summary.clone()),
            _ => None,
        }
    }

    /// The event with its text worded in `lang` and its sentences dropped, as
    /// [`Check::in_language`]: what a page in that language follows.
    #[cfg(feature = "words")]
    pub fn in_language(self, lang: Lang) -> Event {
        match self {
            Event::Check { check } => Event::Check { check: check.in_language(lang) },
            Event::Verdict { status, summary, words } => {
                let summary = words.map_or(summary, |w| w.say(lang));
                Event::Verdict { status, summary, words: None }
            }
            e => e,
        }
    }
}

/// Where a queued submission's worker is in the batch system's queue: its job waits in
/// `partition` behind `ahead` other pending jobs, for the scheduler's `reason` (Slurm's own
/// word: `Resources`, `Priority`, …). `gpus` is what the job asks of a node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodeWait {
    pub partition: String,
    pub ahead: u64,
    pub reason: String,
    pub gpus: u32,
}

impl NodeWait {
    /// The learner's words for it, e.g. "Waiting for a GPU node — 3 jobs ahead in partition
    /// gpu (its nodes are busy)."
    pub fn describe(&self) -> String {
        self.describe_in(Lang::En)
    }

    /// [`NodeWait::describe`] in `lang`.
    pub fn describe_in(&self, lang: Lang) -> String {
        let node = match self.gpus > 0 {
            true => words! { En: "a GPU node", Ko: "GPU 노드" },
            false => words! { En: "a node", Ko: "노드" },
        }
        .get(lang);
        let ahead = self.ahead;
        let jobs = say(
            lang,
            &[
                (Lang::En, &|| match ahead {
                    0 => "next".to_string(),
                    1 => "1 job ahead".to_string(),
                    n => format!("{n} jobs ahead"),
                }),
                (Lang::Ko, &|| match ahead {
                    0 => "다음 차례".to_string(),
                    n => format!("앞에 job {n}개"),
                }),
            ],
        );
        // Slurm's reason codes, as `squeue` prints them (`man squeue`, JOB REASON CODES).
        let why = match self.reason.as_str() {
            "Resources" => words! { En: " (its nodes are busy)", Ko: " (노드가 모두 사용 중)" }
                .get(lang)
                .into(),
            "Priority" => words! {
                En: " (jobs of higher priority go first)",
                Ko: " (우선순위가 높은 job이 먼저)",
            }
            .get(lang)
            .into(),
            "" | "None" => String::new(),
            other => format!(" (Slurm: {other})"),
        };
        let partition = &self.partition;
        say(
            lang,
            &[
                (Lang::En, &|| {
                    format!("Waiting for {node} — {jobs} in partition {partition}{why}.")
                }),
                (Lang::Ko, &|| {
                    format!("{node}를 기다리는 중 — partition {partition}에서 {jobs}{why}.")
                }),
            ],
        )
    }
}

/// Worker → server: asks for a job (`POST /api/worker/claim`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimRequest {
    /// How the worker names itself in events and logs (a host name, a Slurm job).
    pub worker: String,
    /// The batch system's node the worker runs on, for the learner's status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// The exercises the worker grades, each at the version of its checks; the server hands
    /// out only submissions to those of them it has at the same version. Workers from before
    /// this field grade [`LEGACY_GRADABLE`].
    #[serde(default = "legacy_gradable")]
    pub exercises: Vec<Gradable>,
}

/// An exercise a worker grades, at the version of its checks (`grading_checks::exercises`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gradable {
    pub exercise: String,
    pub version: u32,
}

/// What a worker that does not say grades: the exercises there were, at their first version.
pub const LEGACY_GRADABLE: [(&str, u32); 2] = [("ddp-conversion", 1), ("survive-a-crash", 1)];

fn legacy_gradable() -> Vec<Gradable> {
    LEGACY_GRADABLE
        .map(|(exercise, version)| Gradable { exercise: exercise.into(), version })
        .into()
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
    /// The worker was stopped from outside (its batch job was cancelled or ran out of time):
    /// nothing is wrong with the machine, so the job is queued again at once, not after the
    /// retry delay. It still counts as an attempt.
    #[serde(default)]
    pub stopped: bool,
}

/// The pilot supervisor → server (`POST /api/worker/pilots`): the batch system's view of the
/// grading workers it started, so that queued submissions can say where they wait.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PilotReport {
    pub pilots: Vec<Pilot>,
}

/// One worker's batch job (a Slurm job id).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pilot {
    pub job: String,
    pub state: PilotState,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum PilotState {
    /// Waiting in the batch system's queue.
    Pending(NodeWait),
    /// Started on `node`: its worker is claiming or grading.
    Running { node: String },
}

/// Server → pilot supervisor: the grading wanted now. `due`: queued jobs a worker may take now;
/// `running`: jobs workers hold; `lost`: workers whose lease the server took back lately (they
/// stopped answering), by the name they claimed with, for the supervisor to end their jobs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Demand {
    pub due: u64,
    pub running: u64,
    pub lost: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_carry_their_kind() {
        let events = [
            Event::Queued { ahead: 2 },
            Event::WaitingForNode(NodeWait {
                partition: "gpu".into(),
                ahead: 3,
                reason: "Resources".into(),
                gpus: 4,
            }),
            Event::Started { worker: "w".into(), attempt: 1, node: None },
            Event::Started { worker: "w".into(), attempt: 2, node: Some("gpu-07".into()) },
            Event::RunStarted { index: 1, role: RunRole::Ddp, nproc: 2 },
            Event::RunFinished { index: 1, role: RunRole::Single, nproc: 1, wall_s: 1.5 },
            Event::Verdict { status: Status::Pass, summary: "ok".into(), words: None },
            Event::Verdict {
                status: Status::Pass,
                summary: "all 1 checks passed".into(),
                words: Some(Box::new(Said::AllPassed { checks: 1 })),
            },
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

    #[test]
    fn a_wait_for_a_node_in_words() {
        let wait = |ahead, reason: &str, gpus| {
            NodeWait { partition: "gpu".into(), ahead, reason: reason.into(), gpus }.describe()
        };
        assert_eq!(
            wait(3, "Resources", 4),
            "Waiting for a GPU node — 3 jobs ahead in partition gpu (its nodes are busy)."
        );
        assert_eq!(
            wait(1, "Priority", 1),
            "Waiting for a GPU node — 1 job ahead in partition gpu (jobs of higher priority go first)."
        );
        assert_eq!(wait(0, "None", 0), "Waiting for a node — next in partition gpu.");
        assert_eq!(
            wait(0, "QOSMaxJobsPerUserLimit", 1),
            "Waiting for a GPU node — next in partition gpu (Slurm: QOSMaxJobsPerUserLimit)."
        );
        let ko =
            NodeWait { partition: "gpu".into(), ahead: 3, reason: "Resources".into(), gpus: 4 };
        assert_eq!(
            ko.describe_in(Lang::Ko),
            "GPU 노드를 기다리는 중 — partition gpu에서 앞에 job 3개 (노드가 모두 사용 중)."
        );
    }

    #[test]
    fn older_messages_still_read() {
        // A worker or event from before nodes and stopped workers existed.
        let claim: ClaimRequest = serde_json::from_str(r#"{"worker":"w"}"#).unwrap();
        assert_eq!(claim.node, None);
        let failure: Failure = serde_json::from_str(r#"{"lease":"l","reason":"r"}"#).unwrap();
        assert!(!failure.stopped);
        let started: Event =
            serde_json::from_str(r#"{"kind":"started","worker":"w","attempt":1}"#).unwrap();
        assert_eq!(started, Event::Started { worker: "w".into(), attempt: 1, node: None });
    }
}
