//! Progress: XP events, quiz answers, lesson resets.

use lockstep_clock::Zone;
use lockstep_xp::{Action, Event as XpEvent};

use crate::{Store, StoreError, Write};

/// A learner's last answers to one quiz.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastAnswers {
    pub quiz: u32,
    /// Per question, the options chosen (as the lesson lists them).
    pub answers: Vec<Vec<usize>>,
    /// How many attempts since the lesson's last reset, this one included.
    pub attempts: u32,
    /// The page it was answered on showed the visitors' order, not the learner's.
    pub visitor_order: bool,
}

/// A stored XP event: `kind`, `subject`, `recorded_at` and `utc_offset_s` of `xp_events`
/// ([`EVENT_COLUMNS`]).
#[derive(sqlx::FromRow)]
pub(crate) struct EventRow {
    kind: String,
    subject: String,
    recorded_at: i64,
    utc_offset_s: i32,
}

/// The columns an [`EventRow`] reads.
pub(crate) const EVENT_COLUMNS: &str = "kind, subject, recorded_at, utc_offset_s";

impl EventRow {
    /// `None` for a kind this version does not know: left out, not lost.
    pub(crate) fn into_event(self) -> Option<XpEvent> {
        let action = Action::from_stored(&self.kind, &self.subject)?;
        let day = lockstep_clock::day(self.recorded_at, self.utc_offset_s);
        Some(XpEvent { action, at: self.recorded_at, day })
    }
}

/// What became of a request to set a learner's time zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoneChange {
    Set,
    /// It was that zone already.
    Unchanged,
    /// It was set to another zone less than [`ZONE_CHANGE_MS`] ago.
    TooSoon,
}

/// How often a learner's time zone may change: once a day, so that hopping across the date
/// line cannot make streak days out of hours.
pub const ZONE_CHANGE_MS: i64 = 24 * 3600 * 1000;

#[derive(sqlx::FromRow)]
struct AttemptCounts {
    live: i64,
    ever: i64,
}

#[derive(sqlx::FromRow)]
struct LastAnswersRow {
    lesson: String,
    quiz: i64,
    answers: String,
    attempts: i64,
    visitor_order: i32,
}

impl LastAnswersRow {
    /// `None` for answers this version cannot read: left out, as an unknown event is.
    fn into_last(self) -> Option<(String, LastAnswers)> {
        let quiz = u32::try_from(self.quiz).ok()?;
        let answers = decode_answers(&self.answers)?;
        let attempts = u32::try_from(self.attempts).unwrap_or(u32::MAX);
        let visitor_order = self.visitor_order != 0;
        Some((self.lesson, LastAnswers { quiz, answers, attempts, visitor_order }))
    }
}

