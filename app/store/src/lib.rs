//! The platform's database.
//!
//! SQLite (a file next to the server) is the default; a `postgres://` URL selects PostgreSQL,
//! for several machines sharing one database. Both go through sqlx's `Any` driver so every
//! query is written once; the SQL sticks to what both dialects accept (`$1` placeholders,
//! `BIGINT` unix seconds, `ON CONFLICT DO NOTHING`). Migrations are kept per backend because
//! DDL is where the dialects diverge; today the two directories are identical.
//!
//! # What is where
//!
//! The database: sqlx `Any` pool, SQLite by default or PostgreSQL from the URL, with migrations per
//! backend (`migrations/sqlite`, `migrations/postgres`) applied at start. Queries are written once,
//! in SQL both dialects accept (the exceptions: `FOR UPDATE SKIP LOCKED` on PostgreSQL, and `BEGIN
//! IMMEDIATE` for every write transaction on SQLite, `Store::begin_write`, so a transaction that
//! reads before it writes waits for the write lock instead of failing with "database is locked").
//! Rows are read by column name into `sqlx::FromRow` structs, then turned into the public types; a
//! value this version cannot read is `StoreError::Corrupt`. Writes that belong together run in one
//! transaction a caller holds, `Store::write` (a `Write`: `record`, `keep_quiz_answers`,
//! `reset_lesson`, `merge_learner`, then `commit`), which `Store::reset_lesson` and `merge_learner`
//! open around their own writes and `lockstep_rules::quiz` opens to keep an answer with the XP it
//! earned (`Store::record`, one statement, needs none); a `Write` forgets the kept reads it changed
//! only once it has committed. It keeps learners, XP events (`record`, `events`, `reset_lesson`),
//! quiz answers, accounts, merging an anonymous learner into an account (`merge_learner`), the
//! learners it issued (`issue_learner`, `is_live_learner`: only an issued, unmerged id names a
//! learner), every rate limit (`limits.rs`: an attempt is counted and recorded in one transaction,
//! before the work it limits, with a per-key row lock that makes PostgreSQL transactions on one key
//! take turns; `submit` counts the hourly limit in the submission's own transaction), the
//! instructor's report queries (`report.rs`), submissions and the grading queue (`queue.rs`), API
//! tokens (`tokens.rs`), workers' heartbeats and the operators' figures (`monitor.rs`), and the
//! reads a lesson page may take from memory between this process's writes (`read_cache.rs`, the
//! mechanism; `cached.rs`, `Store::cached`). Passwords and tokens arrive already hashed. Comments
//! (`comments.rs`): threads with one level of replies; a post takes its limits' key rows, then
//! checks its thread and the repeat rule, holds a newcomer's comment when the instructors' setting
//! asks, inserts, tells the thread's followers and makes the author one, all in one write
//! transaction; every write to a place's comments raises its version (`comment_places`), which live
//! readers on any app machine poll. Notifications (`notifications.rs`: a reply hidden, held or
//! deleted after it was sent drops out of the list and the count; only the account's own are read
//! or marked), reports and the instructors' answers (`problems.rs`), site settings (`settings.rs`).

use sqlx::any::AnyPoolOptions;
use sqlx::migrate::Migrator;
use sqlx::{AnyPool, Executor};

mod accounts;
pub mod announce;
mod cached;
mod comments;
mod drafts;
mod limits;
mod monitor;
mod notifications;
mod pilots;
mod problems;
mod progress;
mod publications;
mod queue;
pub mod read_cache;
mod report;
mod settings;
mod tokens;
mod write;

pub use accounts::{Account, Merged, Role};
pub use cached::{Cached, LearnerReads};
pub use comments::{
    Comment, Moderation, NewComment, Rejected, HOLD_FIRST_COMMENTS, REPEAT_WINDOW_MS,
};
pub use drafts::Draft;
pub use limits::{Attempt, Limit, Refused};
pub use monitor::{Figures, WORKER_FORGOTTEN_MS};
pub use notifications::{About, Notification};
pub use pilots::DueJob;
pub use problems::{NewReport, Report, ReportStatus};
pub use progress::LastAnswers;
pub use progress::{ZoneChange, ZONE_CHANGE_MS};
pub use queue::{
    Claimed, Finished, NewSubmission, Requeue, RetryPolicy, StoredEvent, Submission,
    SubmissionStatus,
};
pub use report::{LearnerRow, QuizAnswerRow};
pub use tokens::{TokenKind, TokenOwner};
pub use write::Write;

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("migrations/postgres");

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("unsupported database URL `{0}`: use sqlite://PATH or postgres://…")]
    UnsupportedUrl(String),
    #[error("cannot connect to the database: {0}")]
    Connect(#[source] sqlx::Error),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("database query failed: {0}")]
    Query(#[from] sqlx::Error),
    #[error("the database holds a value this version cannot read: {0}")]
    Corrupt(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of_url(url: &str) -> Option<Backend> {
        if url.starts_with("sqlite:") {
            Some(Backend::Sqlite)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Some(Backend::Postgres)
        } else {
            None
        }
    }
}

#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    caches: std::sync::Arc<cached::Caches>,
    /// The database's URL on PostgreSQL, where this process may listen for others' writes.
    url: Option<std::sync::Arc<str>>,
}

/// Default database: a SQLite file in the working directory, created on first start.
pub const DEFAULT_URL: &str = "sqlite://lockstep.sqlite3?mode=rwc";

impl Store {
    /// Connects and applies pending migrations.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = Backend::of_url(url).ok_or_else(|| StoreError::UnsupportedUrl(url.into()))?;
        let mut options = AnyPoolOptions::new().max_connections(16);
        if backend == Backend::Sqlite {
            // A SQLite connection lives in this process and cannot drop; sqlx's default ping
            // before each acquire is a round trip to its worker thread for nothing.
            options = options.test_before_acquire(false).after_connect(|conn, _| {
                Box::pin(async move {
                    // WAL lets page reads go on while a write commits; foreign keys are off by
                    // default in SQLite.
                    conn.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;")
                        .await?;
                    Ok(())
                })
            });
        }
        let pool = options.connect(url).await.map_err(StoreError::Connect)?;
        match backend {
            Backend::Sqlite => SQLITE_MIGRATIONS.run(&pool).await?,
            Backend::Postgres => POSTGRES_MIGRATIONS.run(&pool).await?,
        }
        Ok(Store {
            pool,
            backend,
            caches: std::sync::Arc::new(cached::Caches::for_backend(backend)),
            url: (backend == Backend::Postgres).then(|| url.into()),
        })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A transaction that will write. On SQLite it takes the write lock at `BEGIN IMMEDIATE`,
    /// where a busy database waits out `busy_timeout`. A deferred transaction that reads first
    /// would take the lock at its first write instead, and SQLite never waits there: it fails
    /// at once with "database is locked" while another connection holds the lock, as one whose
    /// dropped transaction has not yet rolled back does for a moment.
    pub(crate) async fn begin_write(
        &self,
    ) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.pool.begin().await,
        }
    }

    /// Closes every connection; pending writes are flushed (SQLite checkpoints its WAL).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// A row of one count, selected `AS n`.
#[derive(sqlx::FromRow)]
pub(crate) struct Count {
    n: i64,
}

/// A row of one new id, `RETURNING id`.
#[derive(sqlx::FromRow)]
pub(crate) struct NewId {
    id: i64,
}
