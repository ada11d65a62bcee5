//! "Report a problem": what learners tell the instructors about a lesson, a section, a quiz
//! question or a verdict, and the instructors' answers, which reach the reporter's
//! notifications when they were signed in.

use crate::limits::take;
use crate::{NewId, Refused, Store, StoreError};

/// A report to file: its text already checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewReport<'a> {
    pub place: &'a str,
    pub section: Option<&'a str>,
    pub question: Option<&'a str>,
    pub submission: Option<&'a str>,
    /// `None` for an anonymous reporter, who hears nothing back.
    pub account: Option<i64>,
    pub body: &'a str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportStatus {
    Open,
    Fixed,
    WontFix,
}

impl ReportStatus {
    pub const ALL: [ReportStatus; 3] =
        [ReportStatus::Open, ReportStatus::Fixed, ReportStatus::WontFix];

    pub fn as_str(self) -> &'static str {
        match self {
            ReportStatus::Open => "open",
            ReportStatus::Fixed => "fixed",
            ReportStatus::WontFix => "wontfix",
        }
    }

    pub fn parse(text: &str) -> Option<ReportStatus> {
        ReportStatus::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

/// A report as the instructor view lists it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Report {
    pub id: i64,
    pub place: String,
    pub section: Option<String>,
    pub question: Option<String>,
    pub submission_id: Option<String>,
    pub account_id: Option<i64>,
    /// The reporter's email, for instructors only.
    pub email: Option<String>,
    pub body: String,
    pub status: String,
    pub reply: Option<String>,
    pub answered_ms: Option<i64>,
    pub created_ms: i64,
}

impl Store {
    /// Files `new` if every limit allows it, counting the attempt in the same transaction.
    pub async fn file_report(
        &self,
        new: &NewReport<'_>,
        limits: &[crate::Limit],
        now_ms: i64,
    ) -> Result<Result<i64, Refused>, StoreError> {
        let mut tx = self.begin_write().await?;
        if let Err(refused) = take(&mut tx, limits, now_ms / 1000).await? {
            return Ok(Err(refused));
        }
        let id = sqlx::query_as::<_, NewId>(
            "INSERT INTO reports (place, section, question, submission_id, account_id, body, \
             status, created_ms) VALUES ($1, $2, $3, $4, $5, $6, 'open', $7) RETURNING id",
        )
        .bind(new.place)
        .bind(new.section)
        .bind(new.question)
        .bind(new.submission)
        .bind(new.account)
        .bind(new.body)
        .bind(now_ms)
        .fetch_one(&mut *tx)
        .await?
        .id;
        tx.commit().await?;
        Ok(Ok(id))
    }

    /// Every report, newest first.
    pub async fn reports(&self) -> Result<Vec<Report>, StoreError> {
        let rows = sqlx::query_as::<_, Report>(
            "SELECT r.id, r.place, r.section, r.question, r.submission_id, r.account_id, \
             a.email, r.body, r.status, r.reply, r.answered_ms, r.created_ms \
             FROM reports r LEFT JOIN accounts a ON a.id = r.account_id \
             ORDER BY r.created_ms DESC, r.id DESC",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// An instructor's answer: the report's status and reply (`None` keeps no reply). A
    /// signed-in reporter is notified. `false` when there is no such report.
    pub async fn answer_report(
        &self,
        id: i64,
        status: ReportStatus,
        reply: Option<&str>,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        #[derive(sqlx::FromRow)]
        struct Reporter {
            account_id: Option<i64>,
        }
        let mut tx = self.begin_write().await?;
        let reporter = sqlx::query_as::<_, Reporter>(
            "UPDATE reports SET status = $2, reply = $3, answered_ms = $4 WHERE id = $1 \
             RETURNING account_id",
        )
        .bind(id)
        .bind(status.as_str())
        .bind(reply)
        .bind(now_ms)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(reporter) = reporter else {
            return Ok(false);
        };
        if let Some(account) = reporter.account_id {
            sqlx::query(
                "INSERT INTO notifications (account_id, report_id, created_ms) VALUES ($1, $2, $3)",
            )
            .bind(account)
            .bind(id)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}
