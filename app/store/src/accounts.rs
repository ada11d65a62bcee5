//! Accounts, and merging an anonymous learner into one.
//!
//! Passwords arrive here already hashed: hashing is slow and belongs to the server, which runs
//! it off the async threads.

use lockstep_xp::Action;

use crate::{Count, Store, StoreError, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Learner,
    Instructor,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Learner => "learner",
            Role::Instructor => "instructor",
        }
    }

    fn parse(s: &str) -> Role {
        // Anything but the one privileged value is the unprivileged role.
        if s == "instructor" {
            Role::Instructor
        } else {
            Role::Learner
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: i64,
    pub email: String,
    pub password_hash: String,
    pub role: Role,
    /// The learner whose events are this account's progress.
    pub learner_id: String,
    pub session_epoch: i64,
    pub created_at: i64,
    /// The name shown beside the account's comments, once chosen.
    pub display_name: Option<String>,
}

/// What a merge moved into the account.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Merged {
    /// Actions now counted for the account that were not before.
    pub moved: Vec<Action>,
    /// Actions the account already had: kept with the anonymous learner, counted once.
    pub already_had: u64,
    /// Quiz answers moved (kept for the review and the instructor's statistics).
    pub quiz_answers: u64,
}

const ACCOUNT_COLUMNS: &str =
    "id, email, password_hash, role, learner_id, session_epoch, created_at, display_name";

#[derive(sqlx::FromRow)]
struct AccountRow {
    id: i64,
    email: String,
    password_hash: String,
    role: String,
    learner_id: String,
    session_epoch: i64,
    created_at: i64,
    display_name: Option<String>,
}

impl From<AccountRow> for Account {
    fn from(r: AccountRow) -> Account {
        Account {
            id: r.id,
            email: r.email,
            password_hash: r.password_hash,
            role: Role::parse(&r.role),
            learner_id: r.learner_id,
            session_epoch: r.session_epoch,
            created_at: r.created_at,
            display_name: r.display_name,
        }
    }
}

impl Store {
    /// Creates an account with its own new learner. `None` when the email is taken.
    pub async fn create_account(
        &self,
        email: &str,
        password_hash: &str,
        learner_id: &str,
        now: i64,
    ) -> Result<Option<Account>, StoreError> {
        let mut tx = self.begin_write().await?;
        sqlx::query("INSERT INTO learners (id, created_at) VALUES ($1, $2)")
            .bind(learner_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        let row = sqlx::query_as::<_, AccountRow>(&format!(
            "INSERT INTO accounts (email, password_hash, learner_id, created_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (email) DO NOTHING RETURNING {ACCOUNT_COLUMNS}"
        ))
        .bind(email)
        .bind(password_hash)
        .bind(learner_id)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            // The learner row made for it goes with the transaction.
            tx.rollback().await?;
            return Ok(None);
        };
        tx.commit().await?;
        Ok(Some(row.into()))
    }

