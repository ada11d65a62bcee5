//! What the instructor's view reads: every learner and every first answer to a quiz.

use lockstep_xp::{Action, Event as XpEvent};
use sqlx::Row;

use crate::{Store, StoreError};

/// A learner with an account, or an anonymous one with any progress; learners merged into an
/// account are left out (their progress is the account's now).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LearnerRow {
    pub learner_id: String,
    pub email: Option<String>,
    pub created_at: i64,
    pub events: Vec<XpEvent>,
}

/// A learner's first answer to a quiz: the one that says what the lesson taught, before the
/// review showed the right options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuizAnswerRow {
    pub lesson: String,
    pub quiz: u32,
    pub answers: Vec<Vec<usize>>,
}

impl Store {
    pub async fn learners_report(&self) -> Result<Vec<LearnerRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT l.id, a.email, l.created_at FROM learners l LEFT JOIN accounts a ON a.learner_id = l.id \
             WHERE l.merged_into IS NULL AND (a.id IS NOT NULL OR EXISTS (\
               SELECT 1 FROM xp_events e WHERE e.learner_id = l.id AND e.reset_at IS NULL)) \
             ORDER BY l.created_at, l.id",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut learners = Vec::with_capacity(rows.len());
        let mut index = std::collections::HashMap::new();
        for r in &rows {
            let learner_id: String = r.try_get(0)?;
            index.insert(learner_id.clone(), learners.len());
            learners.push(LearnerRow {
                learner_id,
                email: r.try_get(1)?,
                created_at: r.try_get(2)?,
                events: Vec::new(),
            });
        }
        let events = sqlx::query(
            "SELECT learner_id, kind, subject, recorded_at FROM xp_events WHERE reset_at IS NULL \
             ORDER BY recorded_at, id",
        )
        .fetch_all(&self.pool)
        .await?;
        for r in &events {
            let learner: String = r.try_get(0)?;
            let (kind, subject): (String, String) = (r.try_get(1)?, r.try_get(2)?);
            if let (Some(&i), Some(action)) =
                (index.get(&learner), Action::from_stored(&kind, &subject))
            {
                learners[i].events.push(XpEvent { action, at: r.try_get(3)? });
            }
        }
        Ok(learners)
    }

    /// Each learner's first answer to each quiz (resets included: a reset does not unlearn).
    pub async fn first_quiz_answers(&self) -> Result<Vec<QuizAnswerRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT lesson, quiz, answers FROM quiz_attempts WHERE id IN (\
               SELECT MIN(id) FROM quiz_attempts GROUP BY learner_id, lesson, quiz\
             ) ORDER BY lesson, quiz, id",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let quiz: i64 = r.try_get(1)?;
            let answers: String = r.try_get(2)?;
            if let (Ok(quiz), Some(answers)) =
                (u32::try_from(quiz), crate::progress::decode_answers(&answers))
            {
                out.push(QuizAnswerRow { lesson: r.try_get(0)?, quiz, answers });
            }
        }
        Ok(out)
    }
}
