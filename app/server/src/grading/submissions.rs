//! Submissions for learners: submit a script (the exercise page's form, or JSON from the
//! terminal client), read one submission and its verdict, follow its events live, cancel it;
//! instructors can run one again. A learner reaches only their own submissions: anyone else's
//! answers 404, exactly as one that does not exist.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use lockstep_routes::{Lang, Languages};
use lockstep_rules::{flash, Requester};
use lockstep_store::{NewSubmission, Submission};
use serde::{Deserialize, Serialize};
use tower_sessions::Session;

use crate::http_error::HttpError;
use crate::requester::ApiRequester;
use crate::state::AppState;
use lockstep_clock::now_ms;

/// The largest script accepted.
pub const MAX_SCRIPT_BYTES: usize = 256 * 1024;

/// A script as the exercise page's form or the terminal client sends it.
#[derive(Debug, Deserialize)]
pub struct NewScript {
    pub exercise: String,
    #[serde(default)]
    pub file_name: Option<String>,
    pub script: String,
}

/// Why a script was not queued; each says what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    #[error("the script is empty: paste or upload your training script")]
    Empty,
    #[error("the script is {0} bytes; the limit is 256 KiB")]
    TooLarge(usize),
    #[error("this looks like a binary file, not a Python script (it contains a NUL byte)")]
    Binary,
    #[error("the file name `{0}` should be a plain name ending in .py")]
    FileName(String),
}

/// Checks a script before anything is queued.
pub fn check_script(script: &str, file_name: &str) -> Result<(), ScriptError> {
    if script.len() > MAX_SCRIPT_BYTES {
        return Err(ScriptError::TooLarge(script.len()));
    }
    if script.trim().is_empty() {
        return Err(ScriptError::Empty);
    }
    if script.contains('\0') {
        return Err(ScriptError::Binary);
    }
    if !is_plain_file_name(file_name) {
        return Err(ScriptError::FileName(file_name.to_string()));
    }
    Ok(())
}

/// A plain name ending in `.py`: no path, no hidden file, nothing a shell or URL would mangle.
pub(super) fn is_plain_file_name(name: &str) -> bool {
    name.ends_with(".py")
        && name.len() <= 100
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
}

/// A submission as the API shows it: the verdict is the grading protocol's JSON, as this server
/// writes it (a verdict stored in an older form is read and written again).
#[derive(Debug, Serialize)]
pub struct SubmissionJson {
    pub id: i64,
    pub exercise: String,
    pub file_name: String,
    pub status: &'static str,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    pub url: String,
    pub events: String,
    pub verdict: Option<grading_protocol::Verdict>,
    /// Where each check of the verdict is taught, by language code and check id: a translation
    /// has its own heading ids, which only the course knows (`lockstep submit --lang=ko` links
    /// to them). Only on a single submission.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub sections: BTreeMap<&'static str, BTreeMap<&'static str, String>>,
}

impl From<&Submission> for SubmissionJson {
    fn from(s: &Submission) -> SubmissionJson {
        SubmissionJson {
            id: s.id,
            exercise: s.exercise.clone(),
            file_name: s.file_name.clone(),
            status: s.status.as_str(),
            created_at: s.created_at,
            finished_at: s.finished_at,
            url: lockstep_routes::submission(s.id),
            events: lockstep_routes::submission_events(s.id),
            verdict: s.verdict(),
            sections: BTreeMap::new(),
        }
    }
}

impl SubmissionJson {
    /// With [`SubmissionJson::sections`] for its verdict's checks, in every language of `course`
    /// the site serves (a client in another links the course's own pages).
    fn with_sections(
        mut self,
        course: &lockstep_course::live::Loaded,
        languages: &Languages,
    ) -> SubmissionJson {
        let Some(verdict) = &self.verdict else { return self };
        for lang in languages.iter() {
            let edition = course.edition(lang);
            let links = verdict
                .checks
                .iter()
                .map(|c| {
                    let (lesson, heading) = (&c.section.lesson, &c.section.heading);
                    let section = lockstep_routes::lesson_section(
                        lesson,
                        Some(edition.heading(lesson, heading)),
                    );
                    (c.id.as_str(), lang.path(&section))
                })
                .collect();
            self.sections.insert(lang.code(), links);
        }
        self
    }
}

/// Whether the request came from the exercise page's form (answered with redirects and
/// notices) rather than a program (answered with JSON).
fn is_form(headers: &HeaderMap) -> bool {
    let urlencoded =
        content_type(headers).is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"));
    urlencoded || is_multipart(headers)
}

fn is_multipart(headers: &HeaderMap) -> bool {
    content_type(headers).is_some_and(|t| t.starts_with("multipart/form-data"))
}

