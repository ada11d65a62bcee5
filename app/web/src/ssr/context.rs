//! What server functions run against: the live course and the database, provided by the server
//! crate to every render and server function.

use std::sync::Arc;

use leptos::prelude::*;
use lockstep_course::live::LiveCourse;
use lockstep_store::Store;
use tower_sessions::Session;

use super::viewer::{self, Viewer};
use super::{learner_cookie, page_models};
use crate::model::{ProgressView, Progressed};

/// Provided to every render and server function by the server crate.
#[derive(Clone)]
pub struct AppContext {
    pub course: Arc<LiveCourse>,
    pub store: Store,
    pub learner_cookie: learner_cookie::LearnerCookie,
}

pub fn context() -> Result<AppContext, ServerFnError> {
    use_context::<AppContext>()
        .ok_or_else(|| ServerFnError::new("the server was started without its context"))
}

/// The session of the request being served (the server puts the session layer on every route).
async fn session() -> Option<Session> {
    leptos_axum::extract::<Session>().await.ok()
}

impl AppContext {
    /// Who is asking: the signed-in account or the anonymous learner.
    pub async fn viewer(&self) -> Result<Viewer, ServerFnError> {
        let headers = use_context::<http::request::Parts>().map(|p| p.headers).unwrap_or_default();
        viewer::resolve(self, session().await.as_ref(), &headers).await.map_err(internal)
    }

    /// A new anonymous learner, recorded as issued, and the `Set-Cookie` value that gives it
    /// to the browser.
    pub async fn issue_learner(&self) -> Result<(String, http::HeaderValue), String> {
        let id = learner_cookie::new_id()?;
        self.store.issue_learner(&id, unix_now()).await.map_err(|e| e.to_string())?;
        let cookie = self.learner_cookie.set(&id);
        Ok((id, cookie))
    }

    /// The one-time message left for this page, if any.
    pub async fn take_notice(&self) -> Result<Option<String>, ServerFnError> {
        viewer::take_notice(session().await.as_ref()).await.map_err(internal)
    }

    /// What went wrong with the last account form, if anything.
    pub async fn take_form_error(&self) -> Result<Option<String>, ServerFnError> {
        viewer::take_form_error(session().await.as_ref()).await.map_err(internal)
    }

    /// The email a refused account form was typed with: (form, email).
    pub async fn take_form_email(&self) -> Result<Option<(String, String)>, ServerFnError> {
        viewer::take_form_email(session().await.as_ref()).await.map_err(internal)
    }

    /// The script of a submission the server refused, kept for the exercise page's editor.
    pub async fn take_draft(&self) -> Result<Option<String>, ServerFnError> {
        viewer::take_draft(session().await.as_ref()).await.map_err(internal)
    }

    /// A terminal token made by the last post, shown once.
    pub async fn take_new_token(&self) -> Result<Option<String>, ServerFnError> {
        viewer::take_new_token(session().await.as_ref()).await.map_err(internal)
    }

    /// The viewer's live events; none for a browser that has recorded nothing.
    pub async fn events(&self, viewer: &Viewer) -> Result<Vec<lockstep_xp::Event>, ServerFnError> {
        match viewer.learner() {
            Some(id) => self.store.events(id).await.map_err(internal),
            None => Ok(Vec::new()),
        }
    }

    /// Progress by the XP rules, from events.
    pub fn progress_of(&self, events: &[lockstep_xp::Event]) -> lockstep_xp::Progress {
        lockstep_xp::progress(&page_models::facts(&self.course.current()), events)
    }

    /// The viewer's progress as every page shows it, from their events.
    pub fn progress_view(&self, viewer: &Viewer, events: &[lockstep_xp::Event]) -> ProgressView {
        Self::progress_view_in(&self.course.current(), viewer, events)
    }

    fn progress_view_in(
        course: &lockstep_course::Course,
        viewer: &Viewer,
        events: &[lockstep_xp::Event],
    ) -> ProgressView {
        let progress = lockstep_xp::progress(&page_models::facts(course), events);
        page_models::progress_view(&progress, viewer.account().map(|a| &*a.email))
    }

    /// Records `action` for the viewer (making an anonymous browser a learner cookie if it has
    /// none) and returns what it earned, with their progress after it.
    pub async fn record(
        &self,
        viewer: &Viewer,
        action: lockstep_xp::Action,
    ) -> Result<Progressed, ServerFnError> {
        let learner = match viewer.learner() {
            Some(id) => id.to_string(),
            None => {
                let (id, cookie) = self.issue_learner().await.map_err(internal)?;
                expect_context::<leptos_axum::ResponseOptions>()
                    .append_header(http::header::SET_COOKIE, cookie);
                id
            }
        };
        let account = viewer.account().map(|a| &*a.email);
        self.record_for(&learner, account, &[action]).await.map_err(internal)
    }

