//! The pages kept between requests: each entry remembers the course it was rendered from, so a
//! live reload makes a new course and the next request renders afresh. What is kept, and when,
//! is the page cache's middleware's (`page_cache`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use axum::body::Bytes;
use axum::http::HeaderMap;
use lockstep_course::Course;
use lockstep_web::template::Template;

/// Lessons, course pages, the catalogue and the XP page: well under this many.
const MAX_ENTRIES: usize = 256;

#[derive(Default)]
pub struct PageCache {
    entries: RwLock<HashMap<String, Kept>>,
    /// Pages rendered to be kept, since the start.
    renders: AtomicU64,
}

impl PageCache {
    /// How many pages were rendered to be kept: a kept page is rendered once per course
    /// version, however many requests it serves.
    pub fn renders(&self) -> u64 {
        self.renders.load(Ordering::Relaxed)
    }

    pub(crate) fn get(&self, key: &str, course: &Arc<Course>) -> Option<Kept> {
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        entries.get(key).filter(|k| Arc::ptr_eq(k.course(), course)).cloned()
    }

    pub(crate) fn keep(&self, key: String, kept: Kept) {
        self.renders.fetch_add(1, Ordering::Relaxed);
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(key, kept);
    }
}

#[derive(Clone)]
pub(crate) enum Kept {
    Whole(Arc<Whole>),
    Lesson(Arc<Lesson>),
}

impl Kept {
    pub(crate) fn course(&self) -> &Arc<Course> {
        match self {
            Kept::Whole(w) => &w.course,
            Kept::Lesson(l) => &l.course,
        }
    }
}

/// A page the same for every anonymous visitor, with nothing per request in it.
pub(crate) struct Whole {
    pub(crate) course: Arc<Course>,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Bytes,
}

pub(crate) struct Lesson {
    pub(crate) course: Arc<Course>,
    pub(crate) headers: HeaderMap,
    /// Cut where a learner's parts and the request parts go.
    pub(crate) template: Template,
    /// With the anonymous learner's parts written in: only the request parts are left.
    pub(crate) anonymous: Template,
    /// `anonymous`'s bytes, when it has no request part.
    pub(crate) anonymous_page: Option<Bytes>,
}