impl Store {
    /// Records a new anonymous learner, whose id the server just generated. Only ids recorded
    /// here (or made with an account) are ever taken from a cookie again: see
    /// [`Store::is_live_learner`].
    pub async fn issue_learner(&self, id: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO learners (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Whether `id` is a learner this server issued and has not merged into an account since:
    /// a made-up id, or one replayed after its merge, names no one.
    pub async fn is_live_learner(&self, id: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT 1 FROM learners WHERE id = $1 AND merged_into IS NULL")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Records that `learner` did `action`; `true` the first time, `false` when it was already
    /// recorded (and not reset since). Safe to call any number of times at once: the unique
    /// index on live (learner, kind, subject) rows lets one insert through.
    pub async fn record(
        &self,
        learner: &str,
        action: &Action,
        now: i64,
    ) -> Result<bool, StoreError> {
        // No transaction: the event's row is one statement, and the read of the learner's zone
        // before it only decides the day the event is counted on.
        let mut conn = self.pool.acquire().await?;
        let done = insert_event(&mut conn, learner, action, now).await?;
        // Back to the pool before announcing the write, which takes a connection of its own.
        drop(conn);
        self.wrote_learner(learner).await;
        Ok(done)
    }

    /// The learner's live events (not reset), oldest first. Rows of a kind this version does
    /// not know are left out, not lost.
    pub async fn events(&self, learner: &str) -> Result<Vec<XpEvent>, StoreError> {
        let rows = sqlx::query_as::<_, EventRow>(&format!(
            "SELECT {EVENT_COLUMNS} FROM xp_events WHERE learner_id = $1 AND reset_at IS NULL \
             ORDER BY recorded_at, id"
        ))
        .bind(learner)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().filter_map(EventRow::into_event).collect())
    }

    /// The learner's time zone (an IANA name), if their browser has said it.
    pub async fn time_zone(&self, learner: &str) -> Result<Option<String>, StoreError> {
        let mut conn = self.pool.acquire().await?;
        Ok(stored_zone(&mut conn, learner).await?)
    }

    /// A learner the current request issued takes `zone` (its browser's): set, when it has
    /// none, and the events the request recorded for it counted in it too.
    pub async fn adopt_time_zone(
        &self,
        learner: &str,
        zone: &Zone,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let mut write = self.write().await?;
        let set = sqlx::query(
            "UPDATE learners SET time_zone = $1, time_zone_set_ms = $2 WHERE id = $3 AND time_zone IS NULL",
        )
        .bind(zone.name())
        .bind(now_ms)
        .bind(learner)
        .execute(write.conn())
        .await?;
        if set.rows_affected() == 1 {
            sqlx::query("UPDATE xp_events SET utc_offset_s = $1 WHERE learner_id = $2")
                .bind(zone.offset_s(now_ms.div_euclid(1000)))
                .bind(learner)
                .execute(write.conn())
                .await?;
            write.wrote_learner(learner);
        }
        write.commit().await?;
        Ok(())
    }

    /// Sets the learner's time zone to `zone` (an IANA name the caller checked), unless it was
    /// set to another less than [`ZONE_CHANGE_MS`] before `now_ms`. One statement decides, so
    /// that requests at once cannot each pass the check.
    pub async fn set_time_zone(
        &self,
        learner: &str,
        zone: &str,
        now_ms: i64,
    ) -> Result<ZoneChange, StoreError> {
        let done = sqlx::query(
            "UPDATE learners SET time_zone = $1, time_zone_set_ms = $2 WHERE id = $3 \
             AND (time_zone IS NULL OR (time_zone <> $1 AND time_zone_set_ms <= $4))",
        )
        .bind(zone)
        .bind(now_ms)
        .bind(learner)
        .bind(now_ms - ZONE_CHANGE_MS)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 1 {
            self.wrote_learner(learner).await;
            return Ok(ZoneChange::Set);
        }
        let now = self.time_zone(learner).await?;
        Ok(if now.as_deref() == Some(zone) { ZoneChange::Unchanged } else { ZoneChange::TooSoon })
    }

    /// Resets the learner's progress in one lesson: its events stop counting and its quiz
    /// answers are no longer reviewed (both are kept, marked reset), so its XP goes and can be
    /// earned again. Returns how many events were reset.
    pub async fn reset_lesson(
        &self,
        learner: &str,
        lesson: &str,
        now: i64,
    ) -> Result<u64, StoreError> {
        let mut write = self.write().await?;
        let reset = write.reset_lesson(learner, lesson, now).await?;
        write.commit().await?;
        Ok(reset)
    }

    /// The learner's last answers to each quiz of `lesson` (since any reset).
    pub async fn last_quiz_answers(
        &self,
        learner: &str,
        lesson: &str,
    ) -> Result<Vec<LastAnswers>, StoreError> {
        let answers = self.last_answers(learner, Some(lesson)).await?;
        Ok(answers.into_iter().map(|(_, last)| last).collect())
    }

    /// How many times the learner answered quiz `quiz` of `lesson`: (since its lesson's last
    /// reset, which is the number of the attempt they are on counted from 0; ever, resets
    /// included).
    pub async fn quiz_attempts(
        &self,
        learner: &str,
        lesson: &str,
        quiz: u32,
    ) -> Result<(u32, u32), StoreError> {
        let counts = sqlx::query_as::<_, AttemptCounts>(
            "SELECT COUNT(CASE WHEN reset_at IS NULL THEN 1 END) AS live, COUNT(*) AS ever \
             FROM quiz_attempts WHERE learner_id = $1 AND lesson = $2 AND quiz = $3",
        )
        .bind(learner)
        .bind(lesson)
        .bind(i64::from(quiz))
        .fetch_one(&self.pool)
        .await?;
        let count = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
        Ok((count(counts.live), count(counts.ever)))
    }

    /// (lesson, last answers): the learner's last answers to each quiz since its lesson's last
    /// reset, of one lesson or of all.
    pub(crate) async fn last_answers(
        &self,
        learner: &str,
        lesson: Option<&str>,
    ) -> Result<Vec<(String, LastAnswers)>, StoreError> {
        let of_lesson = if lesson.is_some() { "AND lesson = $2 " } else { "" };
        let query = format!(
            "SELECT a.lesson AS lesson, a.quiz AS quiz, a.answers AS answers, c.n AS attempts, \
             a.visitor_order AS visitor_order \
             FROM quiz_attempts a JOIN (\
               SELECT MAX(id) AS last, COUNT(*) AS n FROM quiz_attempts \
               WHERE learner_id = $1 {of_lesson}AND reset_at IS NULL GROUP BY lesson, quiz\
             ) c ON a.id = c.last ORDER BY a.lesson, a.quiz"
        );
        let mut query = sqlx::query_as::<_, LastAnswersRow>(&query).bind(learner);
        if let Some(lesson) = lesson {
            query = query.bind(lesson);
        }
        let rows = query.fetch_all(&self.pool).await?;
        Ok(rows.into_iter().filter_map(LastAnswersRow::into_last).collect())
    }
}

impl Write<'_> {
    /// As [`Store::record`], in this transaction.
    pub async fn record(
        &mut self,
        learner: &str,
        action: &Action,
        now: i64,
    ) -> Result<bool, StoreError> {
        let done = insert_event(self.conn(), learner, action, now).await?;
        self.wrote_learner(learner);
        Ok(done)
    }

    /// Keeps one answer to quiz `quiz` of `lesson` (per question, the options chosen;
    /// `visitor_order`: the page showed the visitors' order). What it earned is
    /// [`recorded`](Write::record) in the same transaction, so that an answer is never kept
    /// without its XP, nor XP without its answer.
    pub async fn keep_quiz_answers(
        &mut self,
        learner: &str,
        (lesson, quiz): (&str, u32),
        answers: &[Vec<usize>],
        visitor_order: bool,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO quiz_attempts (learner_id, lesson, quiz, answers, visitor_order, answered_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(learner)
        .bind(lesson)
        .bind(i64::from(quiz))
        .bind(encode_answers(answers))
        .bind(i32::from(visitor_order))
        .bind(now)
        .execute(self.conn())
        .await?;
        self.wrote_learner(learner);
        Ok(())
    }

    /// As [`Store::reset_lesson`], in this transaction.
    pub async fn reset_lesson(
        &mut self,
        learner: &str,
        lesson: &str,
        now: i64,
    ) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE xp_events SET reset_at = $1 WHERE learner_id = $2 AND lesson = $3 AND reset_at IS NULL",
        )
        .bind(now)
        .bind(learner)
        .bind(lesson)
        .execute(self.conn())
        .await?;
        sqlx::query(
            "UPDATE quiz_attempts SET reset_at = $1 WHERE learner_id = $2 AND lesson = $3 AND reset_at IS NULL",
        )
        .bind(now)
        .bind(learner)
        .bind(lesson)
        .execute(self.conn())
        .await?;
        self.wrote_learner(learner);
        Ok(done.rows_affected())
    }
}