fn content_type(headers: &HeaderMap) -> Option<&str> {
    headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok())
}

/// The exercise page's multipart form: its fields, and the chosen file, which replaces the
/// text area's script when one was chosen (without JavaScript nothing else reads it). The
/// second value says why an uploaded file cannot be used, when it cannot.
async fn from_multipart(
    headers: &HeaderMap,
    body: Bytes,
) -> Result<(NewScript, Option<String>), String> {
    let boundary = content_type(headers)
        .and_then(|t| multer::parse_boundary(t).ok())
        .ok_or("a multipart form without its boundary")?;
    let stream = futures::stream::once(async move { Ok::<_, Infallible>(body) });
    let mut form = multer::Multipart::new(stream, boundary);
    let mut fields = NewScript { exercise: String::new(), file_name: None, script: String::new() };
    let mut upload: Option<(Option<String>, Bytes)> = None;
    while let Some(field) = form.next_field().await.map_err(|e| e.to_string())? {
        let name = field.name().unwrap_or_default().to_string();
        let file_name = field.file_name().map(str::to_string);
        let bytes = field.bytes().await.map_err(|e| e.to_string())?;
        let text = || String::from_utf8(bytes.to_vec()).map_err(|_| format!("{name} is not UTF-8"));
        match name.as_str() {
            "exercise" => fields.exercise = text()?,
            "file_name" => fields.file_name = Some(text()?),
            "script" => fields.script = text()?,
            "upload" if !bytes.is_empty() => upload = Some((file_name, bytes)),
            _ => {}
        }
    }
    let Some((name, bytes)) = upload else { return Ok((fields, None)) };
    match String::from_utf8(bytes.to_vec()) {
        Ok(script) => {
            fields.script = script;
            if let Some(name) = name.filter(|n| is_plain_file_name(n)) {
                fields.file_name = Some(name);
            }
            Ok((fields, None))
        }
        Err(_) => {
            let name = name.unwrap_or_else(|| "the file".into());
            Ok((
                fields,
                Some(format!("{name} is not UTF-8 text: save it as UTF-8 and upload it again")),
            ))
        }
    }
}

/// `POST /api/submissions`: queues a script for grading.
pub async fn create(
    State(state): State<AppState>,
    session: Session,
    ApiRequester(requester): ApiRequester,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, HttpError> {
    let form = is_form(&headers);
    let parsed: Result<(NewScript, Option<String>), String> = if is_multipart(&headers) {
        from_multipart(&headers, body.clone()).await
    } else if form {
        serde_urlencoded::from_bytes(&body).map(|s| (s, None)).map_err(|e| e.to_string())
    } else {
        serde_json::from_slice(&body).map(|s| (s, None)).map_err(|e| e.to_string())
    };
    let (script, refused) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            let why = if std::str::from_utf8(&body).is_err() {
                "the script is not UTF-8 text: save it as UTF-8".to_string()
            } else {
                format!("expected fields exercise and script: {e}")
            };
            return Err(HttpError::refused(StatusCode::BAD_REQUEST, why));
        }
    };
    let outcome = match refused {
        Some(why) => Err((StatusCode::BAD_REQUEST, why)),
        None => {
            let queued = queue(&state, &requester, &script).await;
            queued.map_err(|e| if form { e.page() } else { e })?
        }
    };
    match (outcome, form) {
        (Ok(id), false) => {
            let mut response = (
                StatusCode::CREATED,
                Json(serde_json::json!({
                    "id": id,
                    "url": lockstep_routes::submission(id),
                    "api": lockstep_routes::submission_api(id),
                    "events": lockstep_routes::submission_events(id),
                })),
            )
                .into_response();
            let location =
                HeaderValue::from_str(&lockstep_routes::submission_api(id)).expect("ASCII");
            response.headers_mut().insert(axum::http::header::LOCATION, location);
            Ok(response)
        }
        (Ok(id), true) => Ok(crate::redirect::see_other(&lockstep_routes::submission(id), None)),
        (Err((status, why)), false) => Err(HttpError::refused(status, why)),
        (Err((_, why)), true) => {
            // The exercise page shows what went wrong, with the learner's script still there:
            // nothing was queued.
            let kept = flash::leave_form_error(&session, why).await;
            kept?;
            if script.script.len() <= MAX_SCRIPT_BYTES {
                let kept = session.insert(flash::DRAFT, &script.script).await;
                kept?;
            }
            let back = if lockstep_routes::is_exercise_id(&script.exercise) {
                lockstep_routes::exercise(&script.exercise)
            } else {
                "/".to_string()
            };
            Ok(crate::redirect::see_other(&back, None))
        }
    }
}

