//! What server functions run against: the application's rules ([`lockstep_rules::Rules`]: the
//! live course, the database, who is asking) with the search index and the request parts. This
//! module only adapts them to Leptos: the request's session and headers from its context,
//! errors as `ServerFnError`, cookies on its `ResponseOptions`.

use leptos::prelude::*;
use lockstep_rules::{flash, progress, Reads, Requester, Rules};
use tower_sessions::Session;

use crate::page_models;
use crate::request_parts::RequestParts;
use lockstep_web::model::{ProgressView, Progressed};

/// The server's state for pages: what answers the web crate's server functions
/// ([`lockstep_web::ssr::Backend`], in `api.rs`) and renders the per-request parts.
#[derive(Clone)]
pub struct AppContext {
    pub rules: Rules,
    /// The search index of the course as it is now.
    pub search: std::sync::Arc<lockstep_search::LiveSearch>,
    /// What every lesson page has fresh on each request.
    pub request_parts: RequestParts,
}

impl std::ops::Deref for AppContext {
    type Target = Rules;

    fn deref(&self) -> &Rules {
        &self.rules
    }
}

/// The session of the request being served (the server puts the session layer on every route).
async fn session() -> Option<Session> {
    leptos_axum::extract::<Session>().await.ok()
}

fn headers() -> http::HeaderMap {
    use_context::<http::request::Parts>().map(|p| p.headers).unwrap_or_default()
}

impl AppContext {
    /// Who is asking: the signed-in account or the anonymous learner.
    pub async fn requester(&self) -> Result<Requester, ServerFnError> {
        self.rules.requester(session().await.as_ref(), &headers()).await.map_err(internal)
    }

    /// [`AppContext::requester`], reading the account as `reads` says.
    pub async fn requester_reading(&self, reads: Reads) -> Result<Requester, ServerFnError> {
        let session = session().await;
        self.rules.requester_reading(reads, session.as_ref(), &headers()).await.map_err(internal)
    }

    /// The lesson page's model for `viewer`, with the request parts it has.
    pub fn lesson_view(
        &self,
        slug: &str,
        lang: lockstep_web::Lang,
        viewer: page_models::Viewer,
    ) -> lockstep_web::model::LessonLookup {
        let loaded = self.course.loaded_for(viewer != page_models::Viewer::Learner);
        let mut lookup = page_models::lookup(&loaded, lang, slug, viewer);
        // Comments and reports are for what learners read: a lesson they cannot see yet has
        // none (its places are unknown to every form and stream), so it shows none.
        if let lockstep_web::model::LessonLookup::Found(lesson) = &mut lookup {
            if lesson.unpublished.is_none() {
                lesson.request_parts = self.request_parts.names();
            }
        }
        lookup
    }

    /// The one-time message left for this page, if any.
    pub async fn take_notice(&self) -> Result<Option<String>, ServerFnError> {
        flash::take_notice(session().await.as_ref()).await.map_err(internal)
    }

    /// What went wrong with the last account form, if anything.
    pub async fn take_form_error(&self) -> Result<Option<String>, ServerFnError> {
        flash::take_form_error(session().await.as_ref()).await.map_err(internal)
    }

    /// The email a refused account form was typed with: (form, email).
    pub async fn take_form_email(&self) -> Result<Option<(String, String)>, ServerFnError> {
        flash::take_form_email(session().await.as_ref()).await.map_err(internal)
    }

    /// The script of a submission the server refused, kept for the exercise page's editor.
    pub async fn take_draft(&self) -> Result<Option<String>, ServerFnError> {
        flash::take_draft(session().await.as_ref()).await.map_err(internal)
    }

    /// A terminal token made by the last post, shown once.
    pub async fn take_new_token(&self) -> Result<Option<String>, ServerFnError> {
        flash::take_new_token(session().await.as_ref()).await.map_err(internal)
    }

    /// The requester's live events; none for a browser that has recorded nothing.
    pub async fn events(
        &self,
        requester: &Requester,
    ) -> Result<Vec<lockstep_xp::Event>, ServerFnError> {
        self.rules.events(requester).await.map_err(internal)
    }

    /// The requester's progress as every page shows it, from their events.
    pub fn progress_view(
        &self,
        requester: &Requester,
        events: &[lockstep_xp::Event],
    ) -> ProgressView {
        Self::progress_view_in(&self.course.current(), requester, events)
    }

    fn progress_view_in(
        course: &lockstep_course::Course,
        requester: &Requester,
        events: &[lockstep_xp::Event],
    ) -> ProgressView {
        let progress = lockstep_xp::progress(&progress::facts(course), events);
        page_models::progress_view(&progress, requester.account().map(|a| &*a.email))
    }