    /// Records `actions` for `learner` (signed in as `account`, if any) and returns what they
    /// earned, with the progress after them.
    pub async fn record_for(
        &self,
        learner: &str,
        account: Option<&str>,
        actions: &[lockstep_xp::Action],
    ) -> Result<Progressed, lockstep_store::StoreError> {
        self.recording(learner, account, actions, |at| async move {
            let mut recorded = Vec::with_capacity(actions.len());
            for action in actions {
                recorded.push(self.store.record(learner, action, at).await?);
            }
            Ok(recorded)
        })
        .await
    }

    /// Keeps a learner's answer to a quiz and records what it `earned`, in one transaction,
    /// and says what that changed.
    pub async fn record_answer_for(
        &self,
        learner: &str,
        account: Option<&str>,
        (lesson, quiz, answers): (&str, u32, &[Vec<usize>]),
        earned: &[lockstep_xp::Action],
    ) -> Result<Progressed, lockstep_store::StoreError> {
        let store = &self.store;
        self.recording(learner, account, earned, |at| {
            store.record_quiz_answers(learner, lesson, quiz, answers, earned, at)
        })
        .await
    }

    /// Progress before and after `write` records `actions` (it says, per action, whether it was
    /// recorded now: only those change the events, which are not read again).
    async fn recording<F>(
        &self,
        learner: &str,
        account: Option<&str>,
        actions: &[lockstep_xp::Action],
        write: impl FnOnce(i64) -> F,
    ) -> Result<Progressed, lockstep_store::StoreError>
    where
        F: std::future::Future<Output = Result<Vec<bool>, lockstep_store::StoreError>>,
    {
        let mut events = self.store.events(learner).await?;
        let before = self.progress_of(&events);
        let at = unix_now();
        for (action, now) in actions.iter().zip(write(at).await?) {
            if now {
                events.push(lockstep_xp::Event { action: action.clone(), at });
            }
        }
        Ok(page_models::progressed(&before, &self.progress_of(&events), account))
    }

    /// The lessons the events say were completed.
    pub fn completed_in(events: &[lockstep_xp::Event]) -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match &e.action {
                lockstep_xp::Action::LessonCompleted { lesson } => Some(lesson.clone()),
                _ => None,
            })
            .collect()
    }

    /// Whether the learner has anything recorded in the lesson (to offer a reset).
    pub fn has_progress_in(events: &[lockstep_xp::Event], slug: &str) -> bool {
        events.iter().any(|e| e.action.lesson() == Some(slug))
    }

    /// Resets the viewer's progress in a lesson.
    pub async fn reset_lesson(&self, slug: &str) -> Result<(), ServerFnError> {
        if let Some(id) = self.viewer().await?.learner() {
            self.store.reset_lesson(id, slug, unix_now()).await.map_err(internal)?;
        }
        Ok(())
    }

    /// The viewer's last answers to each quiz of the lesson.
    pub async fn last_quiz_answers(
        &self,
        viewer: &Viewer,
        slug: &str,
    ) -> Result<Vec<lockstep_store::LastAnswers>, ServerFnError> {
        match viewer.learner() {
            Some(id) => self.store.last_quiz_answers(id, slug).await.map_err(internal),
            None => Ok(Vec::new()),
        }
    }

    /// What the lesson page shows of the viewer, with the one-time `notice` for it. The server's
    /// lesson pages render it per request around the lesson, which they render once.
    pub async fn lesson_learner(
        &self,
        viewer: &Viewer,
        reads: viewer::Reads,
        slug: &str,
        notice: Option<String>,
    ) -> Result<crate::model::LessonLearner, ServerFnError> {
        let (answers, events) = match (reads, viewer.learner()) {
            (viewer::Reads::Kept, Some(id)) => {
                let kept = self.store.cached().learner(id).await.map_err(internal)?;
                (kept.last_quiz_answers(slug), kept.events.clone())
            }
            _ => (self.last_quiz_answers(viewer, slug).await?, self.events(viewer).await?),
        };
        // One look at the course for the whole page: each look reads the lessons folder.
        let course = self.course.current();
        let mut progress = Self::progress_view_in(&course, viewer, &events);
        progress.notice = notice;
        Ok(page_models::lesson_learner(
            &course,
            slug,
            viewer.learner(),
            &Self::completed_in(&events),
            &answers,
            progress,
            Self::has_progress_in(&events, slug),
        ))
    }

    /// Records a completed lesson; the next page load says what it earned (a form post, with
    /// or without JavaScript, reloads the lesson).
    pub async fn complete_lesson(&self, slug: &str) -> Result<(), ServerFnError> {
        if self.course.current().find(slug).is_none() {
            return Err(refuse(
                http::StatusCode::NOT_FOUND,
                format!("there is no lesson `{slug}`"),
            ));
        }
        let viewer = self.viewer().await?;
        let action = lockstep_xp::Action::LessonCompleted { lesson: slug.to_string() };
        let progressed = self.record(&viewer, action).await?;
        if let (Some(message), Some(session)) = (progressed.message(), session().await) {
            viewer::leave_notice(&session, message).await.map_err(internal)?;
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

pub fn internal(e: impl std::fmt::Display) -> ServerFnError {
    tracing::error!("{e}");
    ServerFnError::new("the server could not complete this request; it has been logged")
}

/// Now, in Unix seconds: when progress is recorded.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
