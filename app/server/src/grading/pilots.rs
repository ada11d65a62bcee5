//! The pilot supervisor's side (`lockstep-pilots`, on a cluster's login node). It reports the
//! batch jobs of the workers it started; the server answers with the grading wanted now, and
//! tells each queued submission where it waits in the batch system's queue.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use grading_protocol::live::{Demand, Event, NodeWait, Pilot, PilotReport, PilotState};

use crate::http_error::HttpError;
use crate::requester::Worker;
use crate::state::AppState;
use lockstep_clock::now_ms;

/// How long a worker whose lease was taken back stays in the answer's `lost`: several of the
/// supervisor's rounds, so one it missed is not forgotten.
const LOST_FOR_MS: i64 = 10 * 60 * 1000;

pub async fn report(
    State(state): State<AppState>,
    _: Worker,
    Json(report): Json<PilotReport>,
) -> Result<Response, HttpError> {
    let store = &state.context.store;
    let now = now_ms();
    let answer = async {
        let due = store.due_jobs(now).await?;
        let running = store.running_jobs().await?.max(0) as u64;
        let mut changed = false;
        let waits = waits(due.len(), running, &report.pilots);
        for (ahead, (job, wait)) in due.iter().zip(waits).enumerate() {
            let next = match wait {
                Some(wait) => Event::WaitingForNode(wait),
                // Its pilot went (a cancelled submission ahead of it made one surplus): back
                // to waiting in the platform's own queue.
                None if matches!(job.last, Event::WaitingForNode(_)) => {
                    Event::Queued { ahead: ahead as u64 }
                }
                None => continue,
            };
            if next != job.last {
                changed |= store.note_queued(job.submission, &next, now).await?;
            }
        }
        if changed {
            state.grading.changed.notify_waiters();
        }
        let lost = store.lost_workers(now - LOST_FOR_MS).await?;
        Ok::<_, lockstep_store::StoreError>(Demand { due: due.len() as u64, running, lost })
    };
    let demand = answer.await?;
    Ok(Json(demand).into_response())
}

/// What each of `due` queued jobs (in the order workers take them) waits for. Pilots that run
/// and hold no job take the first ones within a poll, so those wait for nothing in the batch
/// system; the rest wait, in order, for the pending pilots, the one nearest the front of the
/// batch queue first; jobs beyond the pending pilots wait in the platform's queue only (the
/// supervisor is at its limit).
///
/// `running` counts every job a worker holds: with pilots as the only workers the idle pilots
/// are exact; a local worker beside them makes the estimate low, never a wait that is not real.
pub fn waits(due: usize, running: u64, pilots: &[Pilot]) -> Vec<Option<NodeWait>> {
    let running_pilots =
        pilots.iter().filter(|p| matches!(p.state, PilotState::Running { .. })).count();
    let idle = running_pilots.saturating_sub(usize::try_from(running).unwrap_or(usize::MAX));
    let mut pending: Vec<&NodeWait> = pilots
        .iter()
        .filter_map(|p| match &p.state {
            PilotState::Pending(wait) => Some(wait),
            PilotState::Running { .. } => None,
        })
        .collect();
    pending.sort_by_key(|w| w.ahead);
    (0..due)
        .map(|k| k.checked_sub(idle).and_then(|j| pending.get(j)).map(|w| (*w).clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(job: &str, ahead: u64) -> Pilot {
        Pilot {
            job: job.into(),
            state: PilotState::Pending(NodeWait {
                partition: "gpu".into(),
                ahead,
                reason: "Resources".into(),
                gpus: 4,
            }),
        }
    }

    fn running(job: &str) -> Pilot {
        Pilot { job: job.into(), state: PilotState::Running { node: "gpu-07".into() } }
    }

    fn aheads(waits: &[Option<NodeWait>]) -> Vec<Option<u64>> {
        waits.iter().map(|w| w.as_ref().map(|w| w.ahead)).collect()
    }

    #[test]
    fn queued_jobs_wait_for_the_pending_pilots_in_batch_order() {
        let pilots = [pending("12", 5), pending("11", 3)];
        assert_eq!(aheads(&waits(3, 0, &pilots)), [Some(3), Some(5), None]);
    }

    #[test]
    fn an_idle_running_pilot_takes_the_first_job() {
        let pilots = [running("10"), pending("11", 3)];
        assert_eq!(aheads(&waits(2, 0, &pilots)), [None, Some(3)]);
        // The running pilot is busy: the first job waits for the pending one.
        assert_eq!(aheads(&waits(2, 1, &pilots)), [Some(3), None]);
        // More jobs running than pilots (a local worker too): no idle pilot, no underflow.
        assert_eq!(aheads(&waits(1, 5, &pilots)), [Some(3)]);
    }

    #[test]
    fn no_pilots_no_waits() {
        assert_eq!(aheads(&waits(2, 0, &[])), [None, None]);
        assert!(waits(0, 0, &[pending("1", 0)]).is_empty());
    }
}
