//! Limits on attempts, counted in the database so that they hold under parallel requests and
//! across app machines.
//!
//! An attempt is recorded *before* the work it limits, in the transaction that counts the
//! earlier ones: a limit whose count is read first and written after the work (an Argon2
//! check takes tens of milliseconds) lets every request of a parallel burst read the same
//! count and pass. Every counting transaction first writes its keys' rows in `limit_keys`
//! (in one order, so two transactions cannot wait on each other): on PostgreSQL that row lock
//! makes transactions on the same key take turns, as SQLite's `BEGIN IMMEDIATE` does for all
//! writers.

use sqlx::{Any, Transaction};

use crate::{NewId, Store, StoreError};

/// At most `max` attempts under `key` in the `window_secs` seconds before now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limit {
    pub key: String,
    pub max: u64,
    pub window_secs: i64,
}

impl Limit {
    pub fn new(key: impl Into<String>, max: u64, window_secs: i64) -> Limit {
        Limit { key: key.into(), max, window_secs }
    }
}

/// A refused attempt: the key whose limit is reached, and when its oldest counted attempt
/// leaves the window (Unix seconds), so the answer can say how long to wait.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub key: String,
    pub attempts: u64,
    pub free_at: i64,
}

impl Refused {
    /// Whole minutes (at least one) until another attempt may pass, as a refusal says them.
    pub fn minutes_left(&self, now: i64) -> i64 {
        ((self.free_at - now).max(1) + 59) / 60
    }
}

/// The attempts recorded for one request, one per limit: [`Store::forgive`] takes them back
/// when the attempt turned out to be one the limit does not count (a right password).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    ids: Vec<(String, i64)>,
}

impl Attempt {
    /// The recorded attempt's id under `key`, if this attempt counted against it.
    fn id_of(&self, key: &str) -> Option<i64> {
        self.ids.iter().find(|(k, _)| k == key).map(|(_, id)| *id)
    }
}

/// Counts the attempts under each limit and, if none is reached, records one under each, all
/// in `tx`. Nothing is recorded when one is refused.
pub(crate) async fn take(
    tx: &mut Transaction<'static, Any>,
    limits: &[Limit],
    now: i64,
) -> Result<Result<Attempt, Refused>, StoreError> {
    #[derive(sqlx::FromRow)]
    struct InWindow {
        n: i64,
        oldest: Option<i64>,
    }
    let mut sorted: Vec<&Limit> = limits.iter().collect();
    sorted.sort_by(|a, b| a.key.cmp(&b.key));
    for limit in &sorted {
        sqlx::query(
            "INSERT INTO limit_keys (key, used) VALUES ($1, $2) \
             ON CONFLICT (key) DO UPDATE SET used = excluded.used",
        )
        .bind(&limit.key)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    for limit in &sorted {
        let window = sqlx::query_as::<_, InWindow>(
            "SELECT COUNT(*) AS n, MIN(at) AS oldest FROM limit_attempts WHERE key = $1 AND at > $2",
        )
        .bind(&limit.key)
        .bind(now - limit.window_secs)
        .fetch_one(&mut **tx)
        .await?;
        let attempts = window.n as u64;
        if attempts >= limit.max {
            let free_at = window.oldest.unwrap_or(now) + limit.window_secs;
            return Ok(Err(Refused { key: limit.key.clone(), attempts, free_at }));
        }
    }
    let mut ids = Vec::with_capacity(sorted.len());
    for limit in &sorted {
        let new = sqlx::query_as::<_, NewId>(
            "INSERT INTO limit_attempts (key, at) VALUES ($1, $2) RETURNING id",
        )
        .bind(&limit.key)
        .bind(now)
        .fetch_one(&mut **tx)
        .await?;
        ids.push((limit.key.clone(), new.id));
    }
    Ok(Ok(Attempt { ids }))
}

impl Store {
    /// Records an attempt under every limit in `limits`, or refuses it (recording nothing)
    /// when one of them is reached. Attempts older than a day are forgotten on the way: no
    /// window is longer.
    pub async fn attempt(
        &self,
        limits: &[Limit],
        now: i64,
    ) -> Result<Result<Attempt, Refused>, StoreError> {
        let mut tx = self.begin_write().await?;
        let taken = take(&mut tx, limits, now).await?;
        if taken.is_ok() {
            sqlx::query("DELETE FROM limit_attempts WHERE at < $1")
                .bind(now - 24 * 3600)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        }
        Ok(taken)
    }

    /// Takes back `attempt`'s record under `key`: the attempt proved to be one this limit
    /// does not count (a sign-in with the right password does not count against its address).
    pub async fn forgive(&self, attempt: &Attempt, key: &str) -> Result<(), StoreError> {
        if let Some(id) = attempt.id_of(key) {
            sqlx::query("DELETE FROM limit_attempts WHERE id = $1")
                .bind(id)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Forgets every attempt under `key` (an account's failures, once its password is given).
    pub async fn clear_attempts(&self, key: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM limit_attempts WHERE key = $1")
            .bind(key)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_says_whole_minutes_until_the_oldest_attempt_leaves_the_window() {
        let refused = |free_at| Refused { key: "k".into(), attempts: 5, free_at };
        assert_eq!(refused(900).minutes_left(10), 15);
        assert_eq!(refused(900).minutes_left(900 - 61), 2);
        assert_eq!(refused(900).minutes_left(900 - 1), 1);
        assert_eq!(refused(900).minutes_left(905), 1);
    }
}
