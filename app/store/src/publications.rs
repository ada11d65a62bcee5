//! When each lesson was first seen published, as every app server agrees on it: the first
//! record of a lesson stands, whichever server made it.

use std::collections::BTreeMap;

use crate::{Store, StoreError};

impl Store {
    /// Records that `lessons` are published at `at` (Unix seconds), keeping what is recorded
    /// already; and, the first time any lesson is recorded, every one of them at 0: those were
    /// published before anyone kept count. Returns every lesson's record.
    pub async fn record_publications(
        &self,
        lessons: &[String],
        at: i64,
    ) -> Result<BTreeMap<String, i64>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let (recorded,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM publications").fetch_one(&mut *tx).await?;
        let at = if recorded == 0 { 0 } else { at };
        for lesson in lessons {
            sqlx::query(
                "INSERT INTO publications (lesson, at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            )
            .bind(lesson)
            .bind(at)
            .execute(&mut *tx)
            .await?;
        }
        let rows: Vec<(String, i64)> =
            sqlx::query_as("SELECT lesson, at FROM publications").fetch_all(&mut *tx).await?;
        tx.commit().await?;
        Ok(rows.into_iter().collect())
    }
}
