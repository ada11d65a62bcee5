//! The HTTP API grading workers use (`grading_protocol::live`): claim a job, then renew its
//! lease, report events, and hand in the verdict or a failure of the platform. A worker
//! authenticates with its bearer token and never sees the database; everything it does with a
//! job names the lease, and a lease it no longer holds gets 409 Conflict.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use grading_protocol::live::{ClaimRequest, Event, Failure, Finish, Gradable, Job, Lease, Report};

use crate::http_error::HttpError;
use crate::requester::Worker;
use crate::state::AppState;
use lockstep_clock::now_ms;

/// What a worker is told of a job whose lease it no longer holds. Workers read the API's
/// refusals as text.
fn lost() -> HttpError {
    let why = "this worker no longer holds the job's lease: drop the job (another worker has it, or it ended)";
    HttpError::refused(StatusCode::CONFLICT, why).text()
}

/// Done, or `lost` when the store found the lease gone.
fn done(held: bool) -> Result<Response, HttpError> {
    if held {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        Err(lost())
    }
}

pub async fn claim(
    State(state): State<AppState>,
    Worker(token): Worker,
    Json(request): Json<ClaimRequest>,
) -> Result<Response, HttpError> {
    let lease =
        lockstep_rules::tokens::lease_id().map_err(|e| HttpError::internal("lease id", e))?;
    let name = format!("{token}/{}", request.worker.chars().take(100).collect::<String>());
    let grading = &state.grading;
    let store = &state.context.store;
    // An idle worker's empty claims are its heartbeat.
    let seen = store.worker_seen(&name, now_ms()).await;
    seen?;
    let node: Option<String> = request.node.map(|n| n.chars().take(100).collect());
    let exercises = gradable(&name, &request.exercises);
    let claimed =
        store.claim(&name, node.as_deref(), &exercises, &lease, grading.lease_ms, now_ms()).await;
    let Some(c) = claimed? else {
        return Ok(StatusCode::NO_CONTENT.into_response());
    };
    grading.changed.notify_waiters();
    tracing::info!("{name} took submission {} (job {})", c.submission.id, c.job);
    let job = Job {
        job: c.job,
        lease: c.lease,
        lease_s: grading.lease_ms as f64 / 1000.0,
        attempt: c.attempt,
        submission: c.submission.id,
        exercise: c.submission.exercise,
        file_name: c.submission.file_name,
        script: c.submission.script,
    };
    Ok(Json(job).into_response())
}

/// The exercises of the registry that a worker grades at the registry's version. A worker
/// built before an exercise existed, or before its checks changed, is never handed it: it
/// would fail every such submission, or judge it by the old rules.
fn gradable(worker: &str, offered: &[Gradable]) -> Vec<&'static str> {
    let mut ids = Vec::new();
    for exercise in grading_checks::exercises::ALL {
        match offered.iter().find(|g| g.exercise == exercise.id) {
            Some(g) if g.version == exercise.version => ids.push(exercise.id),
            Some(g) => warn_once(format!(
                "{worker} grades {} at version {}, this server's is {}: it is given none",
                exercise.id, g.version, exercise.version
            )),
            None => {}
        }
    }
    ids
}

/// Logs `message` the first time this process meets it: an idle worker claims every second,
/// and its operator needs the line once, not once a second.
fn warn_once(message: String) {
    static SAID: std::sync::Mutex<std::collections::BTreeSet<String>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    // A worker names itself: however many names it tries, this stays small.
    if said.len() >= 1_000 {
        said.clear();
    }
    if said.insert(message.clone()) {
        tracing::warn!("{message}");
    }
}

pub async fn renew(
    State(state): State<AppState>,
    Path(job): Path<i64>,
    _: Worker,
    Json(lease): Json<Lease>,
) -> Result<Response, HttpError> {
    let renewed =
        state.context.store.renew(job, &lease.lease, state.grading.lease_ms, now_ms()).await;
    done(renewed?)
}

pub async fn event(
    State(state): State<AppState>,
    Path(job): Path<i64>,
    _: Worker,
    Json(mut report): Json<Report>,
) -> Result<Response, HttpError> {
    if let Event::Check { check } = &mut report.event {
        own_link(check);
    }
    if report.event.is_final() {
        let why = "a worker reports the verdict through /verdict";
        return Err(HttpError::refused(StatusCode::BAD_REQUEST, why).text());
    }
    let reported = state.context.store.report(job, &report.lease, &report.event, now_ms()).await;
    let held = reported?.is_some();
    if held {
        state.grading.changed.notify_waiters();
    }
    done(held)
}

pub async fn verdict(
    State(state): State<AppState>,
    Path(job): Path<i64>,
    _: Worker,
    Json(mut finish): Json<Finish>,
) -> Result<Response, HttpError> {
    finish.verdict.checks.iter_mut().for_each(own_link);
    let v = &finish.verdict;
    let json = serde_json::to_string(v).expect("a verdict serializes");
    let finished =
        state.context.store.finish(job, &finish.lease, v.status, &v.summary, &json, now_ms()).await;
    let Some(f) = finished? else {
        return Err(lost());
    };
    state.grading.changed.notify_waiters();
    tracing::info!(
        "submission {} graded {:?}{}",
        f.submission,
        v.status,
        if f.recorded.is_empty() { "" } else { ", exercise XP recorded" }
    );
    done(true)
}

/// A check's lesson section is the server's own, from the exercise registry by the check's id:
/// a worker holds only a token, and what it sends is shown to learners and instructors. The
/// pages check the ids again as they build the link.
fn own_link(check: &mut grading_protocol::Check) {
    check.section = grading_checks::exercises::section(check.id);
}

pub async fn failure(
    State(state): State<AppState>,
    Path(job): Path<i64>,
    _: Worker,
    Json(failure): Json<Failure>,
) -> Result<Response, HttpError> {
    let mut policy = state.grading.policy;
    let reason = if failure.stopped {
        // Stopped from outside, not broken: take it up again at once, elsewhere.
        policy.base_delay_ms = 0;
        format!("the batch system stopped the worker: {}", failure.reason)
    } else {
        format!("the grading platform failed: {}", failure.reason)
    };
    let failed = state.context.store.fail(job, &failure.lease, &reason, policy, now_ms()).await;
    let Some(outcome) = failed? else {
        return Err(lost());
    };
    state.grading.changed.notify_waiters();
    tracing::warn!("job {job}: {reason} ({outcome:?})");
    done(true)
}