    pub async fn account_by_email(&self, email: &str) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query_as::<_, AccountRow>(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE email = $1"
        ))
        .bind(email)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(Account::from))
    }

    pub async fn account_by_id(&self, id: i64) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query_as::<_, AccountRow>(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(Account::from))
    }

    /// Every account, oldest first.
    pub async fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        let rows = sqlx::query_as::<_, AccountRow>(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts ORDER BY id"
        ))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(Account::from).collect())
    }

    /// Replaces the password hash, bumps the session epoch (which signs out every session
    /// signed in before) and revokes the account's terminal tokens, in one transaction: a
    /// password change or an operator's reset ends every way in that the old password made.
    /// Returns the new epoch; `None` if there is no such account.
    pub async fn set_password_hash(
        &self,
        account_id: i64,
        password_hash: &str,
        now: i64,
    ) -> Result<Option<i64>, StoreError> {
        #[derive(sqlx::FromRow)]
        struct Changed {
            session_epoch: i64,
            learner_id: String,
        }
        let mut tx = self.begin_write().await?;
        let changed = sqlx::query_as::<_, Changed>(
            "UPDATE accounts SET password_hash = $1, session_epoch = session_epoch + 1 WHERE id = $2 \
             RETURNING session_epoch, learner_id",
        )
        .bind(password_hash)
        .bind(account_id)
        .fetch_all(&mut *tx) // to its end: see `Store::renew`
        .await?;
        let Some(changed) = changed.into_iter().next() else { return Ok(None) };
        sqlx::query(
            "UPDATE api_tokens SET revoked_at = $1 WHERE kind = 'learner' AND learner_id = $2 \
             AND revoked_at IS NULL",
        )
        .bind(now)
        .bind(&changed.learner_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.wrote_account(Some(account_id)).await;
        Ok(Some(changed.session_epoch))
    }

    /// Sets the role of the account with this email; `false` if there is none.
    pub async fn set_role(&self, email: &str, role: Role) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE accounts SET role = $1 WHERE email = $2")
            .bind(role.as_str())
            .bind(email)
            .execute(&self.pool)
            .await?;
        self.wrote_account(None).await;
        Ok(done.rows_affected() == 1)
    }

    /// Moves the anonymous learner `from`'s progress into `into` (an account's learner), in one
    /// transaction. Events the account has not got move over; events it already has stay with
    /// `from`, so nothing counts twice and nothing is deleted. All quiz answers move. Merging
    /// again, or merging a learner into itself, moves nothing.
    pub async fn merge_learner(&self, from: &str, into: &str) -> Result<Merged, StoreError> {
        let mut write = self.write().await?;
        let merged = write.merge_learner(from, into).await?;
        write.commit().await?;
        Ok(merged)
    }
}

impl Write<'_> {
    /// As [`Store::merge_learner`], in this transaction.
    pub async fn merge_learner(&mut self, from: &str, into: &str) -> Result<Merged, StoreError> {
        #[derive(sqlx::FromRow)]
        struct MovedRow {
            kind: String,
            subject: String,
            reset_at: Option<i64>,
        }
        if from == into {
            return Ok(Merged::default());
        }
        // The transaction holds SQLite's write lock from its start, so no other writer slips
        // in between reading what the account has and moving rows.
        let moved_rows = sqlx::query_as::<_, MovedRow>(
            "UPDATE xp_events SET learner_id = $1 WHERE learner_id = $2 AND (reset_at IS NOT NULL OR NOT EXISTS (\
               SELECT 1 FROM xp_events mine WHERE mine.learner_id = $1 AND mine.kind = xp_events.kind \
               AND mine.subject = xp_events.subject AND mine.reset_at IS NULL)) \
             RETURNING kind, subject, reset_at",
        )
        .bind(into)
        .bind(from)
        .fetch_all(self.conn())
        .await?;
        let moved = moved_rows
            .iter()
            .filter(|r| r.reset_at.is_none())
            .filter_map(|r| Action::from_stored(&r.kind, &r.subject))
            .collect();
        let already = sqlx::query_as::<_, Count>(
            "SELECT COUNT(*) AS n FROM xp_events WHERE learner_id = $1 AND reset_at IS NULL",
        )
        .bind(from)
        .fetch_one(self.conn())
        .await?
        .n;
        let answers = sqlx::query("UPDATE quiz_attempts SET learner_id = $1 WHERE learner_id = $2")
            .bind(into)
            .bind(from)
            .execute(self.conn())
            .await?;
        sqlx::query("UPDATE learners SET merged_into = $1 WHERE id = $2")
            .bind(into)
            .bind(from)
            .execute(self.conn())
            .await?;
        // A new account's learner has no zone yet: it takes the browser's.
        sqlx::query(
            "UPDATE learners SET time_zone = (SELECT f.time_zone FROM learners f WHERE f.id = $2), \
             time_zone_set_ms = (SELECT f.time_zone_set_ms FROM learners f WHERE f.id = $2) \
             WHERE id = $1 AND time_zone IS NULL",
        )
        .bind(into)
        .bind(from)
        .execute(self.conn())
        .await?;
        self.wrote_learner(from);
        self.wrote_learner(into);
        Ok(Merged { moved, already_had: already as u64, quiz_answers: answers.rows_affected() })
    }
}
