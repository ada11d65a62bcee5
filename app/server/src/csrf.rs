//! Cross-site request forgery protection for every state-changing request: server functions,
//! no-JavaScript form posts and the quiz's form alike. Browsers say where a request comes from
//! (`Sec-Fetch-Site`, or at least `Origin` on every POST); a request that another site made the
//! learner's browser send is refused with 403 before it reaches a handler. The approach of
//! Go 1.25's `CrossOriginProtection` and of tower-http's CSRF layer: no token to carry, so it
//! covers plain forms as well as `fetch`.
//!
//! Behind a proxy that rewrites `Host`, the public origin (`LOCKSTEP_PUBLIC_URL`) is trusted as
//! well; `Sec-Fetch-Site` needs nothing, as the browser judges it against the address it sees.
//!
//! Requests with neither header do not come from a browser that could be tricked (curl, the
//! terminal client with its own token), and pass.
//!
//! # CSRF
//!
//! Every request that is not GET, HEAD or OPTIONS passes `app/server/src/csrf.rs`: refused with 403
//! when `Sec-Fetch-Site` says another site sent it, or `Origin` is neither this host nor
//! `LOCKSTEP_PUBLIC_URL`'s origin.

use axum::extract::{Request, State};
use axum::http::header::{HOST, ORIGIN};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

pub async fn protect(
    State(public_origin): State<Option<String>>,
    req: Request,
    next: Next,
) -> Response {
    match verdict(req.method(), req.headers(), public_origin.as_deref()) {
        Ok(()) => next.run(req).await,
        Err(why) => {
            tracing::warn!("refused a cross-site {} {}: {why}", req.method(), req.uri().path());
            (
                StatusCode::FORBIDDEN,
                format!("refused: {why}. Submit the form from this site's own pages."),
            )
                .into_response()
        }
    }
}

/// `https://lockstep.example` of `https://lockstep.example/some/path`; `None` if `url` is not an
/// http(s) URL with a host.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split('/').next()?;
    let valid = matches!(scheme, "http" | "https")
        && !authority.is_empty()
        && !authority.contains(['@', '?', '#', ' ']);
    valid.then(|| format!("{scheme}://{}", authority.to_ascii_lowercase()))
}

/// Whether a request may change state: safe methods always; others only from this site (its
/// `Host`, or the configured public origin).
fn verdict(
    method: &Method,
    headers: &HeaderMap,
    public_origin: Option<&str>,
) -> Result<(), &'static str> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return Ok(());
    }
    let header = |name| headers.get(name).and_then(|v| v.to_str().ok());
    match header("sec-fetch-site") {
        // `none`: the user's own action (a bookmark, the address bar), not another page's.
        Some("same-origin" | "none") => return Ok(()),
        Some(_) => return Err("the request came from another site (Sec-Fetch-Site)"),
        None => {}
    }
    let Some(origin) = header(ORIGIN.as_str()) else { return Ok(()) };
    if public_origin.is_some_and(|trusted| origin.eq_ignore_ascii_case(trusted)) {
        return Ok(());
    }
    let authority = origin.split_once("://").map(|(_, rest)| rest);
    match (authority, header(HOST.as_str())) {
        (Some(authority), Some(host)) if authority.eq_ignore_ascii_case(host) => Ok(()),
        _ => Err("the request's Origin is not this site"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn same_site_requests_pass_and_foreign_ones_do_not() {
        let post = Method::POST;
        assert!(verdict(&post, &headers(&[("sec-fetch-site", "same-origin")]), None).is_ok());
        assert!(verdict(&post, &headers(&[("sec-fetch-site", "cross-site")]), None).is_err());
        assert!(
            verdict(&post, &headers(&[("sec-fetch-site", "same-site")]), None).is_err(),
            "a sibling subdomain is another site"
        );
        let own = headers(&[("origin", "http://127.0.0.1:3000"), ("host", "127.0.0.1:3000")]);
        assert!(verdict(&post, &own, None).is_ok());
        let foreign = headers(&[("origin", "https://evil.example"), ("host", "127.0.0.1:3000")]);
        assert!(verdict(&post, &foreign, None).is_err());
        assert!(
            verdict(&post, &headers(&[("origin", "null"), ("host", "a")]), None).is_err(),
            "opaque origins are refused"
        );
        // Sec-Fetch-Site speaks for the browser even when Origin would pass.
        let mixed =
            headers(&[("sec-fetch-site", "cross-site"), ("origin", "http://a"), ("host", "a")]);
        assert!(verdict(&post, &mixed, None).is_err());
        assert!(verdict(&post, &HeaderMap::new(), None).is_ok(), "not a browser");
        assert!(
            verdict(&Method::GET, &headers(&[("sec-fetch-site", "cross-site")]), None).is_ok(),
            "reading is safe"
        );
    }

    #[test]
    fn behind_a_proxy_the_public_origin_is_trusted() {
        let proxied =
            headers(&[("origin", "https://learn.example.org"), ("host", "127.0.0.1:3000")]);
        assert!(verdict(&Method::POST, &proxied, None).is_err());
        assert!(verdict(&Method::POST, &proxied, Some("https://learn.example.org")).is_ok());
        assert!(verdict(&Method::POST, &proxied, Some("https://other.example.org")).is_err());
        assert_eq!(
            origin_of("https://Learn.Example.org:8443/course"),
            Some("https://learn.example.org:8443".into())
        );
        assert_eq!(origin_of("ftp://x"), None);
        assert_eq!(origin_of("https://"), None);
    }
}