    /// Records `action` for the requester (making an anonymous browser a learner cookie if it
    /// has none) and returns what it earned, with their progress after it.
    pub async fn record(
        &self,
        requester: &Requester,
        action: lockstep_xp::Action,
    ) -> Result<Progressed, ServerFnError> {
        let (recorded, cookie) = self.rules.record(requester, action).await.map_err(internal)?;
        if let Some(cookie) = cookie {
            expect_context::<leptos_axum::ResponseOptions>()
                .append_header(http::header::SET_COOKIE, cookie);
        }
        let account = requester.account().map(|a| &*a.email);
        Ok(page_models::progressed(&recorded.before, &recorded.after, account))
    }

    /// Resets the requester's progress in a lesson.
    pub async fn reset_progress_in(&self, slug: &str) -> Result<(), ServerFnError> {
        let requester = self.requester().await?;
        self.rules.reset_lesson(&requester, slug).await.map_err(internal)
    }

    /// The requester's last answers to each quiz of the lesson.
    pub async fn last_quiz_answers(
        &self,
        requester: &Requester,
        slug: &str,
    ) -> Result<Vec<lockstep_store::LastAnswers>, ServerFnError> {
        match requester.learner() {
            Some(id) => self.store.last_quiz_answers(id, slug).await.map_err(internal),
            None => Ok(Vec::new()),
        }
    }

    /// What the lesson page shows of the requester, with the one-time `notice` for it. The
    /// server's lesson pages render it per request around the lesson, which they render once.
    pub async fn learner_view(
        &self,
        requester: &Requester,
        reads: Reads,
        slug: &str,
        notice: Option<String>,
        lang: lockstep_web::Lang,
    ) -> Result<lockstep_web::model::LessonLearner, ServerFnError> {
        let (answers, events) = match (reads, requester.learner()) {
            (Reads::Kept, Some(id)) => {
                let kept = self.store.cached().learner(id).await.map_err(internal)?;
                (kept.last_quiz_answers(slug), kept.events.clone())
            }
            _ => (self.last_quiz_answers(requester, slug).await?, self.events(requester).await?),
        };
        // One look at the course for the whole page: each look reads the lessons folder.
        let loaded = self.course.loaded();
        let mut progress = Self::progress_view_in(&loaded.course, requester, &events);
        progress.notice = notice;
        // An instructor's draft has its quizzes too.
        let seen = if requester.is_instructor() { self.course.loaded_for(true) } else { loaded };
        // The reviews' words are the reader's language; the rest is the same in every edition.
        Ok(page_models::lesson_learner(
            &seen.edition(lang).course,
            slug,
            requester.learner(),
            &progress::completed_in(&events),
            &answers,
            progress,
            progress::has_progress_in(&events, slug),
        ))
    }

    /// Records a completed lesson; the next page load says what it earned (a form post, with
    /// or without JavaScript, reloads the lesson).
    pub async fn record_completion(
        &self,
        slug: &str,
        lang: lockstep_web::Lang,
    ) -> Result<(), ServerFnError> {
        let requester = self.requester().await?;
        // An instructor may complete a draft: it counts once the lesson is published.
        if self.course.loaded_for(requester.is_instructor()).course.find(slug).is_none() {
            return Err(refuse(
                http::StatusCode::NOT_FOUND,
                format!("there is no lesson `{slug}`"),
            ));
        }
        let action = lockstep_xp::Action::LessonCompleted { lesson: slug.to_string() };
        let progressed = self.record(&requester, action).await?;
        if let (Some(message), Some(session)) = (progressed.message(lang), session().await) {
            flash::leave_notice(&session, message).await.map_err(internal)?;
        }
        Ok(())
    }
}

/// A refusal: the request was wrong, not the server. Server functions answer every error with
/// 500 unless the response says otherwise (leptos_axum applies `ResponseOptions` last), so the
/// refusal sets its own status, and monitoring can tell it from a fault.
pub fn refuse(status: http::StatusCode, message: impl Into<String>) -> ServerFnError {
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(status);
    }
    ServerFnError::new(message.into())
}

/// A page with what only its reader may see (an instructor's drafts, every learner's progress):
/// no browser or proxy keeps it.
pub fn private_page() {
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        let value = http::HeaderValue::from_static("private, no-store");
        response.insert_header(http::header::CACHE_CONTROL, value);
    }
}

pub fn internal(e: impl std::fmt::Display) -> ServerFnError {
    tracing::error!("{e}");
    ServerFnError::new("the server could not complete this request; it has been logged")
}
