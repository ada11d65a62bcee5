//! Bearer tokens: made by the server, shown once, kept only as a SHA-256 hash. A learner's
//! terminal token (`lockstep submit`) and a grading worker's token say who is asking from
//! outside a browser.

use http::header::AUTHORIZATION;
use http::HeaderMap;
use sha2::{Digest, Sha256};

/// A worker's token starts `lsw_`, a learner's `lsl_`: a token pasted in the wrong place says
/// what it is.
pub const WORKER_PREFIX: &str = "lsw_";
pub const LEARNER_PREFIX: &str = "lsl_";

/// A new token (`prefix` and 256 random bits in hex) and the hash to store.
pub fn new_token(prefix: &str) -> Result<(String, String), getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    let token = format!("{prefix}{}", hex(&bytes));
    let hash = hash(&token);
    Ok((token, hash))
}

pub fn hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// A random id for a lease: 128 bits in hex.
pub fn lease_id() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(hex(&bytes))
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The token of `Authorization: Bearer TOKEN`, if the request has one.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|t| !t.is_empty())
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hashed() {
        let (a, hash_a) = new_token(WORKER_PREFIX).unwrap();
        let (b, _) = new_token(WORKER_PREFIX).unwrap();
        assert_ne!(a, b);
        assert!(a.starts_with("lsw_") && a.len() == 4 + 64, "{a}");
        assert_eq!(hash(&a), hash_a);
        assert_eq!(hash_a.len(), 64);
        assert_ne!(hash_a, a[4..], "the stored hash is not the token");
    }

    #[test]
    fn bearer_tokens_are_read_from_the_header() {
        let mut headers = HeaderMap::new();
        assert_eq!(bearer(&headers), None);
        headers.insert(AUTHORIZATION, "Bearer lsw_abc".parse().unwrap());
        assert_eq!(bearer(&headers), Some("lsw_abc"));
        headers.insert(AUTHORIZATION, "bearer  lsw_abc ".parse().unwrap());
        assert_eq!(bearer(&headers), Some("lsw_abc"));
        headers.insert(AUTHORIZATION, "Basic abc".parse().unwrap());
        assert_eq!(bearer(&headers), None);
    }
}
