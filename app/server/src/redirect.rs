//! The answer to a form post: see the page it changed.

/// 303 to a path of this site (post, redirect, get), setting `cookie` if given; anything that
/// is not a path of this site goes home ([`lockstep_routes::local_location`]).
pub(crate) fn see_other(
    to: &str,
    cookie: Option<axum::http::HeaderValue>,
) -> axum::response::Response {
    use axum::http::header::{LOCATION, SET_COOKIE};
    use axum::response::IntoResponse;
    let mut response = axum::http::StatusCode::SEE_OTHER.into_response();
    let to = lockstep_routes::local_location(to).unwrap_or_else(|| {
        tracing::warn!("a redirect to {to:?} was sent home instead");
        lockstep_routes::HOME.to_string()
    });
    let location = axum::http::HeaderValue::from_str(&to).expect("percent-encoded ASCII");
    response.headers_mut().insert(LOCATION, location);
    if let Some(cookie) = cookie {
        response.headers_mut().insert(SET_COOKIE, cookie);
    }
    response
}