/// Records `action` once: `true` the first time (a unique index on live rows makes a repeat,
/// however concurrent, insert nothing), with the learner's offset from UTC now, so that its day
/// is theirs. Runs on a pooled connection or inside a transaction.
pub(crate) async fn insert_event(
    conn: &mut sqlx::AnyConnection,
    learner: &str,
    action: &Action,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let zone = stored_zone(&mut *conn, learner).await?.as_deref().and_then(Zone::named);
    let offset = zone.unwrap_or_else(Zone::site_default).offset_s(now);
    let done = sqlx::query(
        "INSERT INTO xp_events (learner_id, kind, subject, lesson, recorded_at, utc_offset_s) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
    )
    .bind(learner)
    .bind(action.kind())
    .bind(action.subject())
    .bind(action.lesson())
    .bind(now)
    .bind(offset)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The learner's time zone as stored; `None` when not set (or no such learner).
async fn stored_zone(
    conn: &mut sqlx::AnyConnection,
    learner: &str,
) -> Result<Option<String>, sqlx::Error> {
    let zone: Option<Option<String>> =
        sqlx::query_scalar("SELECT time_zone FROM learners WHERE id = $1")
            .bind(learner)
            .fetch_optional(conn)
            .await?;
    Ok(zone.flatten())
}

/// `[[1], [0, 2], []]` → `"1;0,2;"`.
fn encode_answers(answers: &[Vec<usize>]) -> String {
    answers
        .iter()
        .map(|q| q.iter().map(usize::to_string).collect::<Vec<_>>().join(","))
        .collect::<Vec<_>>()
        .join(";")
}

pub(crate) fn decode_answers(text: &str) -> Option<Vec<Vec<usize>>> {
    text.split(';')
        .map(|q| {
            if q.is_empty() {
                Some(Vec::new())
            } else {
                q.split(',').map(|o| o.parse().ok()).collect()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_round_trip() {
        for answers in [vec![vec![1], vec![0, 2], vec![]], vec![vec![]], vec![vec![3, 4, 5]]] {
            assert_eq!(decode_answers(&encode_answers(&answers)), Some(answers));
        }
        assert_eq!(decode_answers("1;x"), None);
    }
}
