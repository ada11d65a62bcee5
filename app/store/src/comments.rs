//! Comments: threads under a lesson or an exercise, one level of replies, and what their
//! authors may do with them. The rules that need the database to hold under parallel requests
//! (limits, a repeated comment, replying to a locked or hidden thread) are decided inside the
//! write transaction that inserts; the text's own rules are `lockstep-comments`'.

use sqlx::{Any, Transaction};

use crate::limits::take;

/// The SQL condition that a comment (columns prefixed `$prefix`) is seen by every reader: not
/// held for review, not hidden. `lockstep_rules::comments::sees` is the same rule in Rust.
macro_rules! seen_by_all {
    ($prefix:literal) => {
        concat!($prefix, "hidden_ms IS NULL AND ", $prefix, "held_ms IS NULL")
    };
}
use crate::{Count, Limit, NewId, Refused, Store, StoreError};
pub(crate) use seen_by_all;

/// A comment to post: its text already checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewComment<'a> {
    pub place: &'a str,
    pub parent: Option<i64>,
    pub account: i64,
    pub body: &'a str,
    pub section: Option<&'a str>,
    /// Hold the comment for an instructor when its author has none shown yet (the
    /// instructors' setting for new accounts, [`HOLD_FIRST_COMMENTS`]).
    pub hold_newcomers: bool,
}

/// The setting that holds a new account's comments until an instructor releases one.
pub const HOLD_FIRST_COMMENTS: &str = "hold_first_comments";

/// Why a comment, an edit or a deletion was not made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejected {
    /// A limit on posting is reached.
    Limit(Refused),
    /// The author posted the same text at the same place within the window.
    Repeated,
    /// The comment replied to is not one a reply can go under here: unknown, at another
    /// place, itself a reply, deleted or hidden (a learner cannot tell which).
    NoSuchThread,
    /// The thread is locked.
    Locked,
    /// Not the author's comment, or no such comment (a learner cannot tell which).
    NotYours,
    /// Edited after the window.
    TooLate,
}

/// What an instructor may do to any comment. Restoring also releases a held comment; deleting
/// a thread's first comment deletes its replies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moderation {
    Hide,
    Restore,
    Lock,
    Unlock,
    Delete,
}

/// A comment as a page shows it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Comment {
    pub id: i64,
    pub place: String,
    pub parent_id: Option<i64>,
    pub account_id: i64,
    /// The author's chosen name, if any.
    pub display_name: Option<String>,
    /// The author's learner, whose events give their level.
    pub learner_id: String,
    /// The author's role (`learner`, `instructor`): instructors' comments say so.
    pub author_role: String,
    /// The author's email: instructors see who wrote what; nobody else is ever shown it.
    pub author_email: String,
    pub body: String,
    pub section: Option<String>,
    pub created_ms: i64,
    pub edited_ms: Option<i64>,
    pub deleted_ms: Option<i64>,
    pub hidden_ms: Option<i64>,
    pub held_ms: Option<i64>,
    pub locked_ms: Option<i64>,
    pub activity_ms: i64,
}

const SELECT_COMMENTS: &str = "SELECT c.id, c.place, c.parent_id, c.account_id, \
    a.display_name, a.learner_id, a.role AS author_role, a.email AS author_email, c.body, c.section, c.created_ms, c.edited_ms, c.deleted_ms, \
    c.hidden_ms, c.held_ms, c.locked_ms, c.activity_ms \
    FROM comments c JOIN accounts a ON a.id = c.account_id";

/// How long the same author's same text at the same place counts as repeated.
pub const REPEAT_WINDOW_MS: i64 = 10 * 60 * 1000;