async fn queue(
    state: &AppState,
    requester: &Requester,
    new: &NewScript,
) -> Result<Result<i64, (StatusCode, String)>, HttpError> {
    let Some(learner) = requester.known_learner() else {
        return Ok(Err((
            StatusCode::UNAUTHORIZED,
            "sign in to submit: grading runs your script for minutes, so it is kept for accounts"
                .into(),
        )));
    };
    let course = state.context.course.current();
    let Some((_, exercise)) = course.exercise(&new.exercise) else {
        let why = format!("there is no exercise `{}`", new.exercise);
        return Ok(Err((StatusCode::NOT_FOUND, why)));
    };
    let file_name = new.file_name.clone().unwrap_or_else(|| exercise.file_name.clone());
    if let Err(e) = check_script(&new.script, &file_name) {
        return Ok(Err((StatusCode::BAD_REQUEST, e.to_string())));
    }
    let store = &state.context.store;
    let now = now_ms();
    let per_hour = state.grading.per_hour;
    let limit = lockstep_store::Limit::new(format!("submit:{learner}"), per_hour, 3600);
    let submission = NewSubmission {
        learner,
        exercise: &exercise.id,
        file_name: &file_name,
        script: &new.script,
    };
    let submitted = store.submit(&submission, now, &limit).await;
    let id = match submitted? {
        Ok(id) => id,
        Err(refused) => {
            let minutes = refused.minutes_left(now / 1000);
            let why = format!(
                "you submitted {per_hour} scripts in the last hour, the most a learner may; \
                 try again in {minutes} minutes"
            );
            return Ok(Err((StatusCode::TOO_MANY_REQUESTS, why)));
        }
    };
    state.grading.changed.notify_waiters();
    // What was submitted is the learner's latest script: the editor opens on it next time.
    // The submission is queued already, so a failure here costs the draft, not the grading.
    if let Err(e) = store.save_draft(learner, &exercise.id, &new.script, &file_name, now).await {
        tracing::error!("keeping submission {id} as the draft: {e}");
    }
    Ok(Ok(id))
}

/// The submission, if the requester may read it: its learner, or an instructor.
async fn readable(
    state: &AppState,
    requester: &Requester,
    id: i64,
) -> Result<Submission, HttpError> {
    let found = state.context.store.submission(id).await;
    match found? {
        Some(s) if requester.may_read(&s) => Ok(s),
        _ => {
            let why = format!("there is no submission {id} of yours");
            Err(HttpError::refused(StatusCode::NOT_FOUND, why))
        }
    }
}

/// `GET /api/submissions/{id}`.
pub async fn show(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiRequester(requester): ApiRequester,
) -> Result<Response, HttpError> {
    let s = readable(&state, &requester, id).await?;
    let course = state.context.course.loaded();
    Ok(Json(SubmissionJson::from(&s).with_sections(&course, &state.languages)).into_response())
}

/// `GET /api/submissions`: the requester's own submissions, newest first.
pub async fn list(
    State(state): State<AppState>,
    requester: ApiRequester,
) -> Result<Response, HttpError> {
    let ApiRequester(requester) = requester;
    let Some(learner) = requester.known_learner() else {
        return Err(HttpError::refused(StatusCode::UNAUTHORIZED, "sign in first"));
    };
    let list = state.context.store.submissions_of(learner, None).await;
    let list = list?;
    Ok(Json(list.iter().map(SubmissionJson::from).collect::<Vec<_>>()).into_response())
}

/// How often a stream looks at the database when nothing in this process said it changed:
/// events written by another app machine arrive within this.
const POLL: Duration = Duration::from_millis(500);

/// `GET /api/submissions/{id}/events`: the submission's events as server-sent events, each
/// with its id; a reconnect with `Last-Event-ID` gets only what it missed. The stream ends
/// after the last event (the verdict); once that was sent, a reconnect gets 204, which tells
/// `EventSource` to stop.
/// `?after=N`: the first connection of a page that already shows events up to N (a reconnect's
/// `Last-Event-ID` takes precedence).
/// `?lang=ko`: each event worded in that language, its sentences dropped (the page's own
/// stream); without it, the events as stored, sentences and all (`lockstep submit`).
#[derive(Debug, Deserialize)]
pub struct After {
    after: Option<i64>,
    lang: Option<Lang>,
}

