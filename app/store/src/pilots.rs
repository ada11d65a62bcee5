//! What the pilot supervisor reads and writes (`POST /api/worker/pilots`): the grading wanted
//! now, and where each queued submission waits while the batch system finds its worker a node.

use grading_protocol::live::Event;

use crate::queue::{decode, encode};
use crate::{Backend, Count, Store, StoreError};

/// A queued job a worker may take now, with its submission's latest event.
#[derive(Debug, Clone, PartialEq)]
pub struct DueJob {
    pub submission: i64,
    pub last: Event,
}

impl Store {
    /// Queued jobs due by `now_ms`, in the order workers take them.
    pub async fn due_jobs(&self, now_ms: i64) -> Result<Vec<DueJob>, StoreError> {
        #[derive(sqlx::FromRow)]
        struct Due {
            submission: i64,
            data: String,
        }
        let rows = sqlx::query_as::<_, Due>(
            "SELECT j.submission_id AS submission, e.data AS data FROM jobs j \
             JOIN submission_events e ON e.id = \
                 (SELECT MAX(id) FROM submission_events WHERE submission_id = j.submission_id) \
             WHERE j.status = 'queued' AND j.run_after_ms <= $1 ORDER BY j.id",
        )
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| Ok(DueJob { submission: r.submission, last: decode(&r.data)? }))
            .collect()
    }

    /// Jobs a worker holds.
    pub async fn running_jobs(&self) -> Result<i64, StoreError> {
        let running =
            sqlx::query_as::<_, Count>("SELECT COUNT(*) AS n FROM jobs WHERE status = 'running'")
                .fetch_one(&self.pool)
                .await?;
        Ok(running.n)
    }

    /// Workers, by the name they claimed with, whose lease was taken back since `since_ms` and
    /// that have not been heard from since. One that comes back (a claim or a renewal) is
    /// working again, and its batch job must not be cancelled under its new job.
    pub async fn lost_workers(&self, since_ms: i64) -> Result<Vec<String>, StoreError> {
        #[derive(sqlx::FromRow)]
        struct Lost {
            name: String,
        }
        let rows = sqlx::query_as::<_, Lost>(
            "SELECT name FROM workers WHERE lost_lease_ms >= $1 \
             AND last_seen_ms <= lost_lease_ms ORDER BY name",
        )
        .bind(since_ms)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| r.name).collect())
    }

    /// Appends `event` to the submission's events if it is still queued; `false` when it is not
    /// (a worker took it, or it was cancelled, since it was read).
    pub async fn note_queued(
        &self,
        submission: i64,
        event: &Event,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        // On PostgreSQL the row lock waits for a claim in flight, and the status is then read
        // again: a wait never lands after the worker's `started`.
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE",
            Backend::Sqlite => "",
        };
        let done = sqlx::query(&format!(
            "INSERT INTO submission_events (submission_id, kind, data, at_ms) \
             SELECT id, $1, $2, $3 FROM submissions WHERE id = $4 AND status = 'queued'{lock}"
        ))
        .bind(event.kind())
        .bind(encode(event))
        .bind(now_ms)
        .bind(submission)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