impl Store {
    /// Posts `new` if every limit allows it and it is not a repeat, all in one transaction: the
    /// limits' key rows are written first, so on PostgreSQL two posts by one author take turns
    /// and cannot both pass the repeat check. A reply moves its thread up.
    pub async fn post_comment(
        &self,
        new: &NewComment<'_>,
        limits: &[Limit],
        now_ms: i64,
    ) -> Result<Result<i64, Rejected>, StoreError> {
        let mut tx = self.begin_write().await?;
        let rejected = match take(&mut tx, limits, now_ms / 1000).await? {
            Err(refused) => Some(Rejected::Limit(refused)),
            Ok(_) => check_new(&mut tx, new, now_ms).await?,
        };
        if let Some(rejected) = rejected {
            return Ok(Err(rejected));
        }
        let held = new.hold_newcomers && !has_shown_comment(&mut tx, new.account).await?;
        let id = sqlx::query_as::<_, NewId>(
            "INSERT INTO comments (place, parent_id, account_id, body, section, created_ms, \
             held_ms, activity_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $6) RETURNING id",
        )
        .bind(new.place)
        .bind(new.parent)
        .bind(new.account)
        .bind(new.body)
        .bind(new.section)
        .bind(now_ms)
        .bind(held.then_some(now_ms))
        .fetch_one(&mut *tx)
        .await?
        .id;
        let thread = new.parent.unwrap_or(id);
        if let Some(parent) = new.parent {
            sqlx::query("UPDATE comments SET activity_ms = $1 WHERE id = $2")
                .bind(now_ms)
                .bind(parent)
                .execute(&mut *tx)
                .await?;
            // Before the author follows: nobody is told of their own reply.
            sqlx::query(
                "INSERT INTO notifications (account_id, comment_id, created_ms) \
                 SELECT account_id, $1, $2 FROM follows WHERE thread_id = $3 AND account_id <> $4",
            )
            .bind(id)
            .bind(now_ms)
            .bind(parent)
            .bind(new.account)
            .execute(&mut *tx)
            .await?;
        }
        // Starting a thread or replying in it follows it.
        set_follow(&mut tx, new.account, thread, true).await?;
        touch(&mut tx, new.place).await?;
        tx.commit().await?;
        self.wrote_place(new.place).await;
        self.wrote_follows(Some(new.account)).await;
        Ok(Ok(id))
    }

    /// Replaces the text of the author's own comment, within `window_ms` of posting it.
    pub async fn edit_comment(
        &self,
        id: i64,
        account: i64,
        body: &str,
        window_ms: i64,
        now_ms: i64,
    ) -> Result<Result<(), Rejected>, StoreError> {
        let mut tx = self.begin_write().await?;
        let Some(c) = own_live(&mut tx, id, account).await? else {
            return Ok(Err(Rejected::NotYours));
        };
        if now_ms - c.created_ms > window_ms {
            return Ok(Err(Rejected::TooLate));
        }
        sqlx::query("UPDATE comments SET body = $1, edited_ms = $2 WHERE id = $3")
            .bind(body)
            .bind(now_ms)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        touch(&mut tx, &c.place).await?;
        tx.commit().await?;
        self.wrote_place(&c.place).await;
        Ok(Ok(()))
    }

    /// Deletes the author's own comment: a thread's first comment that has replies stays as
    /// "deleted" (its text emptied) so the replies keep their place; any other is removed.
    pub async fn delete_comment(
        &self,
        id: i64,
        account: i64,
        now_ms: i64,
    ) -> Result<Result<(), Rejected>, StoreError> {
        let mut tx = self.begin_write().await?;
        let Some(own) = own_live(&mut tx, id, account).await? else {
            return Ok(Err(Rejected::NotYours));
        };
        let replies =
            sqlx::query_as::<_, Count>("SELECT COUNT(*) AS n FROM comments WHERE parent_id = $1")
                .bind(id)
                .fetch_one(&mut *tx)
                .await?
                .n;
        if replies > 0 {
            sqlx::query("UPDATE comments SET body = '', deleted_ms = $1 WHERE id = $2")
                .bind(now_ms)
                .bind(id)
                .execute(&mut *tx)
                .await?;
        } else {
            sqlx::query("DELETE FROM comments WHERE id = $1").bind(id).execute(&mut *tx).await?;
        }
        touch(&mut tx, &own.place).await?;
        tx.commit().await?;
        self.wrote_place(&own.place).await;
        if replies == 0 {
            self.wrote_follows(None).await;
        }
        Ok(Ok(()))
    }

