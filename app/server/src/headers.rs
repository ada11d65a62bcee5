//! The security headers every response carries, and the Content-Security-Policy of pages.
//!
//! A page may run only the scripts this site serves (`'self'`: the browser bundle, the
//! editor) and the inline scripts Leptos writes (hydration, resolved resources), which carry
//! the response's nonce; no `unsafe-inline` script, so markup that slipped into a page could
//! not run script even if escaping failed somewhere. WebAssembly needs `'wasm-unsafe-eval'`.
//! Styles may be inline: the simulations and the editor set style attributes.
//!
//! A nonce must differ between responses, and some pages are rendered once and sent many times
//! (`page_cache`). So every page gets a fresh nonce here, on its way out: the
//! one Leptos rendered into it is replaced wherever it appears (it is 128 random bits, which no
//! lesson text contains), and the policy names the new one.

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::header::{
    CONTENT_ENCODING, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY,
    X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Everything but pages: nothing may be loaded or framed on the strength of a JSON answer, a
/// CSV or a file.
const NOT_A_PAGE: &str = "default-src 'none'; frame-ancestors 'none'; sandbox";

/// The policy of a page whose inline scripts carry `nonce` (none may run without one).
pub fn page_policy(nonce: Option<&str>) -> String {
    let nonce = nonce.map(|n| format!(" 'nonce-{n}'")).unwrap_or_default();
    format!(
        "default-src 'self'; script-src 'self'{nonce} 'wasm-unsafe-eval'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; \
         connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
         frame-ancestors 'none'"
    )
}

pub async fn secure(req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    let is_page = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    // A compressed page (a static file's gzip copy) is not rewritten; it has no inline script.
    let encoded = response.headers().contains_key(CONTENT_ENCODING);
    let mut response = match (is_page, encoded) {
        (true, false) => with_fresh_nonce(response).await,
        (true, true) => {
            let mut response = response;
            let policy = HeaderValue::from_str(&page_policy(None)).expect("ASCII");
            response.headers_mut().insert(CONTENT_SECURITY_POLICY, policy);
            response
        }
        (false, _) => response,
    };
    let headers = response.headers_mut();
    if !is_page {
        headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(NOT_A_PAGE));
    }
    common(headers);
    response
}

fn common(headers: &mut HeaderMap) {
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    // Submission and lesson URLs say what a learner is working on: no other site learns them.
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    // For browsers that predate `frame-ancestors`.
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

async fn with_fresh_nonce(response: Response) -> Response {
    let (mut parts, body) = response.into_parts();
    let bytes = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(bytes) => bytes,
        Err(e) => {
            tracing::error!("reading a page to give it a nonce: {e}");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let Ok(fresh) = new_nonce() else {
        tracing::error!("no randomness for a page's nonce");
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let html = match rendered_nonce(&bytes) {
        Some(old) => replace_all(&bytes, old, fresh.as_bytes()),
        None => bytes,
    };
    let policy = HeaderValue::from_str(&page_policy(Some(&fresh))).expect("hex and ASCII");
    parts.headers.insert(CONTENT_SECURITY_POLICY, policy);
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(html))
}

/// The nonce Leptos wrote into the page: the first `nonce="…"`, if it looks like one. Read as
/// bytes: a page is sent as the bytes it was rendered to, and every page goes through here.
fn rendered_nonce(html: &[u8]) -> Option<&[u8]> {
    const ATTRIBUTE: &[u8] = b"nonce=\"";
    let start = memchr::memmem::find(html, ATTRIBUTE)? + ATTRIBUTE.len();
    let len = memchr::memchr(b'"', &html[start..])?;
    let nonce = &html[start..start + len];
    let plausible = nonce.len() >= 16
        && nonce.iter().all(|b| b.is_ascii_alphanumeric() || b"-_+/=".contains(b));
    plausible.then_some(nonce)
}

/// `html` with every `old` replaced by `new`.
fn replace_all(html: &[u8], old: &[u8], new: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(html.len() + 256);
    let mut rest = 0;
    for at in memchr::memmem::find_iter(html, old) {
        out.extend_from_slice(&html[rest..at]);
        out.extend_from_slice(new);
        rest = at + old.len();
    }
    out.extend_from_slice(&html[rest..]);
    out.into()
}

fn new_nonce() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rendered_nonce_is_found_and_only_a_plausible_one() {
        let page =
            br#"<link crossorigin="aB3_-x9QzK2mN8pL0vW4rT"><script nonce="aB3_-x9QzK2mN8pL0vW4rT">"#;
        assert_eq!(rendered_nonce(page), Some(&b"aB3_-x9QzK2mN8pL0vW4rT"[..]));
        assert_eq!(rendered_nonce(b"<p>no scripts</p>"), None);
        assert_eq!(rendered_nonce(br#"<script nonce="">"#), None);
        assert_eq!(rendered_nonce(br#"<script nonce="<b>short</b>">"#), None);
        assert_eq!(rendered_nonce(br#"<script nonce="aB3_-x9QzK2mN8pL0vW4rT"#), None, "unclosed");
    }

    #[test]
    fn every_occurrence_is_replaced_and_nothing_else_moves() {
        let page = "<s nonce=\"OLD\">한국어 OLD</s><s nonce=\"OLD\"></s>OL".as_bytes();
        let replaced = replace_all(page, b"OLD", b"fresh-nonce");
        assert_eq!(
            std::str::from_utf8(&replaced).unwrap(),
            "<s nonce=\"fresh-nonce\">한국어 fresh-nonce</s><s nonce=\"fresh-nonce\"></s>OL"
        );
        assert_eq!(replace_all(b"", b"OLD", b"x"), Bytes::new());
    }

    #[test]
    fn nonces_are_fresh_and_the_policy_allows_no_inline_script_without_one() {
        let (a, b) = (new_nonce().unwrap(), new_nonce().unwrap());
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        let policy = page_policy(Some(&a));
        let scripts = policy.split(';').find(|d| d.trim().starts_with("script-src")).unwrap();
        assert!(!scripts.contains("'unsafe-inline'"), "{policy}");
        assert!(!scripts.contains(" 'unsafe-eval'"), "{policy}");
        assert!(scripts.contains(&format!("'nonce-{a}'")));
        assert!(policy.contains("frame-ancestors 'none'") && policy.contains("object-src 'none'"));
        assert!(!page_policy(None).contains("nonce"), "no nonce, no inline script");
    }
}
