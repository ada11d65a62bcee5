//! Reads kept in this process until this process writes what they read.
//!
//! A signed-in lesson page needs the learner's account, events and quiz answers. Read from
//! SQLite through sqlx, each is a round trip to a connection's thread, and those round trips
//! were most of the page's time. Between two of a learner's actions nothing they read
//! changes, so this process keeps them and forgets them when it writes them.
//!
//! A write forgets its keys after it commits. A read that began before that write must not
//! put back what it read, so every read takes a [`Ticket`] before it starts and is stored only
//! if none of its key's writes came after the ticket. Writes made by another process reach
//! here only as announcements (`crate::announce`, PostgreSQL's `LISTEN/NOTIFY`); while they
//! cannot arrive, a cache is [paused](ReadCache::pause) and keeps nothing. Each cache also has
//! a time to live, which bounds how stale a read can be if an announcement is never made (a
//! process that dies between its commit and its `NOTIFY`, or a write from outside the app).
//!
//! # Reads kept between writes
//!
//! A signed-in lesson page needs the session, the account, and the learner's events and quiz
//! answers; through sqlx's SQLite driver each read is a round trip to a connection thread, and
//! those were most of the page's cost. `lockstep_store::read_cache` keeps reads in the process and
//! forgets a key when this process writes it; a read takes a ticket before it starts and is kept
//! only if its key was not written after the ticket, so a read racing a write never puts stale data
//! back. The store's write methods forget what they wrote (`wrote_learner`, `wrote_account`), and
//! `sessions.rs` forgets a session it saves or deletes. Only pages that show use them
//! (`Store::cached`, `lockstep_rules::Reads::Kept`: the lesson page filled from its template);
//! everything that decides or records reads the database. On SQLite this process is the only writer
//! of sessions and progress; `lockstep admin` writes accounts from its own process, so kept
//! accounts live 2 s (a kept account whose epoch disagrees with the session is read again before
//! the session is ended). On PostgreSQL, where other app machines write, every such write is
//! announced once it commits (`lockstep_store::announce`: `pg_notify('lockstep_kept_reads',
//! 'topic:key')`, `lockstep admin`'s too) and every app server `LISTEN`s on one connection of its
//! own and forgets the key; reads are kept only while that connection is live (paused, with
//! everything forgotten, from its loss until it is back, and before it first listens, so a
//! command-line process never keeps a read); entries live a minute at most, for a writer that died
//! between commit and `NOTIFY`. `app/store/tests/kept_reads.rs` checks every write against a fresh
//! read on both backends; `app/server/tests/http/kept_reads.rs` checks, with two apps on one
//! PostgreSQL, that progress, a comment and a sign-out on one are on the other's next page, and
//! that a lost listening connection forgets what was kept.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Taken before a read; a read is stored only if its key was not written after it.
#[derive(Debug, Clone, Copy)]
pub struct Ticket(u64);

pub struct ReadCache<K, V> {
    ttl: Duration,
    max_entries: usize,
    inner: Mutex<Inner<K, V>>,
}

struct Inner<K, V> {
    /// Bumped by every write.
    clock: u64,
    /// Each written key and the clock of its last write.
    written: HashMap<K, u64>,
    /// Tickets older than this are refused: `written` was cleared after they were taken.
    floor: u64,
    entries: HashMap<K, (V, Instant)>,
    /// Keeps nothing while set: writes elsewhere may be going unannounced.
    paused: bool,
}

