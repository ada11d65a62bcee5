//! Server functions: the browser calls these over HTTP, the server calls them in-process while
//! rendering. Each is answered by the server's [`crate::ssr::Backend`] (`lockstep-pages`),
//! which this crate cannot reach into: a page never touches the database.

use leptos::prelude::*;

use crate::model::{
    AccountPage, CatalogueView, CourseOverview, InstructorView, LessonLearner, LessonLookup,
    Progressed, XpRules,
};

/// The catalogue as the requester may see it: an instructor's has the drafts, marked.
#[server]
pub async fn get_catalogue(lang: lockstep_i18n::Lang) -> Result<CatalogueView, ServerFnError> {
    crate::ssr::backend()?.catalogue(lang).await
}

/// A course's page; `None` for a course the requester may not see.
#[server]
pub async fn get_course_overview(
    slug: String,
    lang: lockstep_i18n::Lang,
) -> Result<Option<CourseOverview>, ServerFnError> {
    crate::ssr::backend()?.course_overview(slug, lang).await
}

/// The lesson, the same for every learner; a draft only for an instructor, who may ask for it
/// `as_learner`s will get it once it is published.
#[server(endpoint = "get_lesson")]
pub async fn get_lesson(
    slug: String,
    lang: lockstep_i18n::Lang,
    #[server(default)] as_learner: bool,
) -> Result<LessonLookup, ServerFnError> {
    crate::ssr::backend()?.lesson(slug, lang, as_learner).await
}

/// What the lesson page shows of the learner reading it.
#[server]
pub async fn get_lesson_learner(
    slug: String,
    lang: lockstep_i18n::Lang,
) -> Result<LessonLearner, ServerFnError> {
    crate::ssr::backend()?.lesson_learner(slug, lang).await
}

/// The version of a lesson's file as it is now, for an instructor's page of a draft, which
/// reloads when it changes; `None` for anyone else, or a lesson that is gone.
#[server(endpoint = "lesson_version")]
pub async fn lesson_version(slug: String) -> Result<Option<String>, ServerFnError> {
    crate::ssr::backend()?.lesson_version(slug).await
}

/// Records that the learner finished a lesson. Works as a plain form post without JavaScript.
#[server]
pub async fn complete_lesson(
    slug: String,
    // The page's, for the words of what it earned; a form without it gets English.
    #[server(default)] lang: lockstep_i18n::Lang,
) -> Result<(), ServerFnError> {
    crate::ssr::backend()?.complete_lesson(slug, lang).await
}

/// Records that the learner explored simulation `index` of a lesson to its end, once. Called by
/// the page when a simulation reaches its last step; what it earns is the server's to decide.
#[server(endpoint = "explore_simulation")]
pub async fn explore_simulation(slug: String, index: u32) -> Result<Progressed, ServerFnError> {
    crate::ssr::backend()?.explore_simulation(slug, index).await
}

/// Resets the learner's progress in one lesson: its XP goes, and can be earned again. Works as
/// a plain form post without JavaScript.
#[server(endpoint = "reset_lesson")]
pub async fn reset_lesson(slug: String) -> Result<(), ServerFnError> {
    crate::ssr::backend()?.reset_lesson(slug).await
}

#[server]
pub async fn get_xp_rules(lang: lockstep_i18n::Lang) -> Result<XpRules, ServerFnError> {
    crate::ssr::backend()?.xp_rules(lang).await
}

/// The requester's notifications, worded in `lang`; none for a visitor.
#[server]
pub async fn get_notifications(
    lang: lockstep_i18n::Lang,
) -> Result<crate::model::NotificationsPage, ServerFnError> {
    crate::ssr::backend()?.notifications(lang).await
}

#[server]
pub async fn get_account() -> Result<AccountPage, ServerFnError> {
    crate::ssr::backend()?.account().await
}

/// Every learner's progress and every question's statistics; `None` unless the requester is an
/// instructor.
/// `course`: the slug of the course to show alone; an unknown one is refused.
#[server]
pub async fn get_instructor(
    lang: lockstep_i18n::Lang,
    #[server(default)] course: Option<String>,
) -> Result<Option<InstructorView>, ServerFnError> {
    crate::ssr::backend()?.instructor(lang, course).await
}

/// A graded exercise's page, with the requester's submissions of it.
///
/// `from`: `start` for the lesson's starting script, or the id of one of the requester's
/// submissions to edit and resubmit; otherwise the editor opens on the latest draft.
#[server]
pub async fn get_exercise(
    id: String,
    from: Option<String>,
    lang: lockstep_i18n::Lang,
) -> Result<crate::model::ExercisePage, ServerFnError> {
    crate::ssr::backend()?.exercise(id, from, lang).await
}

/// Search in `lang`'s edition of the course.
#[server]
pub async fn search(
    q: String,
    lang: lockstep_i18n::Lang,
) -> Result<crate::model::SearchResults, ServerFnError> {
    crate::ssr::backend()?.search(q, lang).await
}

/// A submission's page: its events so far and its verdict, for its learner or an instructor.
#[server]
pub async fn get_submission(
    id: i64,
    lang: lockstep_i18n::Lang,
) -> Result<crate::model::SubmissionPage, ServerFnError> {
    crate::ssr::backend()?.submission(id, lang).await
}
