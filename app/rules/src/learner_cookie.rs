//! The anonymous learner: a random id in an HttpOnly cookie, set the first time they record
//! progress (no cookie is set for reading).
//!
//! Only ids the server issued are taken back: a new id is recorded in the database as it is
//! issued, and a cookie names a learner only while that row exists and has not been merged
//! into an account ([`lockstep_store::Store::is_live_learner`], asked by the viewer). A made-up
//! id, a truncated one, or one replayed after its merge starts a fresh learner instead. Over
//! HTTPS the cookie is `Secure` and named `__Host-…`, which browsers accept only from this
//! host over HTTPS: a sibling subdomain or a plain-HTTP response cannot plant one.

use http::header::COOKIE;
use http::HeaderValue;

/// The cookie's name over plain HTTP (development, tests)…
pub const LEARNER_COOKIE: &str = "lockstep_learner";
/// …and over HTTPS.
pub const SECURE_LEARNER_COOKIE: &str = "__Host-lockstep_learner";

/// How this site writes and reads the learner cookie.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LearnerCookie {
    /// The site is served over HTTPS (`LOCKSTEP_PUBLIC_URL` is `https://…`).
    pub secure: bool,
}

impl LearnerCookie {
    fn name(self) -> &'static str {
        if self.secure {
            SECURE_LEARNER_COOKIE
        } else {
            LEARNER_COOKIE
        }
    }

    fn attributes(self) -> &'static str {
        if self.secure {
            "Path=/; HttpOnly; SameSite=Lax; Secure"
        } else {
            "Path=/; HttpOnly; SameSite=Lax"
        }
    }

    /// The `Set-Cookie` value that gives the browser learner `id`.
    pub fn set(self, id: &str) -> HeaderValue {
        let cookie = format!("{}={id}; Max-Age=31536000; {}", self.name(), self.attributes());
        HeaderValue::from_str(&cookie).expect("ids are hex digits")
    }

    /// The `Set-Cookie` value that makes the browser forget its anonymous learner (once its
    /// progress is merged into an account).
    pub fn forget(self) -> HeaderValue {
        HeaderValue::from_str(&format!("{}=; Max-Age=0; {}", self.name(), self.attributes()))
            .expect("a constant cookie")
    }

    /// The learner id a request's cookie carries, if it is well formed. Whether the server
    /// issued it is the database's to say.
    pub fn read(self, headers: &http::HeaderMap) -> Option<String> {
        cookies(headers, self.name()).find(|value| is_learner_id(value)).map(str::to_string)
    }
}

/// The values of the cookies called `name` that a request sends, in the order it sends them.
/// Every cookie the server reads is read here.
pub fn cookies<'h>(
    headers: &'h http::HeaderMap,
    name: &'h str,
) -> impl Iterator<Item = &'h str> + 'h {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(move |(n, _)| *n == name)
        .map(|(_, value)| value)
}

/// A new learner id: 128 random bits in hex.
pub fn new_id() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for a learner id: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn is_learner_id(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: LearnerCookie = LearnerCookie { secure: false };
    const SECURE: LearnerCookie = LearnerCookie { secure: true };

    fn headers(cookie: &'static str) -> http::HeaderMap {
        let mut h = http::HeaderMap::new();
        h.append(COOKIE, HeaderValue::from_static(cookie));
        h
    }

    #[test]
    fn learner_cookie_is_read_only_when_well_formed() {
        let h = headers("a=1; lockstep_learner=0123456789abcdef0123456789abcdef");
        assert_eq!(PLAIN.read(&h).as_deref(), Some("0123456789abcdef0123456789abcdef"));
        assert_eq!(PLAIN.read(&headers("lockstep_learner=../../etc")), None);
        assert_eq!(PLAIN.read(&headers("lockstep_learner=0123456789abcdef")), None, "truncated");
        assert_eq!(PLAIN.read(&http::HeaderMap::new()), None);
    }

    #[test]
    fn over_https_only_the_host_only_secure_cookie_counts() {
        let id = "0123456789abcdef0123456789abcdef";
        assert_eq!(
            SECURE.read(&headers("lockstep_learner=0123456789abcdef0123456789abcdef")),
            None
        );
        let h = headers("__Host-lockstep_learner=0123456789abcdef0123456789abcdef");
        assert_eq!(SECURE.read(&h).as_deref(), Some(id));
        let set = SECURE.set(id);
        let set = set.to_str().unwrap();
        assert!(set.starts_with("__Host-lockstep_learner=") && set.ends_with("; Secure"), "{set}");
        assert!(!set.contains("Domain"), "a __Host- cookie has no Domain: {set}");
        assert!(!PLAIN.set(id).to_str().unwrap().contains("Secure"));
        assert!(SECURE.forget().to_str().unwrap().contains("Max-Age=0"));
    }

    #[test]
    fn ids_are_well_formed() {
        let id = new_id().unwrap();
        assert!(is_learner_id(&id), "{id}");
        assert_ne!(id, new_id().unwrap());
    }
}