impl<K: Hash + Eq + Clone, V: Clone> ReadCache<K, V> {
    /// A cache whose entries live `ttl` at most (`Duration::ZERO`: keeps nothing) and holds
    /// at most `max_entries`.
    pub fn new(ttl: Duration, max_entries: usize) -> ReadCache<K, V> {
        ReadCache {
            ttl,
            max_entries,
            inner: Mutex::new(Inner {
                clock: 0,
                written: HashMap::new(),
                floor: 0,
                entries: HashMap::new(),
                paused: false,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner<K, V>> {
        // A panic while holding the lock leaves nothing half-written that matters here.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn enabled(&self) -> bool {
        !self.ttl.is_zero()
    }

    /// To take before reading what will be [`put`](Self::put).
    pub fn ticket(&self) -> Ticket {
        Ticket(self.lock().clock)
    }

    pub fn get(&self, key: &K) -> Option<V> {
        if !self.enabled() {
            return None;
        }
        let inner = self.lock();
        if inner.paused {
            return None;
        }
        let (value, at) = inner.entries.get(key)?;
        (at.elapsed() < self.ttl).then(|| value.clone())
    }

    /// Keeps what was read for `key` after `ticket` was taken, unless the key was written
    /// since.
    pub fn put(&self, key: K, value: V, ticket: Ticket) {
        if !self.enabled() {
            return;
        }
        let mut inner = self.lock();
        let written_since = inner.written.get(&key).is_some_and(|&w| w > ticket.0);
        if written_since || ticket.0 < inner.floor || inner.paused {
            return;
        }
        if inner.entries.len() >= self.max_entries {
            inner.entries.retain(|_, (_, at)| at.elapsed() < self.ttl);
            if inner.entries.len() >= self.max_entries {
                inner.entries.clear();
            }
        }
        inner.entries.insert(key, (value, Instant::now()));
    }

    /// What is kept for `key`, or what `read` reads, kept under a ticket taken before it
    /// starts (`read` is a future, which does nothing until awaited here).
    pub async fn get_or_read<E>(
        &self,
        key: K,
        read: impl std::future::Future<Output = Result<V, E>>,
    ) -> Result<V, E> {
        if let Some(value) = self.get(&key) {
            return Ok(value);
        }
        let ticket = self.ticket();
        let value = read.await?;
        self.put(key, value.clone(), ticket);
        Ok(value)
    }

    /// Called after a write of `key` has committed.
    pub fn forget(&self, key: &K) {
        if !self.enabled() {
            return;
        }
        let mut inner = self.lock();
        inner.clock += 1;
        let clock = inner.clock;
        inner.entries.remove(key);
        if inner.written.len() >= self.max_entries {
            // Forget which keys were written, and refuse every read that began before now.
            inner.written.clear();
            inner.floor = clock;
        }
        inner.written.insert(key.clone(), clock);
    }

    /// Called after a write whose keys are not known here has committed.
    pub fn forget_all(&self) {
        if !self.enabled() {
            return;
        }
        Self::clear(&mut self.lock());
    }

    fn clear(inner: &mut Inner<K, V>) {
        inner.clock += 1;
        inner.floor = inner.clock;
        inner.written.clear();
        inner.entries.clear();
    }

    /// Forgets everything and keeps nothing until [`resume`](Self::resume): writes elsewhere
    /// are no longer announced here.
    pub fn pause(&self) {
        let mut inner = self.lock();
        Self::clear(&mut inner);
        inner.paused = true;
    }

    /// Keeps reads again, refusing every read that began before now: writes made while paused
    /// were never announced.
    pub fn resume(&self) {
        let mut inner = self.lock();
        Self::clear(&mut inner);
        inner.paused = false;
    }
}

/// A cache that other processes' writes are announced to, whatever its types.
pub trait Announced: Send + Sync {
    /// Another process wrote `key`; [`ALL`](crate::announce::ALL): keys it could not name.
    fn forget_announced(&self, key: &str);
    fn pause(&self);
    fn resume(&self);
}

impl<K, V> Announced for ReadCache<K, V>
where
    K: std::str::FromStr + Hash + Eq + Clone + Send,
    V: Clone + Send,
{
    fn forget_announced(&self, key: &str) {
        // A key this process cannot read (another version's) may be any of them.
        match (key != crate::announce::ALL).then(|| key.parse::<K>().ok()).flatten() {
            Some(key) => self.forget(&key),
            None => self.forget_all(),
        }
    }

    fn pause(&self) {
        ReadCache::pause(self)
    }

    fn resume(&self) {
        ReadCache::resume(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache() -> ReadCache<&'static str, u32> {
        ReadCache::new(Duration::from_secs(60), 4)
    }

    #[test]
    fn keeps_a_read_until_its_key_is_written() {
        let c = cache();
        c.put("a", 1, c.ticket());
        c.put("b", 2, c.ticket());
        assert_eq!(c.get(&"a"), Some(1));
        c.forget(&"a");
        assert_eq!(c.get(&"a"), None);
        assert_eq!(c.get(&"b"), Some(2), "a write forgets only its own key");
    }

    #[test]
    fn a_read_that_began_before_a_write_is_not_kept() {
        let c = cache();
        let before = c.ticket();
        c.forget(&"a"); // the write commits while the read is under way
        c.put("a", 1, before);
        assert_eq!(c.get(&"a"), None);
        let after = c.ticket();
        c.put("a", 2, after);
        assert_eq!(c.get(&"a"), Some(2));
        // A write of another key does not spoil the read.
        let t = c.ticket();
        c.forget(&"b");
        c.put("a", 3, t);
        assert_eq!(c.get(&"a"), Some(3));
    }

    #[test]
    fn forget_all_refuses_reads_begun_before_it() {
        let c = cache();
        c.put("a", 1, c.ticket());
        let before = c.ticket();
        c.forget_all();
        assert_eq!(c.get(&"a"), None);
        c.put("b", 2, before);
        assert_eq!(c.get(&"b"), None);
    }

    #[test]
    fn stays_within_its_size_and_clears_written_keys_safely() {
        let c = cache();
        for (i, k) in ["a", "b", "c", "d", "e", "f"].into_iter().enumerate() {
            c.put(k, i as u32, c.ticket());
        }
        assert!(c.lock().entries.len() <= 4);
        let before = c.ticket();
        for k in ["a", "b", "c", "d", "e"] {
            c.forget(&k); // the fifth clears the written keys
        }
        c.put("a", 9, before);
        assert_eq!(c.get(&"a"), None, "a read older than the clearing is refused");
    }

    #[test]
    fn a_paused_cache_keeps_nothing_and_refuses_reads_begun_before_it_resumed() {
        let c = cache();
        c.put("a", 1, c.ticket());
        c.pause();
        assert_eq!(c.get(&"a"), None, "paused, everything is forgotten");
        c.put("b", 2, c.ticket());
        assert_eq!(c.get(&"b"), None, "and nothing is kept");
        let during = c.ticket();
        c.resume();
        c.put("c", 3, during);
        assert_eq!(c.get(&"c"), None, "a read begun while paused may have missed a write");
        c.put("c", 4, c.ticket());
        assert_eq!(c.get(&"c"), Some(4));
    }

    #[test]
    fn an_announced_key_is_forgotten_and_one_it_cannot_read_forgets_all() {
        let c: ReadCache<i64, u32> = ReadCache::new(Duration::from_secs(60), 4);
        c.put(1, 1, c.ticket());
        c.put(2, 2, c.ticket());
        Announced::forget_announced(&c, "1");
        assert_eq!((c.get(&1), c.get(&2)), (None, Some(2)));
        Announced::forget_announced(&c, "not a number");
        assert_eq!(c.get(&2), None);
        c.put(3, 3, c.ticket());
        Announced::forget_announced(&c, crate::announce::ALL);
        assert_eq!(c.get(&3), None);
    }

    #[test]
    fn entries_expire_and_a_zero_ttl_keeps_nothing() {
        let c: ReadCache<&str, u32> = ReadCache::new(Duration::from_millis(20), 4);
        c.put("a", 1, c.ticket());
        assert_eq!(c.get(&"a"), Some(1));
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(c.get(&"a"), None);
        let off: ReadCache<&str, u32> = ReadCache::new(Duration::ZERO, 4);
        off.put("a", 1, off.ticket());
        assert_eq!(off.get(&"a"), None);
    }
}
