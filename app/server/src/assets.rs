//! The browser bundle's files: found at start, and kept by browsers for a year.
//!
//! The build writes the bundle into `pkg/<hash>/`, the hash of its contents, and names that
//! folder in `pkg/current`. A file's address therefore changes whenever its build does, so a
//! browser may keep it without asking again (`immutable`); pages are asked for again every
//! time (`no-cache`, unless they said otherwise), and name the folder of the bundle they were
//! rendered with.

use std::path::Path;

use axum::extract::Request;
use axum::http::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE, VARY};
use axum::middleware::Next;
use axum::response::Response;

use lockstep_web::OUTPUT_NAME;

/// The current bundle's hash, if the site root has a complete one.
pub fn current_bundle(site_root: &Path) -> Option<String> {
    let pkg = site_root.join("pkg");
    let hash = std::fs::read_to_string(pkg.join("current")).ok()?.trim().to_string();
    let complete =
        is_hash(&hash) && pkg.join(&hash).join(format!("{OUTPUT_NAME}_bg.wasm")).exists();
    complete.then_some(hash)
}

/// 16 lower-case hex digits: a bundle folder's name, never anything a path could escape with.
fn is_hash(name: &str) -> bool {
    name.len() == 16 && name.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// `Cache-Control: public, max-age=31536000, immutable` on the files of a hashed bundle folder;
/// `no-cache` on a page that set nothing.
pub async fn cache_control(request: Request, next: Next) -> Response {
    let bundled = request.uri().path().strip_prefix("/pkg/");
    let hashed = bundled
        .and_then(|rest| rest.split_once('/'))
        .is_some_and(|(folder, file)| is_hash(folder) && !file.is_empty());
    let bundled = bundled.is_some();
    let mut response = next.run(request).await;
    let success = response.status().is_success();
    let headers = response.headers_mut();
    if bundled && success && !headers.contains_key(VARY) {
        // Sent compressed or not by what the browser accepts: a shared cache must keep both.
        headers.insert(VARY, HeaderValue::from_static("accept-encoding"));
    }
    if hashed && success {
        headers
            .insert(CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable"));
    } else if !headers.contains_key(CACHE_CONTROL)
        && headers.get(CONTENT_TYPE).is_some_and(|t| t.as_bytes().starts_with(b"text/html"))
    {
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundle_folder_is_sixteen_hex_digits() {
        assert!(is_hash("0123456789abcdef"));
        for not in ["", "0123456789abcdeF", "0123456789abcde", "..", "0123456789abcdef0"] {
            assert!(!is_hash(not), "{not}");
        }
    }

    #[test]
    fn the_current_bundle_is_named_and_complete() {
        let site = tempfile::tempdir().unwrap();
        assert_eq!(current_bundle(site.path()), None, "no build");
        let pkg = site.path().join("pkg");
        std::fs::create_dir_all(pkg.join("0123456789abcdef")).unwrap();
        std::fs::write(pkg.join("current"), "0123456789abcdef\n").unwrap();
        assert_eq!(current_bundle(site.path()), None, "named, but its wasm is missing");
        std::fs::write(pkg.join("0123456789abcdef/lockstep_bg.wasm"), b"\0asm").unwrap();
        assert_eq!(current_bundle(site.path()).as_deref(), Some("0123456789abcdef"));
        std::fs::write(pkg.join("current"), "../../etc\n").unwrap();
        assert_eq!(current_bundle(site.path()), None, "only a hash is a folder name");
    }
}
