//! Server functions answer every error with 500, a refusal of bad input included: the
//! arguments they could not read (`Args`, `MissingArg`, `Deserialization` in server_fn's error
//! encoding) are the caller's fault and answer 400 here, so monitoring can tell a refusal from a
//! fault. Refusals a server function decides itself set their status as they refuse
//! (`lockstep_pages::context::refuse`).

use axum::body::Body;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The header server_fn puts on its error responses.
const SERVER_FN_ERROR: &str = "serverfnerror";

/// Errors of the request, not of the server, by their prefix in server_fn's encoding.
const CALLERS_FAULT: &[&str] = &["Args|", "MissingArg|", "Deserialization|"];

pub async fn refusals_are_4xx(req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    if response.status() != StatusCode::INTERNAL_SERVER_ERROR
        || !response.headers().contains_key(SERVER_FN_ERROR)
    {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    // An error message: small.
    let Ok(bytes) = axum::body::to_bytes(body, 64 * 1024).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    if CALLERS_FAULT.iter().any(|p| bytes.starts_with(p.as_bytes())) {
        parts.status = StatusCode::BAD_REQUEST;
    }
    Response::from_parts(parts, Body::from(bytes))
}
