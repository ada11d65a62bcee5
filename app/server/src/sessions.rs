//! Server-side sessions in the platform's own database, so every app machine sharing a
//! PostgreSQL sees the same sessions. tower-sessions' sqlx store has one type per database;
//! [`Sessions`] picks one at run time from `DATABASE_URL`.
//!
//! Every request with a session cookie loads its session. Loaded records are kept in memory and
//! forgotten when this process writes or deletes them (`lockstep_store::read_cache`); on
//! PostgreSQL, where another app machine may sign the session out, also when another machine
//! announces that it did (`lockstep_store::announce`).

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use tower_sessions::cookie::SameSite;
use tower_sessions::session::{Id, Record};
use tower_sessions::session_store::{self, ExpiredDeletion, SessionStore};
use tower_sessions::{Expiry, SessionManagerLayer};
use tower_sessions_sqlx_store::sqlx::postgres::PgPoolOptions;
use tower_sessions_sqlx_store::sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions,
};
use tower_sessions_sqlx_store::{PostgresStore, SqliteStore};

use lockstep_store::read_cache::ReadCache;
use lockstep_store::{Backend, Store};

/// The session cookie's name.
pub const COOKIE: &str = "lockstep_session";
/// The session cookie's name when the site is served over HTTPS.
pub const SECURE_COOKIE: &str = "__Host-lockstep_session";

#[derive(Clone)]
pub struct Sessions {
    backing: Backing,
    kept: Arc<ReadCache<Id, Record>>,
    /// Where writes are announced to other app machines.
    store: Store,
}

#[derive(Debug, Clone)]
enum Backing {
    Sqlite(SqliteStore),
    Postgres(PostgresStore),
}

impl std::fmt::Debug for Sessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.backing.fmt(f)
    }
}

/// Sessions kept in memory at most: far more than are active at once on one machine.
const MAX_KEPT: usize = 100_000;
/// The topic session writes are announced on.
const TOPIC: &str = "session";

impl Sessions {
    /// Connects to the database at `url` (`store`'s) and creates the session table if it is
    /// missing.
    pub async fn connect(url: &str, store: &Store) -> Result<Sessions, sqlx::Error> {
        let backing = match Backend::of_url(url) {
            Some(Backend::Postgres) => Backing::Postgres(PostgresStore::new(
                PgPoolOptions::new().max_connections(8).connect(url).await?,
            )),
            // `Store::connect` has refused anything else before this runs.
            _ => {
                let options = SqliteConnectOptions::from_str(url)?
                    .journal_mode(SqliteJournalMode::Wal)
                    .busy_timeout(Duration::from_secs(5));
                // No ping before each acquire: the connection is in this process.
                let pool = SqlitePoolOptions::new()
                    .max_connections(8)
                    .test_before_acquire(false)
                    .connect_with(options)
                    .await?;
                Backing::Sqlite(SqliteStore::new(pool))
            }
        };
        match &backing {
            Backing::Sqlite(s) => s.migrate().await?,
            Backing::Postgres(s) => s.migrate().await?,
        }
        let kept = Arc::new(ReadCache::new(Duration::from_secs(60), MAX_KEPT));
        store.keep_announced(TOPIC, &kept);
        Ok(Sessions { backing, kept, store: store.clone() })
    }

    /// After a write of session `id` has committed.
    async fn wrote(&self, id: &Id) {
        self.kept.forget(id);
        self.store.announce(TOPIC, &id.to_string()).await;
    }

    /// The layer that gives every request its session. `secure`: the site is served over
    /// HTTPS, so the cookie must only travel over it.
    pub fn layer(&self, secure: bool) -> SessionManagerLayer<Sessions> {
        SessionManagerLayer::new(self.clone())
            // `__Host-` over HTTPS: browsers take such a cookie only from this very host over
            // HTTPS, so a sibling subdomain or a plain-HTTP response cannot plant one.
            .with_name(if secure { SECURE_COOKIE } else { COOKIE })
            .with_http_only(true)
            // Lax, not Strict: a link from elsewhere should open the course signed in.
            // Cross-site posts are refused by the CSRF check, not by the cookie.
            .with_same_site(SameSite::Lax)
            .with_secure(secure)
            .with_expiry(Expiry::OnInactivity(tower_sessions::cookie::time::Duration::days(30)))
    }

    /// Deletes expired sessions every `period`, for as long as the server runs.
    pub fn spawn_cleanup(&self, period: Duration) {
        let sessions = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(period);
            loop {
                tick.tick().await;
                if let Err(e) = sessions.delete_expired().await {
                    tracing::warn!("deleting expired sessions: {e}");
                }
            }
        });
    }
}

#[async_trait::async_trait]
impl SessionStore for Sessions {
    async fn create(&self, record: &mut Record) -> session_store::Result<()> {
        let done = match &self.backing {
            Backing::Sqlite(s) => s.create(record).await,
            Backing::Postgres(s) => s.create(record).await,
        };
        self.wrote(&record.id).await;
        done
    }

    async fn save(&self, record: &Record) -> session_store::Result<()> {
        let done = match &self.backing {
            Backing::Sqlite(s) => s.save(record).await,
            Backing::Postgres(s) => s.save(record).await,
        };
        // Forgotten, not replaced: of two saves at once, the cache cannot tell which the
        // database kept.
        self.wrote(&record.id).await;
        done
    }

    async fn load(&self, id: &Id) -> session_store::Result<Option<Record>> {
        let now = tower_sessions::cookie::time::OffsetDateTime::now_utc();
        if let Some(record) = self.kept.get(id).filter(|r| r.expiry_date > now) {
            return Ok(Some(record));
        }
        let ticket = self.kept.ticket();
        let record = match &self.backing {
            Backing::Sqlite(s) => s.load(id).await,
            Backing::Postgres(s) => s.load(id).await,
        }?;
        if let Some(record) = &record {
            self.kept.put(*id, record.clone(), ticket);
        }
        Ok(record)
    }

    async fn delete(&self, id: &Id) -> session_store::Result<()> {
        let done = match &self.backing {
            Backing::Sqlite(s) => s.delete(id).await,
            Backing::Postgres(s) => s.delete(id).await,
        };
        self.wrote(id).await;
        done
    }
}

#[async_trait::async_trait]
impl ExpiredDeletion for Sessions {
    async fn delete_expired(&self) -> session_store::Result<()> {
        // Kept records are checked for expiry when loaded; nothing to forget here.
        match &self.backing {
            Backing::Sqlite(s) => s.delete_expired().await,
            Backing::Postgres(s) => s.delete_expired().await,
        }
    }
}
