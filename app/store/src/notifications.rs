//! What a learner is told in the app: replies in the threads they follow (written when the
//! reply is posted, `comments`) and instructors' answers to their reports (`reports`). Only a
//! reply others can see counts: a reply hidden, held or deleted after it was sent drops out of
//! the list and the count until it is shown again.

use crate::{Count, Store, StoreError};

/// A notification as the bell and `/notifications` show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    pub id: i64,
    pub created_ms: i64,
    pub read_ms: Option<i64>,
    /// Where it happened: `lesson:SLUG` or `exercise:ID`.
    pub place: String,
    pub about: About,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum About {
    /// Reply `comment` in thread `thread`, by an author shown by their chosen name or their
    /// account's id, and as an instructor if they are one.
    Reply {
        comment: i64,
        thread: i64,
        author: i64,
        author_name: Option<String>,
        by_instructor: bool,
    },
    /// The instructor answered report `report`, which was about `section` of its page if it
    /// named one.
    Answer { report: i64, status: String, reply: Option<String>, section: Option<String> },
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    created_ms: i64,
    read_ms: Option<i64>,
    place: String,
    comment_id: Option<i64>,
    thread_id: Option<i64>,
    author_id: Option<i64>,
    display_name: Option<String>,
    author_role: Option<String>,
    report_id: Option<i64>,
    section: Option<String>,
    status: Option<String>,
    reply: Option<String>,
}

/// The notifications of account `$1` that may be shown.
const SHOWN: &str = concat!(
    "FROM notifications n \
    LEFT JOIN comments c ON c.id = n.comment_id \
    LEFT JOIN accounts a ON a.id = c.account_id \
    LEFT JOIN reports r ON r.id = n.report_id \
    WHERE n.account_id = $1 AND (n.comment_id IS NULL OR (",
    crate::comments::seen_by_all!("c."),
    " AND c.deleted_ms IS NULL))"
);

impl Store {
    /// `account`'s newest notifications, at most `most`.
    pub async fn notifications(
        &self,
        account: i64,
        most: i64,
    ) -> Result<Vec<Notification>, StoreError> {
        let rows = sqlx::query_as::<_, Row>(&format!(
            "SELECT n.id, n.created_ms, n.read_ms, COALESCE(c.place, r.place) AS place, \
             n.comment_id, c.parent_id AS thread_id, c.account_id AS author_id, a.display_name, \
             a.role AS author_role, n.report_id, r.status, r.reply, r.section {SHOWN} ORDER BY n.created_ms DESC, n.id DESC LIMIT $2"
        ))
        .bind(account)
        .bind(most)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().filter_map(Row::into_notification).collect())
    }

    /// How many of `account`'s notifications are unread: the bell's number.
    pub async fn unread_notifications(&self, account: i64) -> Result<i64, StoreError> {
        let count = sqlx::query_as::<_, Count>(&format!(
            "SELECT COUNT(*) AS n {SHOWN} AND n.read_ms IS NULL"
        ))
        .bind(account)
        .fetch_one(&self.pool)
        .await?;
        Ok(count.n)
    }

    /// Marks `account`'s notification `id` read, or all of them when `id` is `None`. Another
    /// account's notification is never touched: the account is part of the condition.
    pub async fn mark_read(
        &self,
        account: i64,
        id: Option<i64>,
        now_ms: i64,
    ) -> Result<u64, StoreError> {
        let sql = "UPDATE notifications SET read_ms = $2 WHERE account_id = $1 AND read_ms IS NULL";
        let done = match id {
            Some(id) => {
                sqlx::query(&format!("{sql} AND id = $3"))
                    .bind(account)
                    .bind(now_ms)
                    .bind(id)
                    .execute(&self.pool)
                    .await?
            }
            None => sqlx::query(sql).bind(account).bind(now_ms).execute(&self.pool).await?,
        };
        Ok(done.rows_affected())
    }
}

impl Row {
    fn into_notification(self) -> Option<Notification> {
        let about = match (self.comment_id, self.report_id) {
            (Some(comment), _) => About::Reply {
                comment,
                thread: self.thread_id?,
                author: self.author_id?,
                author_name: self.display_name,
                by_instructor: self.author_role.as_deref() == Some("instructor"),
            },
            (None, Some(report)) => About::Answer {
                report,
                status: self.status?,
                reply: self.reply,
                section: self.section,
            },
            (None, None) => return None,
        };
        Some(Notification {
            id: self.id,
            created_ms: self.created_ms,
            read_ms: self.read_ms,
            place: self.place,
            about,
        })
    }
}
