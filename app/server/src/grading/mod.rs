//! Grading through the queue: learners submit scripts (`submissions`), workers claim and grade
//! them over HTTP (`worker_api`), and every app machine takes back jobs whose worker vanished
//! (`spawn_reaper`). The database is the only channel between them: events are rows, so a
//! browser following a submission on one app machine sees what a worker reported to another.

pub mod drafts;
pub mod pilots;
pub mod submissions;
pub mod tokens;
pub mod worker_api;

use std::time::Duration;

use lockstep_store::RetryPolicy;
use tokio::sync::Notify;

use lockstep_clock::now_ms;
use std::sync::Arc;

/// The queue's settings, and the signal that a submission's events changed in this process.
#[derive(Debug)]
pub struct Grading {
    /// How long a worker holds a job without renewing its lease.
    pub lease_ms: i64,
    pub policy: RetryPolicy,
    /// Submissions a learner may make in an hour.
    pub per_hour: u64,
    /// Woken whenever this process writes a submission event; streams on other app machines
    /// poll instead.
    pub changed: Notify,
}

impl Grading {
    pub fn new(lease_ms: i64, policy: RetryPolicy, per_hour: u64) -> Grading {
        Grading { lease_ms, policy, per_hour, changed: Notify::new() }
    }
}

impl Default for Grading {
    fn default() -> Grading {
        Grading::new(60_000, RetryPolicy::default(), 20)
    }
}

/// Takes back, every so often, the jobs whose lease ran out. Every app machine runs one; the
/// store hands each expired job to one of them.
pub(crate) fn spawn_reaper(
    store: lockstep_store::Store,
    grading: Arc<Grading>,
) -> tokio::task::JoinHandle<()> {
    let every = Duration::from_millis((grading.lease_ms / 4).clamp(250, 5_000) as u64);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(every).await;
            match store.requeue_expired(grading.policy, now_ms()).await {
                Ok(taken) if !taken.is_empty() => {
                    tracing::warn!(
                        "took back {} job(s) whose worker stopped answering: {taken:?}",
                        taken.len()
                    );
                    grading.changed.notify_waiters();
                }
                Ok(_) => {}
                Err(e) => tracing::error!("taking back expired jobs: {e}"),
            }
        }
    })
}
