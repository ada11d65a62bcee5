//! The server's side of the pages, as far as this crate knows it, compiled only with `ssr`:
//! what the server functions ask of the server ([`Backend`]; `lockstep-pages` answers it from
//! the application's rules, the course and the database, none of which this crate can reach),
//! what every page's head needs ([`Site`]) and the place a page's per-request parts fill
//! ([`request_parts`]; a rendered lesson page is cut there by [`crate::template`]).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use leptos::prelude::*;

use crate::model::{
    AccountPage, CatalogueView, CourseOverview, ExercisePage, InstructorView, LessonLearner,
    LessonLookup, NotificationsPage, Progressed, SearchResults, SubmissionPage, XpRules,
};
use lockstep_i18n::Lang;

pub mod request_parts;

/// A server function's answer, computed by the [`Backend`].
pub type Answer<'a, T> = Pin<Box<dyn Future<Output = Result<T, ServerFnError>> + Send + 'a>>;

/// What the server functions ask of the server, one method for each (see [`crate::api`] for
/// what each means). Each runs inside the server function's request, so it may read the
/// request's session and headers from the Leptos context and set its response's status and
/// headers there.
pub trait Backend: Send + Sync {
    fn catalogue(&self, lang: Lang) -> Answer<'_, CatalogueView>;
    fn course_overview(&self, slug: String, lang: Lang) -> Answer<'_, Option<CourseOverview>>;
    fn lesson(&self, slug: String, lang: Lang, as_learner: bool) -> Answer<'_, LessonLookup>;
    fn lesson_learner(&self, slug: String, lang: Lang) -> Answer<'_, LessonLearner>;
    fn lesson_version(&self, slug: String) -> Answer<'_, Option<String>>;
    fn complete_lesson(&self, slug: String, lang: Lang) -> Answer<'_, ()>;
    fn explore_simulation(&self, slug: String, index: u32) -> Answer<'_, Progressed>;
    fn reset_lesson(&self, slug: String) -> Answer<'_, ()>;
    fn xp_rules(&self, lang: Lang) -> Answer<'_, XpRules>;
    fn notifications(&self, lang: Lang) -> Answer<'_, NotificationsPage>;
    fn account(&self) -> Answer<'_, AccountPage>;
    fn instructor(&self, lang: Lang, course: Option<String>) -> Answer<'_, Option<InstructorView>>;
    fn exercise(&self, id: String, from: Option<String>, lang: Lang) -> Answer<'_, ExercisePage>;
    fn search(&self, q: String, lang: Lang) -> Answer<'_, SearchResults>;
    fn submission(&self, id: i64, lang: Lang) -> Answer<'_, SubmissionPage>;
}

/// Provided by the server to every render and server function.
#[derive(Clone)]
pub struct Site {
    pub backend: Arc<dyn Backend>,
    /// Where the browser bundle is served: `/pkg/<hash>` ([`crate::page::bundle_file`]).
    pub bundle: String,
    /// `https://lockstep.example.org` when the operator configured the public address: the
    /// language alternates are absolute links then, as search engines ask of `hreflang`.
    pub public_origin: Option<String>,
    /// The languages the site serves: the switcher's and the alternates' ([`crate::page::languages`]).
    pub languages: lockstep_i18n::Languages,
}

/// The backend of the server this render or server function runs in.
pub fn backend() -> Result<Arc<dyn Backend>, ServerFnError> {
    use_context::<Site>()
        .map(|s| s.backend)
        .ok_or_else(|| ServerFnError::new("the server was started without its context"))
}
