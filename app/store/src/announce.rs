//! Kept reads on PostgreSQL, where several app machines write one database.
//!
//! Every write that makes a kept read stale announces the key it wrote, once it has committed,
//! with `NOTIFY` on one channel (`pg_notify(CHANNEL, 'topic:key')`); every app server
//! `LISTEN`s on it and forgets that key in the cache of that topic. A cache keeps nothing while
//! its process is not listening: from the start until `LISTEN` has succeeded, and from the
//! moment the listening connection is lost until it is back, since whatever was announced in
//! between never arrived. Each resume refuses reads begun before it (`ReadCache::resume`), so
//! the ticket rule against stale fills holds across machines as it does within one.
//!
//! A process that dies between its commit and its `NOTIFY` leaves other machines' entries of
//! that key to their time to live (a minute); `lockstep admin` announces as the servers do.
//! On SQLite one process writes and nothing is announced.

use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgListener, PgPoolOptions};

use crate::read_cache::Announced;
use crate::{Backend, Store};

/// The channel every announcement goes on.
pub const CHANNEL: &str = "lockstep_kept_reads";
/// The key announced by a write whose keys are not known: forget them all.
pub const ALL: &str = "*";
/// The listening connection's `application_name`, by which an operator finds it in
/// `pg_stat_activity`.
pub const LISTENER_NAME: &str = "lockstep kept reads";

/// Who forgets what an announcement names: the caches of this process, by topic.
#[derive(Default)]
pub(crate) struct Listeners {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    topics: Vec<(&'static str, Weak<dyn Announced>)>,
    /// Set while this process's `LISTEN` is live; caches keep nothing otherwise.
    listening: bool,
}

impl Listeners {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `cache` forgets the keys announced on `topic`; paused until this process listens.
    pub(crate) fn add(&self, topic: &'static str, cache: Weak<dyn Announced>) {
        let mut inner = self.lock();
        if !inner.listening {
            if let Some(cache) = cache.upgrade() {
                cache.pause();
            }
        }
        inner.topics.retain(|(_, c)| c.strong_count() > 0);
        inner.topics.push((topic, cache));
    }

    /// An announcement, `topic:key`, from any process (this one's own come back too).
    fn heard(&self, payload: &str) {
        let (topic, key) = payload.split_once(':').unwrap_or((payload, ALL));
        for (t, cache) in &self.lock().topics {
            if *t == topic {
                if let Some(cache) = cache.upgrade() {
                    cache.forget_announced(key);
                }
            }
        }
    }

    fn set_listening(&self, listening: bool) {
        let mut inner = self.lock();
        if inner.listening == listening {
            return;
        }
        inner.listening = listening;
        for (_, cache) in &inner.topics {
            if let Some(cache) = cache.upgrade() {
                if listening {
                    cache.resume()
                } else {
                    cache.pause()
                }
            }
        }
    }
}

impl Store {
    /// After a write of `key` on `topic` has committed: tells every app machine on this
    /// database to forget it. The write stands whatever happens here; a failure to announce
    /// leaves other machines' entries to their time to live, and is logged.
    pub async fn announce(&self, topic: &str, key: &str) {
        if self.backend != Backend::Postgres {
            return;
        }
        let sent = sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(format!("{topic}:{key}"))
            .execute(&self.pool)
            .await;
        if let Err(e) = sent {
            tracing::warn!("announcing a write of {topic} {key} to other app machines: {e}");
        }
    }

    /// A cache of the caller's (the sessions') that forgets what writes announce on `topic`.
    pub fn keep_announced(&self, topic: &'static str, cache: &Arc<impl Announced + 'static>) {
        if self.backend == Backend::Postgres {
            self.caches.listen(topic, cache);
        }
    }

    /// Whether this process hears other machines' writes now, and so keeps reads (PostgreSQL).
    pub fn listening(&self) -> bool {
        self.caches.listeners.lock().listening
    }

    /// Starts listening for other machines' writes, for as long as this store lives (on
    /// PostgreSQL; nothing to do on SQLite). Until this is called, nothing is kept on
    /// PostgreSQL: a command-line process never keeps a read.
    pub fn listen_for_writes(&self) -> Result<(), crate::StoreError> {
        let Some(url) = &self.url else {
            return Ok(());
        };
        let options = url
            .parse::<PgConnectOptions>()
            .map_err(crate::StoreError::Connect)?
            .application_name(LISTENER_NAME);
        let caches = Arc::downgrade(&self.caches);
        tokio::spawn(listen(options, caches));
        Ok(())
    }
}

/// How long to wait before trying again to listen, at most.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

async fn listen(options: PgConnectOptions, caches: Weak<crate::cached::Caches>) {
    let mut backoff = Duration::from_millis(100);
    // Said once per outage, not once per try.
    let mut warned = false;
    loop {
        match listener(&options).await {
            Ok(mut listener) => {
                let Some(c) = caches.upgrade() else { return };
                c.listeners.set_listening(true);
                drop(c);
                if warned {
                    tracing::info!("listening for other app machines' writes again");
                }
                backoff = Duration::from_millis(100);
                loop {
                    let heard = listener.try_recv().await;
                    let Some(c) = caches.upgrade() else { return };
                    match heard {
                        Ok(Some(notification)) => c.listeners.heard(notification.payload()),
                        // The connection is gone: what is announced now would be lost.
                        Ok(None) | Err(_) => {
                            c.listeners.set_listening(false);
                            break;
                        }
                    }
                }
                tracing::warn!(
                    "lost the connection that listens for other app machines' writes: keeping \
                     no reads until it is back"
                );
                warned = true;
            }
            Err(e) if !warned => {
                tracing::warn!(
                    "cannot listen for other app machines' writes ({e}): keeping no reads \
                     until it can"
                );
                warned = true;
            }
            Err(_) => {}
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

async fn listener(options: &PgConnectOptions) -> Result<PgListener, sqlx::Error> {
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .max_lifetime(None)
        .idle_timeout(None)
        .connect_with(options.clone())
        .await?;
    let mut listener = PgListener::connect_with(&pool).await?;
    // A lost connection is for the loop above to handle, with every cache paused meanwhile.
    listener.eager_reconnect(false);
    listener.ignore_pool_close_event(true);
    listener.listen(CHANNEL).await?;
    Ok(listener)
}
