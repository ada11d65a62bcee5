//! What the instructor's view reads: every learner and every first answer to a quiz.

use lockstep_xp::Event as XpEvent;

use crate::progress::{decode_answers, EventRow, EVENT_COLUMNS};
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
        #[derive(sqlx::FromRow)]
        struct Learner {
            learner_id: String,
            email: Option<String>,
            created_at: i64,
        }
        #[derive(sqlx::FromRow)]
        struct LearnerEvent {
            learner_id: String,
            #[sqlx(flatten)]
            event: EventRow,
        }
        let rows = sqlx::query_as::<_, Learner>(
            "SELECT l.id AS learner_id, a.email AS email, l.created_at AS created_at \
             FROM learners l LEFT JOIN accounts a ON a.learner_id = l.id \
             WHERE l.merged_into IS NULL AND (a.id IS NOT NULL OR EXISTS (\
               SELECT 1 FROM xp_events e WHERE e.learner_id = l.id AND e.reset_at IS NULL)) \
             ORDER BY l.created_at, l.id",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut learners = Vec::with_capacity(rows.len());
        let mut index = std::collections::HashMap::new();
        for r in rows {
            index.insert(r.learner_id.clone(), learners.len());
            learners.push(LearnerRow {
                learner_id: r.learner_id,
                email: r.email,
                created_at: r.created_at,
                events: Vec::new(),
            });
        }
        let events = sqlx::query_as::<_, LearnerEvent>(&format!(
            "SELECT learner_id, {EVENT_COLUMNS} FROM xp_events WHERE reset_at IS NULL \
                 ORDER BY recorded_at, id"
        ))
        .fetch_all(&self.pool)
        .await?;
        for r in events {
            if let (Some(&i), Some(event)) = (index.get(&r.learner_id), r.event.into_event()) {
                learners[i].events.push(event);
            }
        }
        Ok(learners)
    }

    /// Each learner's first answer to each quiz (resets included: a reset does not unlearn).
    pub async fn first_quiz_answers(&self) -> Result<Vec<QuizAnswerRow>, StoreError> {
        #[derive(sqlx::FromRow)]
        struct FirstAnswer {
            lesson: String,
            quiz: i64,
            answers: String,
        }
        let rows = sqlx::query_as::<_, FirstAnswer>(
            "SELECT lesson, quiz, answers FROM quiz_attempts WHERE id IN (\
               SELECT MIN(id) FROM quiz_attempts GROUP BY learner_id, lesson, quiz\
             ) ORDER BY lesson, quiz, id",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            if let (Ok(quiz), Some(answers)) = (u32::try_from(r.quiz), decode_answers(&r.answers)) {
                out.push(QuizAnswerRow { lesson: r.lesson, quiz, answers });
            }
        }
        Ok(out)
    }
}