    /// The comments at `place`: threads by newest activity first, each followed by its
    /// replies, oldest first. Hidden and held comments are included (the caller decides who
    /// sees them).
    pub async fn comments_at(&self, place: &str) -> Result<Vec<Comment>, StoreError> {
        let rows = sqlx::query_as::<_, Comment>(&format!(
            "{SELECT_COMMENTS} LEFT JOIN comments r ON r.id = c.parent_id WHERE c.place = $1 \
             ORDER BY COALESCE(r.activity_ms, c.activity_ms) DESC, COALESCE(r.id, c.id) DESC, \
             c.parent_id IS NOT NULL, c.created_ms, c.id"
        ))
        .bind(place)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// An instructor's action on any comment; `false` when there is no such comment (or, for
    /// a lock, when it is a reply).
    pub async fn moderate(
        &self,
        id: i64,
        action: Moderation,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        let Some(place) = place_of(&mut tx, id).await? else {
            return Ok(false);
        };
        let (sql, at) = match action {
            Moderation::Hide => ("UPDATE comments SET hidden_ms = $2 WHERE id = $1", Some(now_ms)),
            Moderation::Restore => {
                ("UPDATE comments SET hidden_ms = NULL, held_ms = NULL WHERE id = $1", None)
            }
            Moderation::Lock => (
                "UPDATE comments SET locked_ms = $2 WHERE id = $1 AND parent_id IS NULL",
                Some(now_ms),
            ),
            Moderation::Unlock => {
                ("UPDATE comments SET locked_ms = NULL WHERE id = $1 AND parent_id IS NULL", None)
            }
            Moderation::Delete => {
                sqlx::query("DELETE FROM comments WHERE parent_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                ("DELETE FROM comments WHERE id = $1", None)
            }
        };
        let mut query = sqlx::query(sql).bind(id);
        if let Some(at) = at {
            query = query.bind(at);
        }
        let done = query.execute(&mut *tx).await?.rows_affected();
        touch(&mut tx, &place).await?;
        tx.commit().await?;
        self.wrote_place(&place).await;
        if matches!(action, Moderation::Delete) {
            self.wrote_follows(None).await;
        }
        Ok(done > 0)
    }

    /// One comment, whatever its state.
    pub async fn comment(&self, id: i64) -> Result<Option<Comment>, StoreError> {
        let row = sqlx::query_as::<_, Comment>(&format!("{SELECT_COMMENTS} WHERE c.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row)
    }

    /// The version of the comments at `place`: it changes with every write to them, and is 0
    /// where nothing was ever written.
    pub async fn comments_version(&self, place: &str) -> Result<i64, StoreError> {
        #[derive(sqlx::FromRow)]
        struct Version {
            version: i64,
        }
        let row =
            sqlx::query_as::<_, Version>("SELECT version FROM comment_places WHERE place = $1")
                .bind(place)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map_or(0, |r| r.version))
    }

    /// Follows thread `thread` (a thread's first comment) or stops following it; `false` when
    /// there is no such thread.
    pub async fn follow(&self, account: i64, thread: i64, on: bool) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        let exists = sqlx::query_as::<_, Count>(
            "SELECT COUNT(*) AS n FROM comments WHERE id = $1 AND parent_id IS NULL",
        )
        .bind(thread)
        .fetch_one(&mut *tx)
        .await?
        .n > 0;
        if exists {
            set_follow(&mut tx, account, thread, on).await?;
        }
        tx.commit().await?;
        self.wrote_follows(Some(account)).await;
        Ok(exists)
    }

    /// Every thread `account` follows, with its place.
    pub(crate) async fn follows(&self, account: i64) -> Result<Vec<(String, i64)>, StoreError> {
        #[derive(sqlx::FromRow)]
        struct Followed {
            place: String,
            thread_id: i64,
        }
        let rows = sqlx::query_as::<_, Followed>(
            "SELECT c.place, f.thread_id FROM follows f JOIN comments c ON c.id = f.thread_id \
             WHERE f.account_id = $1 ORDER BY f.thread_id",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| (r.place, r.thread_id)).collect())
    }

    /// The threads at `place` that `account` follows.
    pub async fn followed_at(&self, account: i64, place: &str) -> Result<Vec<i64>, StoreError> {
        #[derive(sqlx::FromRow)]
        struct Thread {
            thread_id: i64,
        }
        let rows = sqlx::query_as::<_, Thread>(
            "SELECT f.thread_id FROM follows f JOIN comments c ON c.id = f.thread_id \
             WHERE f.account_id = $1 AND c.place = $2 ORDER BY f.thread_id",
        )
        .bind(account)
        .bind(place)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| r.thread_id).collect())
    }

    /// Sets the name the account is shown by; `None` clears it.
    pub async fn set_display_name(
        &self,
        account: i64,
        name: Option<&str>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE accounts SET display_name = $1 WHERE id = $2")
            .bind(name)
            .bind(account)
            .execute(&self.pool)
            .await?;
        self.wrote_account(Some(account)).await;
        Ok(())
    }
}

