//! What operators monitor: the queue, grades by verdict, and the workers' heartbeats. Read from
//! the database, so every app machine reports the same figures.

use crate::{Store, StoreError};

/// Workers not heard from for this long are left out of the figures.
pub const WORKER_FORGOTTEN_MS: i64 = 24 * 3600 * 1000;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    /// Jobs waiting for a worker (their retry delay included).
    pub queued: i64,
    /// Age of the oldest of them; 0 when none waits.
    pub oldest_queued_ms: i64,
    /// Jobs a worker holds.
    pub running: i64,
    /// Graded submissions by verdict (`pass`, `fail`, `error`, `timeout`), since the start.
    pub graded: Vec<(String, i64)>,
    /// The same, in the last minute.
    pub graded_last_minute: Vec<(String, i64)>,
    /// Each worker heard from in the last day, and when it was last heard from.
    pub workers: Vec<(String, i64)>,
}

impl Store {
    /// Notes that the worker `name` spoke to the server.
    pub async fn worker_seen(&self, name: &str, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO workers (name, last_seen_ms) VALUES ($1, $2) \
             ON CONFLICT (name) DO UPDATE SET last_seen_ms = excluded.last_seen_ms",
        )
        .bind(name)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Answers when the database does: what a health check asks.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").fetch_one(&self.pool).await?;
        Ok(())
    }

    pub async fn figures(&self, now_ms: i64) -> Result<Figures, StoreError> {
        let (queued, oldest_queued_ms) = self.queue_depth(now_ms).await?;
        let running = self.running_jobs().await?;
        #[derive(sqlx::FromRow)]
        struct OfVerdict {
            verdict_status: String,
            n: i64,
        }
        #[derive(sqlx::FromRow)]
        struct Worker {
            name: String,
            last_seen_ms: i64,
        }
        let by_verdict = |since_s: i64| {
            sqlx::query_as::<_, OfVerdict>(
                "SELECT verdict_status, COUNT(*) AS n FROM submissions \
                 WHERE status = 'graded' AND verdict_status IS NOT NULL AND finished_at >= $1 \
                 GROUP BY verdict_status ORDER BY verdict_status",
            )
            .bind(since_s)
            .fetch_all(&self.pool)
        };
        let pairs = |rows: Vec<OfVerdict>| -> Vec<(String, i64)> {
            rows.into_iter().map(|r| (r.verdict_status, r.n)).collect()
        };
        let graded = pairs(by_verdict(i64::MIN).await?);
        let graded_last_minute = pairs(by_verdict(now_ms / 1000 - 60).await?);
        let workers = sqlx::query_as::<_, Worker>(
            "SELECT name, last_seen_ms FROM workers WHERE last_seen_ms >= $1 ORDER BY name",
        )
        .bind(now_ms - WORKER_FORGOTTEN_MS)
        .fetch_all(&self.pool)
        .await?;
        Ok(Figures {
            queued,
            oldest_queued_ms,
            running,
            graded,
            graded_last_minute,
            workers: workers.into_iter().map(|w| (w.name, w.last_seen_ms)).collect(),
        })
    }
}
