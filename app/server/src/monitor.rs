//! For operators: `/healthz` (200 while the app and its database answer) and `/metrics` (the
//! queue, grades by verdict and the workers' heartbeats in Prometheus' text format). Every
//! figure is read from the database, so any app machine answers for the whole deployment.
//! Metrics name workers and the queue, so a scraper shows a worker token, like any worker.
//! Pages that crash in a browser report here too (`client_error`), into the log.

use std::fmt::Write;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use lockstep_store::Figures;

use crate::http_error::HttpError;
use crate::requester::Worker;
use crate::state::AppState;
use lockstep_clock::now_ms;

/// The most of a browser's report that reaches the log.
const MAX_REPORT: usize = 2000;

/// `POST /api/client-errors`: a page's panic, as its crash hook sends it (`sendBeacon`, JSON
/// as text). Logged as a warning, cut to [`MAX_REPORT`] characters and with control characters
/// escaped, so a report can neither flood the log nor forge lines in it. Always 204: the
/// browser does not read the answer.
pub async fn client_error(body: axum::body::Bytes) -> StatusCode {
    let text = String::from_utf8_lossy(&body);
    let report: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|_| serde_json::json!({ "message": text }));
    let field = |name: &str| -> String {
        let value = report.get(name).and_then(|v| v.as_str()).unwrap_or("");
        value.chars().take(MAX_REPORT).collect::<String>().escape_debug().to_string()
    };
    tracing::warn!(url = %field("url"), "a page crashed in a browser: {}", field("message"));
    StatusCode::NO_CONTENT
}

pub async fn healthz(State(state): State<AppState>) -> Response {
    match state.context.store.ping().await {
        Ok(()) => "ok\n".into_response(),
        Err(e) => {
            tracing::error!("health check: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, "the database does not answer\n").into_response()
        }
    }
}

pub async fn metrics(State(state): State<AppState>, _: Worker) -> Result<Response, HttpError> {
    let now = now_ms();
    let figures = state.context.store.figures(now).await;
    let figures = figures.map_err(|e| HttpError::internal("metrics", e).text())?;
    let text = [(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")];
    Ok((text, render(&figures, now)).into_response())
}

/// The verdicts a grade ends with, so that each series exists from the start (a rate over a
/// series that appears late misses its first increase).
const VERDICTS: [&str; 4] = ["pass", "fail", "error", "timeout"];

/// Prometheus' text exposition format, version 0.0.4.
pub fn render(f: &Figures, now_ms: i64) -> String {
    let mut out = String::new();
    let mut metric = |name: &str, kind: &str, help: &str, samples: &[(String, f64)]| {
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} {kind}");
        for (labels, value) in samples {
            let _ = writeln!(out, "{name}{labels} {value}");
        }
    };
    let one = |v: f64| vec![(String::new(), v)];
    metric(
        "lockstep_queue_depth",
        "gauge",
        "Jobs waiting for a grading worker.",
        &one(f.queued as f64),
    );
    metric(
        "lockstep_queue_oldest_age_seconds",
        "gauge",
        "Age of the oldest job waiting for a worker; 0 when none waits.",
        &one(f.oldest_queued_ms as f64 / 1000.0),
    );
    metric("lockstep_jobs_running", "gauge", "Jobs a worker is grading.", &one(f.running as f64));
    let by_verdict = |counts: &[(String, i64)]| {
        VERDICTS
            .iter()
            .map(|v| {
                let n = counts.iter().find(|(k, _)| k == v).map_or(0, |(_, n)| *n);
                (format!("{{verdict=\"{v}\"}}"), n as f64)
            })
            .collect::<Vec<_>>()
    };
    metric(
        "lockstep_grades_total",
        "counter",
        "Submissions graded, by verdict.",
        &by_verdict(&f.graded),
    );
    metric(
        "lockstep_grades_last_minute",
        "gauge",
        "Submissions graded in the last minute, by verdict.",
        &by_verdict(&f.graded_last_minute),
    );
    let workers: Vec<(String, f64)> = f
        .workers
        .iter()
        .map(|(name, seen)| {
            (format!("{{worker=\"{}\"}}", escape(name)), (now_ms - seen).max(0) as f64 / 1000.0)
        })
        .collect();
    metric(
        "lockstep_worker_last_seen_seconds",
        "gauge",
        "Seconds since each worker last claimed or renewed (workers heard from in the last day).",
        &workers,
    );
    out
}

/// A label value: backslash, double quote and newline escaped.
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_in_prometheus_text_format() {
        let f = Figures {
            queued: 3,
            oldest_queued_ms: 4_500,
            running: 1,
            graded: vec![("fail".into(), 2), ("pass".into(), 5)],
            graded_last_minute: vec![("pass".into(), 1)],
            workers: vec![("gpu/node-\"7\"".into(), 10_000)],
        };
        let text = render(&f, 12_500);
        for line in [
            "# TYPE lockstep_queue_depth gauge",
            "lockstep_queue_depth 3",
            "lockstep_queue_oldest_age_seconds 4.5",
            "lockstep_jobs_running 1",
            "# TYPE lockstep_grades_total counter",
            "lockstep_grades_total{verdict=\"pass\"} 5",
            "lockstep_grades_total{verdict=\"fail\"} 2",
            "lockstep_grades_total{verdict=\"timeout\"} 0",
            "lockstep_grades_last_minute{verdict=\"pass\"} 1",
            "lockstep_grades_last_minute{verdict=\"error\"} 0",
            "lockstep_worker_last_seen_seconds{worker=\"gpu/node-\\\"7\\\"\"} 2.5",
        ] {
            assert!(text.lines().any(|l| l == line), "missing `{line}` in:\n{text}");
        }
        // Every sample line belongs to a metric declared just before it.
        let mut declared = String::new();
        for l in text.lines() {
            if let Some(rest) = l.strip_prefix("# TYPE ") {
                declared = rest.split(' ').next().unwrap().to_string();
            } else if !l.starts_with('#') {
                assert!(l.starts_with(&declared), "{l} after {declared}");
            }
        }
    }
}
