//! Every request is traced under an id of its own: a span named `request` with the id, the
//! method and the path wraps whatever the request logs, so each log line says which request
//! it came from, and the response carries the id as `x-request-id` for a learner or operator
//! to quote. The id is always the server's: one sent by the client is replaced, so a log line
//! never carries a value a client chose.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use axum::body::Body;
use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use tower_http::trace::{HttpMakeClassifier, TraceLayer};

/// The header that carries a request's id, in both directions.
pub const REQUEST_ID: &str = "x-request-id";

/// A new id: this process's random prefix and a count, 24 hex digits, unique across app
/// machines in practice and cheap enough for every request.
fn next_id() -> String {
    static PREFIX: OnceLock<u64> = OnceLock::new();
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let prefix = *PREFIX.get_or_init(|| {
        let mut bytes = [0u8; 8];
        // Without the OS's randomness, the time still tells processes apart.
        if getrandom::fill(&mut bytes).is_err() {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            bytes = nanos.to_le_bytes();
        }
        u64::from_le_bytes(bytes)
    });
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    format!("{:08x}{n:016x}", prefix as u32)
}

/// Gives the request its id (replacing any the client sent) and the response the same.
pub async fn assign_id(mut req: Request, next: Next) -> Response {
    let id = HeaderValue::from_str(&next_id()).expect("hex digits are a header value");
    req.headers_mut().insert(REQUEST_ID, id.clone());
    let mut res = next.run(req).await;
    res.headers_mut().insert(REQUEST_ID, id);
    res
}

type MakeSpan = fn(&Request<Body>) -> tracing::Span;

/// The span each request runs in, named by the id [`assign_id`] gave it.
pub fn layer() -> TraceLayer<HttpMakeClassifier, MakeSpan> {
    TraceLayer::new_for_http().make_span_with(span as MakeSpan)
}

fn span(req: &Request<Body>) -> tracing::Span {
    let id = req.headers().get(REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("-");
    tracing::info_span!("request", id, method = %req.method(), path = req.uri().path())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_differ_and_share_the_process_prefix() {
        let (a, b) = (next_id(), next_id());
        assert_ne!(a, b);
        assert_eq!(a.len(), 24);
        assert_eq!(a[..8], b[..8]);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
    }
}
