//! The server half of the server functions: the course and database handles they run against,
//! the anonymous learner cookie, and the conversion from course types to page models.

use std::sync::Arc;

use http::header::{COOKIE, SET_COOKIE};
use http::HeaderValue;
use leptos::prelude::*;
use lockstep_course::live::LiveCourse;
use lockstep_course::{Block, Course, LessonEntry};
use lockstep_store::Store;

use crate::model::{BodyBlock, CourseOverview, LessonCard, LessonLookup, LessonView, NeighbourLink, TocItem};

/// Provided to every render and server function by the server crate.
#[derive(Clone)]
pub struct AppContext {
    pub course: Arc<LiveCourse>,
    pub store: Store,
}

pub fn context() -> Result<AppContext, ServerFnError> {
    use_context::<AppContext>().ok_or_else(|| ServerFnError::new("the server was started without its context"))
}

/// The learner is anonymous: a random id in this cookie, set the first time they record progress.
const LEARNER_COOKIE: &str = "lockstep_learner";

impl AppContext {
    pub async fn completed_lessons(&self) -> Result<Vec<String>, ServerFnError> {
        match learner_from_request() {
            Some(id) => self.store.completed_lessons(&id).await.map_err(internal),
            None => Ok(Vec::new()),
        }
    }

    pub async fn complete_lesson(&self, slug: &str) -> Result<(), ServerFnError> {
        if self.course.current().find(slug).is_none() {
            return Err(ServerFnError::new(format!("there is no lesson `{slug}`")));
        }
        let learner = match learner_from_request() {
            Some(id) => id,
            None => {
                let id = new_learner_id()?;
                let cookie = format!("{LEARNER_COOKIE}={id}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax");
                let response = expect_context::<leptos_axum::ResponseOptions>();
                response.append_header(SET_COOKIE, HeaderValue::from_str(&cookie).map_err(internal)?);
                id
            }
        };
        self.store.complete_lesson(&learner, slug, unix_now()).await.map_err(internal)?;
        Ok(())
    }
}

fn internal(e: impl std::fmt::Display) -> ServerFnError {
    tracing::error!("{e}");
    ServerFnError::new("the server could not complete this request; it has been logged")
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn new_learner_id() -> Result<String, ServerFnError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(internal)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn is_learner_id(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn learner_from_request() -> Option<String> {
    let parts = use_context::<http::request::Parts>()?;
    learner_from_headers(&parts.headers)
}

fn learner_from_headers(headers: &http::HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == LEARNER_COOKIE && is_learner_id(value))
        .map(|(_, value)| value.to_string())
}

pub fn overview(course: &Course, completed: &[String]) -> CourseOverview {
    let lessons: Vec<LessonCard> = course
        .lessons
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let front = entry.front();
            LessonCard {
                slug: entry.slug().to_string(),
                position: i + 1,
                title: front.map_or_else(|| entry.file().to_string(), |f| f.title.clone()),
                minutes: front.map_or(0, |f| f.minutes),
                tags: front.map(|f| f.tags.clone()).unwrap_or_default(),
                summary: front.map(|f| f.summary.clone()).unwrap_or_default(),
                xp: front.map_or(0, |f| f.xp),
                completed: completed.iter().any(|s| s == entry.slug()),
                available: matches!(entry, LessonEntry::Ready(_)),
            }
        })
        .collect();
    CourseOverview {
        title: course.meta.title.clone(),
        summary: course.meta.summary.clone(),
        completed: lessons.iter().filter(|l| l.completed).count(),
        lessons,
    }
}

pub fn lookup(course: &Course, slug: &str, completed: &[String]) -> LessonLookup {
    let Some((index, entry)) = course.find(slug) else {
        return LessonLookup::Missing;
    };
    let lesson = match entry {
        LessonEntry::Ready(lesson) => lesson,
        LessonEntry::Broken { file, front, problems, .. } => {
            return LessonLookup::Broken {
                title: front.as_ref().map_or_else(|| file.clone(), |f| f.title.clone()),
                problems: problems.iter().map(|p| p.to_string()).collect(),
            }
        }
    };
    let neighbour = |i: usize| {
        course.lessons.get(i).map(|e| NeighbourLink {
            slug: e.slug().to_string(),
            title: e.front().map_or_else(|| e.file().to_string(), |f| f.title.clone()),
        })
    };
    LessonLookup::Found(LessonView {
        slug: lesson.slug.clone(),
        position: index + 1,
        total: course.lessons.len(),
        title: lesson.front.title.clone(),
        minutes: lesson.front.minutes,
        tags: lesson.front.tags.clone(),
        xp: lesson.front.xp,
        summary: lesson.front.summary.clone(),
        body: lesson
            .body
            .iter()
            .map(|b| match b {
                Block::Html(h) => BodyBlock::Html(h.clone()),
                Block::Simulation(s) => BodyBlock::Simulation(s.clone()),
            })
            .collect(),
        toc: lesson
            .toc
            .iter()
            .map(|t| TocItem { level: t.level, id: t.id.clone(), title: t.title.clone() })
            .collect(),
        prev: index.checked_sub(1).and_then(neighbour),
        next: neighbour(index + 1),
        completed: completed.iter().any(|s| s == slug),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learner_cookie_is_read_only_when_well_formed() {
        let mut h = http::HeaderMap::new();
        h.append(COOKIE, HeaderValue::from_static("a=1; lockstep_learner=0123456789abcdef0123456789abcdef"));
        assert_eq!(learner_from_headers(&h).as_deref(), Some("0123456789abcdef0123456789abcdef"));
        let mut h = http::HeaderMap::new();
        h.append(COOKIE, HeaderValue::from_static("lockstep_learner=../../etc"));
        assert_eq!(learner_from_headers(&h), None);
        assert_eq!(learner_from_headers(&http::HeaderMap::new()), None);
    }

    #[test]
    fn ids_are_well_formed() {
        let id = new_learner_id().unwrap();
        assert!(is_learner_id(&id), "{id}");
        assert_ne!(id, new_learner_id().unwrap());
    }
}
