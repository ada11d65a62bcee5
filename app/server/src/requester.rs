//! Who is asking, as axum extractors: a handler names in its signature whom it serves, and
//! the rule that resolves it is `lockstep_rules`'s. [`Requester`] is a browser's (its session,
//! else its anonymous learner cookie); [`ApiRequester`] takes a bearer token first; [`Instructor`]
//! and [`Worker`] refuse anyone else before the body is read.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::StatusCode;
use lockstep_lang::Text;
use lockstep_rules::Requester;
use lockstep_store::Account;
use tower_sessions::Session;

use crate::http_error::HttpError;
use crate::state::AppState;

/// The request's session; every route has the session layer, so only a broken session store
/// leaves a request without one, and that request is nobody in particular.
async fn session(parts: &mut Parts, state: &AppState) -> Option<Session> {
    Session::from_request_parts(parts, state).await.ok()
}

fn failed(e: lockstep_rules::RulesError) -> HttpError {
    HttpError::internal("who is asking", e)
}

impl FromRequestParts<AppState> for Requester {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, HttpError> {
        let session = session(parts, state).await;
        let requester = state.rules().requester(session.as_ref(), &parts.headers).await;
        requester.map_err(|e| failed(e).page())
    }
}

/// The requester of an API call: `lockstep submit` with its terminal token, or a browser.
pub struct ApiRequester(pub Requester);

impl FromRequestParts<AppState> for ApiRequester {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, HttpError> {
        let session = session(parts, state).await;
        let requester = state.rules().api_requester(session.as_ref(), &parts.headers).await;
        requester.map(ApiRequester).map_err(failed)
    }
}

/// A signed-in instructor; anyone else is refused (403) and told to sign in as one.
pub struct Instructor(pub Account);

impl FromRequestParts<AppState> for Instructor {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, HttpError> {
        match Requester::from_request_parts(parts, state).await? {
            Requester::Instructor(account) => Ok(Instructor(account)),
            _ => {
                let words = Text::each(|l| lockstep_i18n::t(l).errors.instructors_only.into());
                Err(HttpError::said(StatusCode::FORBIDDEN, words).page())
            }
        }
    }
}

/// A grading worker: the name of its live worker token. Extracted before the body, so a
/// caller without a token is refused before anything it sent is read.
pub struct Worker(pub String);

impl FromRequestParts<AppState> for Worker {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, HttpError> {
        let refuse = |why: &'static str| HttpError::refused(StatusCode::UNAUTHORIZED, why).text();
        let token = lockstep_rules::tokens::bearer(&parts.headers)
            .ok_or_else(|| refuse("a worker token is required"))?;
        match state.rules().token_requester(token).await.map_err(failed)? {
            Requester::Worker { name } => Ok(Worker(name)),
            _ => Err(refuse("this is not a live worker token")),
        }
    }
}
