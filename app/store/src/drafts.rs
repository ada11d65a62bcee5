//! A learner's latest script per exercise.

use crate::{Store, StoreError};

/// The script the editor last held for an exercise, and when the server got it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Draft {
    pub script: String,
    pub file_name: String,
    pub saved_ms: i64,
}

impl Store {
    /// Keeps `script` as the learner's draft of `exercise`, replacing the one before. The
    /// caller checks that the exercise exists and the script's size.
    pub async fn save_draft(
        &self,
        learner: &str,
        exercise: &str,
        script: &str,
        file_name: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO drafts (learner_id, exercise, script, file_name, saved_ms) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (learner_id, exercise) DO UPDATE \
             SET script = excluded.script, file_name = excluded.file_name, saved_ms = excluded.saved_ms",
        )
        .bind(learner)
        .bind(exercise)
        .bind(script)
        .bind(file_name)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn draft(&self, learner: &str, exercise: &str) -> Result<Option<Draft>, StoreError> {
        let draft = sqlx::query_as::<_, Draft>(
            "SELECT script, file_name, saved_ms FROM drafts WHERE learner_id = $1 AND exercise = $2",
        )
        .bind(learner)
        .bind(exercise)
        .fetch_optional(&self.pool)
        .await?;
        Ok(draft)
    }
}