#[derive(sqlx::FromRow)]
struct Own {
    created_ms: i64,
    place: String,
}

/// The author's own comment `id`, if it is there and not deleted.
async fn own_live(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    account: i64,
) -> Result<Option<Own>, StoreError> {
    Ok(sqlx::query_as::<_, Own>(
        "SELECT created_ms, place FROM comments WHERE id = $1 AND account_id = $2 \
         AND deleted_ms IS NULL",
    )
    .bind(id)
    .bind(account)
    .fetch_optional(&mut **tx)
    .await?)
}

/// Why `new` may not be posted now, if it may not: its thread, then a repeat.
async fn check_new(
    tx: &mut Transaction<'static, Any>,
    new: &NewComment<'_>,
    now_ms: i64,
) -> Result<Option<Rejected>, StoreError> {
    #[derive(sqlx::FromRow)]
    struct Thread {
        locked_ms: Option<i64>,
    }
    if let Some(parent) = new.parent {
        let thread = sqlx::query_as::<_, Thread>(
            "SELECT locked_ms FROM comments WHERE id = $1 AND place = $2 AND parent_id IS NULL \
             AND deleted_ms IS NULL AND hidden_ms IS NULL",
        )
        .bind(parent)
        .bind(new.place)
        .fetch_optional(&mut **tx)
        .await?;
        match thread {
            None => return Ok(Some(Rejected::NoSuchThread)),
            Some(Thread { locked_ms: Some(_) }) => return Ok(Some(Rejected::Locked)),
            Some(_) => {}
        }
    }
    let repeats = sqlx::query_as::<_, Count>(
        "SELECT COUNT(*) AS n FROM comments WHERE account_id = $1 AND place = $2 AND body = $3 \
         AND created_ms > $4",
    )
    .bind(new.account)
    .bind(new.place)
    .bind(new.body)
    .bind(now_ms - REPEAT_WINDOW_MS)
    .fetch_one(&mut **tx)
    .await?
    .n;
    Ok((repeats > 0).then_some(Rejected::Repeated))
}

/// Raises the version of `place`'s comments, in the transaction that changed them.
async fn touch(tx: &mut Transaction<'static, Any>, place: &str) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO comment_places (place, version) VALUES ($1, 1) \
         ON CONFLICT (place) DO UPDATE SET version = comment_places.version + 1",
    )
    .bind(place)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn place_of(
    tx: &mut Transaction<'static, Any>,
    id: i64,
) -> Result<Option<String>, StoreError> {
    #[derive(sqlx::FromRow)]
    struct Place {
        place: String,
    }
    let row = sqlx::query_as::<_, Place>("SELECT place FROM comments WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.map(|r| r.place))
}

async fn set_follow(
    tx: &mut Transaction<'static, Any>,
    account: i64,
    thread: i64,
    on: bool,
) -> Result<(), StoreError> {
    let sql = if on {
        "INSERT INTO follows (account_id, thread_id) VALUES ($1, $2) ON CONFLICT DO NOTHING"
    } else {
        "DELETE FROM follows WHERE account_id = $1 AND thread_id = $2"
    };
    sqlx::query(sql).bind(account).bind(thread).execute(&mut **tx).await?;
    Ok(())
}

/// Whether `account` has a comment others see: then it is no newcomer to hold.
async fn has_shown_comment(
    tx: &mut Transaction<'static, Any>,
    account: i64,
) -> Result<bool, StoreError> {
    let shown = sqlx::query_as::<_, Count>(concat!(
        "SELECT COUNT(*) AS n FROM comments WHERE account_id = $1 AND ",
        seen_by_all!("")
    ))
    .bind(account)
    .fetch_one(&mut **tx)
    .await?
    .n;
    Ok(shown > 0)
}
