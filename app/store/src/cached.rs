//! The reads of a lesson page, kept in this process between writes (see [`crate::read_cache`]).
//!
//! Only what a page shows goes through here; every state-changing request reads the database
//! itself. On SQLite this process is the only writer of progress, so a learner's reads stay
//! exact and live a minute at most; accounts are also written by `lockstep admin` from
//! another process (a password reset, a role), which announces nothing on SQLite, so they live
//! two seconds. On PostgreSQL other app machines write too, and announce what they wrote
//! (`crate::announce`); everything lives a minute at most.

use std::sync::Arc;
use std::time::Duration;

use crate::announce::{Listeners, ALL};
use crate::read_cache::{Announced, ReadCache};
use crate::{Account, Backend, LastAnswers, Store, StoreError};
use lockstep_xp::Event as XpEvent;

/// Per cache: far more learners than are active at once on one machine.
const MAX_ENTRIES: usize = 50_000;

/// What a lesson page reads of a learner.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LearnerReads {
    /// Live events, oldest first, as [`Store::events`] returns them.
    pub events: Vec<XpEvent>,
    /// (lesson, last answers) to every quiz since its lesson's last reset.
    quiz_answers: Vec<(String, LastAnswers)>,
    /// The learner's time zone, as [`Store::time_zone`] returns it.
    pub time_zone: Option<String>,
}

impl LearnerReads {
    /// As [`Store::last_quiz_answers`] returns them.
    pub fn last_quiz_answers(&self, lesson: &str) -> Vec<LastAnswers> {
        self.quiz_answers.iter().filter(|(l, _)| l == lesson).map(|(_, a)| a.clone()).collect()
    }
}

pub(crate) struct Caches {
    accounts: Arc<ReadCache<i64, Account>>,
    learners: Arc<ReadCache<String, Arc<LearnerReads>>>,
    /// Each place's comments version: only the server writes comments.
    places: Arc<ReadCache<String, i64>>,
    /// The threads each account follows, with their places.
    follows: Arc<ReadCache<i64, Follows>>,
    /// These and the caller's caches, by the topic their writes are announced on.
    pub(crate) listeners: Listeners,
}

/// (place, thread) of every thread an account follows.
type Follows = Arc<Vec<(String, i64)>>;

/// The topics writes are announced on (`crate::announce`).
const ACCOUNT: &str = "account";
const LEARNER: &str = "learner";
const PLACE: &str = "place";
const FOLLOWS: &str = "follows";

impl std::fmt::Debug for Caches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Caches").field("enabled", &self.learners.enabled()).finish()
    }
}

impl Caches {
    pub(crate) fn for_backend(backend: Backend) -> Caches {
        let minute = Duration::from_secs(60);
        let accounts = match backend {
            Backend::Sqlite => Duration::from_secs(2),
            Backend::Postgres => minute,
        };
        let caches = Caches {
            accounts: Arc::new(ReadCache::new(accounts, MAX_ENTRIES)),
            learners: Arc::new(ReadCache::new(minute, MAX_ENTRIES)),
            places: Arc::new(ReadCache::new(minute, MAX_ENTRIES)),
            follows: Arc::new(ReadCache::new(minute, MAX_ENTRIES)),
            listeners: Listeners::default(),
        };
        if backend == Backend::Postgres {
            caches.listen(ACCOUNT, &caches.accounts);
            caches.listen(LEARNER, &caches.learners);
            caches.listen(PLACE, &caches.places);
            caches.listen(FOLLOWS, &caches.follows);
        }
        caches
    }

    pub(crate) fn listen(&self, topic: &'static str, cache: &Arc<impl Announced + 'static>) {
        let cache: Arc<dyn Announced> = cache.clone();
        self.listeners.add(topic, Arc::downgrade(&cache));
    }
}

/// [`Store::cached`].
pub struct Cached<'a>(&'a Store);

impl Store {
    /// Reads for a page, kept between this process's writes.
    pub fn cached(&self) -> Cached<'_> {
        Cached(self)
    }

    /// After a write of the learner's events or quiz answers has committed.
    pub(crate) async fn wrote_learner(&self, learner: &str) {
        self.caches.learners.forget(&learner.to_string());
        self.announce(LEARNER, learner).await;
    }

    /// After a write of a place's comments has committed.
    pub(crate) async fn wrote_place(&self, place: &str) {
        self.caches.places.forget(&place.to_string());
        self.announce(PLACE, place).await;
    }

    /// After a write of who follows what has committed: `account`'s follows, or, where comments
    /// were deleted (whose ids SQLite may give again), everyone's.
    pub(crate) async fn wrote_follows(&self, account: Option<i64>) {
        self.wrote_id(&*self.caches.follows, FOLLOWS, account).await;
    }

    /// After a write of an account has committed; `None`: of accounts not known by id.
    pub(crate) async fn wrote_account(&self, id: Option<i64>) {
        self.wrote_id(&*self.caches.accounts, ACCOUNT, id).await;
    }

    /// Forgets `id` in `cache` here and announces it on `topic`; `None`: every id.
    async fn wrote_id(&self, cache: &dyn Announced, topic: &str, id: Option<i64>) {
        let key = id.map_or_else(|| ALL.to_string(), |id| id.to_string());
        cache.forget_announced(&key);
        self.announce(topic, &key).await;
    }
}

impl Cached<'_> {
    /// As [`Store::account_by_id`].
    pub async fn account_by_id(&self, id: i64) -> Result<Option<Account>, StoreError> {
        let cache = &self.0.caches.accounts;
        if let Some(account) = cache.get(&id) {
            return Ok(Some(account));
        }
        let ticket = cache.ticket();
        let account = self.0.account_by_id(id).await?;
        if let Some(account) = &account {
            cache.put(id, account.clone(), ticket);
        }
        Ok(account)
    }

    /// As [`Store::comments_version`].
    pub async fn comments_version(&self, place: &str) -> Result<i64, StoreError> {
        let read = self.0.comments_version(place);
        self.0.caches.places.get_or_read(place.to_string(), read).await
    }

    /// As [`Store::followed_at`].
    pub async fn followed_at(&self, account: i64, place: &str) -> Result<Vec<i64>, StoreError> {
        let read = async { self.0.follows(account).await.map(Arc::new) };
        let follows = self.0.caches.follows.get_or_read(account, read).await?;
        Ok(follows.iter().filter(|(p, _)| p == place).map(|(_, thread)| *thread).collect())
    }

    /// The learner's events and quiz answers.
    pub async fn learner(&self, learner: &str) -> Result<Arc<LearnerReads>, StoreError> {
        let read = async {
            let events = self.0.events(learner).await?;
            let quiz_answers = self.0.last_answers(learner, None).await?;
            let time_zone = self.0.time_zone(learner).await?;
            Ok::<_, StoreError>(Arc::new(LearnerReads { events, quiz_answers, time_zone }))
        };
        self.0.caches.learners.get_or_read(learner.to_string(), read).await
    }
}
