//! The anonymous learner: a random id in an HttpOnly cookie, set the first time they record
//! progress (no cookie is set for reading). Cookies not in this format are ignored, so a
//! learner cannot choose an id.

use http::header::{COOKIE, SET_COOKIE};
use http::HeaderValue;
use leptos::prelude::*;

/// The learner is anonymous: a random id in this cookie, set the first time they record progress.
pub const LEARNER_COOKIE: &str = "lockstep_learner";

/// Makes a new learner id and sets its cookie on the response being rendered.
pub fn set_new() -> Result<String, String> {
    let (id, cookie) = new()?;
    let response = expect_context::<leptos_axum::ResponseOptions>();
    response.append_header(SET_COOKIE, cookie);
    Ok(id)
}

/// A new learner id and the `Set-Cookie` value that gives it to the browser.
pub fn new() -> Result<(String, HeaderValue), String> {
    let id = new_id()?;
    let cookie = format!("{LEARNER_COOKIE}={id}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax");
    let value = HeaderValue::from_str(&cookie).map_err(|e| e.to_string())?;
    Ok((id, value))
}

/// A new learner id, for an account's own learner.
pub fn new_id() -> Result<String, String> {
    new_learner_id().map_err(|e| format!("no randomness for a learner id: {e}"))
}

/// The `Set-Cookie` value that makes the browser forget its anonymous learner (once its
/// progress is merged into an account).
pub fn forget() -> HeaderValue {
    HeaderValue::from_str(&format!("{LEARNER_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"))
        .expect("a constant cookie")
}

fn new_learner_id() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn is_learner_id(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The learner of the request being served, if its cookie is well formed.
pub fn from_request() -> Option<String> {
    let parts = use_context::<http::request::Parts>()?;
    from_headers(&parts.headers)
}

/// The learner a request's cookie names, if it is well formed.
pub fn from_headers(headers: &http::HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == LEARNER_COOKIE && is_learner_id(value))
        .map(|(_, value)| value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learner_cookie_is_read_only_when_well_formed() {
        let mut h = http::HeaderMap::new();
        h.append(
            COOKIE,
            HeaderValue::from_static("a=1; lockstep_learner=0123456789abcdef0123456789abcdef"),
        );
        assert_eq!(from_headers(&h).as_deref(), Some("0123456789abcdef0123456789abcdef"));
        let mut h = http::HeaderMap::new();
        h.append(COOKIE, HeaderValue::from_static("lockstep_learner=../../etc"));
        assert_eq!(from_headers(&h), None);
        assert_eq!(from_headers(&http::HeaderMap::new()), None);
    }

    #[test]
    fn ids_are_well_formed() {
        let id = new_learner_id().unwrap();
        assert!(is_learner_id(&id), "{id}");
        assert_ne!(id, new_learner_id().unwrap());
    }
}
