//! Server-side sessions in the platform's own database, so every app machine sharing a
//! PostgreSQL sees the same sessions. tower-sessions' sqlx store has one type per database;
//! this enum picks one at run time from `DATABASE_URL`.

use std::str::FromStr;
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

use lockstep_store::Backend;

/// The session cookie's name.
pub const COOKIE: &str = "lockstep_session";

#[derive(Debug, Clone)]
pub enum Sessions {
    Sqlite(SqliteStore),
    Postgres(PostgresStore),
}

impl Sessions {
    /// Connects to the database at `url` and creates the session table if it is missing.
    pub async fn connect(url: &str) -> Result<Sessions, sqlx::Error> {
        let sessions = match Backend::of_url(url) {
            Some(Backend::Postgres) => Sessions::Postgres(PostgresStore::new(
                PgPoolOptions::new().max_connections(8).connect(url).await?,
            )),
            // `Store::connect` has refused anything else before this runs.
            _ => {
                let options = SqliteConnectOptions::from_str(url)?
                    .journal_mode(SqliteJournalMode::Wal)
                    .busy_timeout(Duration::from_secs(5));
                Sessions::Sqlite(SqliteStore::new(
                    SqlitePoolOptions::new().max_connections(8).connect_with(options).await?,
                ))
            }
        };
        match &sessions {
            Sessions::Sqlite(s) => s.migrate().await?,
            Sessions::Postgres(s) => s.migrate().await?,
        }
        Ok(sessions)
    }

    /// The layer that gives every request its session. `secure`: the site is served over
    /// HTTPS, so the cookie must only travel over it.
    pub fn layer(&self, secure: bool) -> SessionManagerLayer<Sessions> {
        SessionManagerLayer::new(self.clone())
            .with_name(COOKIE)
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
        match self {
            Sessions::Sqlite(s) => s.create(record).await,
            Sessions::Postgres(s) => s.create(record).await,
        }
    }

    async fn save(&self, record: &Record) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.save(record).await,
            Sessions::Postgres(s) => s.save(record).await,
        }
    }

    async fn load(&self, id: &Id) -> session_store::Result<Option<Record>> {
        match self {
            Sessions::Sqlite(s) => s.load(id).await,
            Sessions::Postgres(s) => s.load(id).await,
        }
    }

    async fn delete(&self, id: &Id) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.delete(id).await,
            Sessions::Postgres(s) => s.delete(id).await,
        }
    }
}

#[async_trait::async_trait]
impl ExpiredDeletion for Sessions {
    async fn delete_expired(&self) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.delete_expired().await,
            Sessions::Postgres(s) => s.delete_expired().await,
        }
    }
}