pub async fn events(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(query): Query<After>,
    ApiRequester(requester): ApiRequester,
    headers: HeaderMap,
) -> Result<Response, HttpError> {
    let submission = readable(&state, &requester, id).await?;
    let after = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .or(query.after)
        .unwrap_or(0);
    if submission.status.is_final() {
        let missed = state.context.store.submission_events(id, after).await;
        if missed?.is_empty() {
            return Ok(StatusCode::NO_CONTENT.into_response());
        }
    }
    let lang = query.lang;
    let stream = futures::stream::unfold(Some(after), move |after| {
        let state = state.clone();
        async move {
            let after = after?;
            let batch = next_events(&state, id, after).await;
            let (items, next) = match batch {
                Ok(events) => {
                    let last = events.last().map_or(after, |e| e.id);
                    let done = events.iter().any(|e| e.event.is_final());
                    let items: Vec<Result<SseEvent, Infallible>> = events
                        .into_iter()
                        .map(|e| {
                            let event = match lang {
                                Some(lang) => e.event.in_language(lang),
                                None => e.event,
                            };
                            Ok(SseEvent::default()
                                .id(e.id.to_string())
                                .event(event.kind())
                                .data(serde_json::to_string(&event).expect("events serialize")))
                        })
                        .collect();
                    (items, (!done).then_some(last))
                }
                Err(e) => {
                    tracing::error!("submission {id} events: {e}");
                    (Vec::new(), None)
                }
            };
            Some((futures::stream::iter(items), next))
        }
    });
    let mut response = Sse::new(futures::StreamExt::flatten(stream))
        .keep_alive(KeepAlive::default())
        .into_response();
    // Proxies must pass each event on as it comes.
    response.headers_mut().insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}

/// The events after `after`, waiting until there is at least one.
async fn next_events(
    state: &AppState,
    id: i64,
    after: i64,
) -> Result<Vec<lockstep_store::StoredEvent>, lockstep_store::StoreError> {
    loop {
        // Listen before looking, so a change between the two is not missed.
        let changed = state.grading.changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let events = state.context.store.submission_events(id, after).await?;
        if !events.is_empty() {
            return Ok(events);
        }
        tokio::select! {
            _ = changed => {}
            _ = tokio::time::sleep(POLL) => {}
        }
    }
}

/// `POST /api/submissions/{id}/cancel`: the learner takes back a submission no worker has
/// taken yet.
pub async fn cancel(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiRequester(requester): ApiRequester,
    headers: HeaderMap,
) -> Result<Response, HttpError> {
    let submission = readable(&state, &requester, id).await?;
    if !requester.owns(&submission) {
        let why = "only the learner who submitted it can cancel it";
        return Err(HttpError::refused(StatusCode::FORBIDDEN, why));
    }
    let cancelled = state.context.store.cancel(id, now_ms()).await;
    if !cancelled? {
        let why = "a worker has taken it already, or it has ended";
        return Err(HttpError::refused(StatusCode::CONFLICT, why));
    }
    state.grading.changed.notify_waiters();
    Ok(respond_done(&headers, id, "cancelled"))
}

/// `POST /api/submissions/{id}/rerun`: an instructor grades a submission again.
pub async fn rerun(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiRequester(requester): ApiRequester,
    headers: HeaderMap,
) -> Result<Response, HttpError> {
    readable(&state, &requester, id).await?;
    if !requester.is_instructor() {
        let why = "only instructors can grade a submission again";
        return Err(HttpError::refused(StatusCode::FORBIDDEN, why));
    }
    let queued = state.context.store.rerun(id, now_ms()).await;
    if !queued? {
        let why = "it is still queued or being graded";
        return Err(HttpError::refused(StatusCode::CONFLICT, why));
    }
    state.grading.changed.notify_waiters();
    Ok(respond_done(&headers, id, "queued"))
}

/// A form goes back to the submission's page; a program gets its new status.
fn respond_done(headers: &HeaderMap, id: i64, status: &str) -> Response {
    if is_form(headers) || headers.get(CONTENT_TYPE).is_none() {
        crate::redirect::see_other(&lockstep_routes::submission(id), None)
    } else {
        Json(serde_json::json!({ "id": id, "status": status })).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_checked_before_queueing() {
        assert_eq!(check_script("import torch\n", "train.py"), Ok(()));
        assert_eq!(check_script(" \n\t", "train.py"), Err(ScriptError::Empty));
        let big = "#".repeat(MAX_SCRIPT_BYTES + 1);
        assert_eq!(check_script(&big, "train.py"), Err(ScriptError::TooLarge(big.len())));
        assert_eq!(check_script(&"#".repeat(MAX_SCRIPT_BYTES), "train.py"), Ok(()));
        assert_eq!(check_script("a\0b", "train.py"), Err(ScriptError::Binary));
        for bad in ["../x.py", "x.sh", ".py", "a b.py", "dir/x.py"] {
            assert!(matches!(check_script("x", bad), Err(ScriptError::FileName(_))), "{bad}");
        }
        assert!(ScriptError::TooLarge(300_000).to_string().contains("256 KiB"));
    }
}
