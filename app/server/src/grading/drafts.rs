//! The exercise editor's drafts: `POST /api/drafts` keeps what a signed-in learner is typing,
//! so that their work survives a submission, a closed tab and a second device. Anonymous
//! learners' drafts stay in their browser (the editor keeps a copy there for everyone).
//!
//! # Drafts and resubmitting
//!
//! The exercise editor (`app/web/editor/editor.js`) keeps every edit in the browser
//! (`localStorage`, with the version of the server's draft it was edited from) and, for an account,
//! posts it to `POST /api/drafts` (`grading/drafts.rs`, one `drafts` row per learner and exercise)
//! after each pause in typing; an accepted submission becomes the draft too. The page opens on, in
//! order: the script a refused submission left in the session, `?from=start` or
//! `?from=<submission>` (the viewer's own only), the account's draft, the starting script; the
//! browser's copy wins only when it was edited from the server's latest version. A submission's
//! page shows the graded script highlighted and numbered (`#L12`), with the verdict's `file:line`
//! linked to its lines, and what a pass earned (read from the exercise's XP events written in the
//! verdict's transaction), live when the verdict arrives.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;

use super::submissions::{is_plain_file_name, ScriptError, MAX_SCRIPT_BYTES};
use crate::http_error::HttpError;
use crate::requester::ApiRequester;
use crate::state::AppState;
use lockstep_clock::now_ms;

#[derive(Debug, Deserialize)]
pub struct NewDraft {
    pub exercise: String,
    pub script: String,
    #[serde(default)]
    pub file_name: Option<String>,
}

/// Answers `{"saved_ms": …}`, the time the editor compares its browser copy with.
pub async fn save(
    State(state): State<AppState>,
    ApiRequester(requester): ApiRequester,
    Json(draft): Json<NewDraft>,
) -> Result<Response, HttpError> {
    let refuse = |status, why: String| Err(HttpError::refused(status, why));
    let Some(learner) = requester.known_learner() else {
        return refuse(StatusCode::UNAUTHORIZED, "sign in to keep drafts on the server".into());
    };
    let course = state.context.course.current();
    // Only exercises the course declares: a made-up id would be a row nobody reads.
    let Some((_, exercise)) = course.exercise(&draft.exercise) else {
        return refuse(StatusCode::NOT_FOUND, format!("there is no exercise `{}`", draft.exercise));
    };
    // A draft may be empty or unfinished; only the limits a submission has on size and name
    // hold, with its words.
    if draft.script.len() > MAX_SCRIPT_BYTES {
        let why = ScriptError::TooLarge(draft.script.len());
        return refuse(StatusCode::PAYLOAD_TOO_LARGE, why.to_string());
    }
    let file_name = draft.file_name.unwrap_or_else(|| exercise.file_name.clone());
    if !is_plain_file_name(&file_name) {
        return refuse(StatusCode::BAD_REQUEST, ScriptError::FileName(file_name).to_string());
    }
    let now = now_ms();
    let saved =
        state.context.store.save_draft(learner, &exercise.id, &draft.script, &file_name, now).await;
    saved?;
    Ok(Json(serde_json::json!({ "saved_ms": now })).into_response())
}
