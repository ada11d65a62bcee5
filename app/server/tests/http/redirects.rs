//! Every redirect the server makes stays on this site, whatever the request put into it: the
//! language switch's `from`, the `/ko` twin of a form's address, a lesson's slug in a quiz's
//! address, a comment's or report's place. Each is tried with another host written every way a
//! browser reads as one (`//host`, `/\host`, encoded slashes, a scheme, control characters).

use crate::common;

use axum::http::{header, StatusCode};
use common::in_process::*;

/// Another host, written as browsers read one (each also after `/ko`, as the switch strips it).
const HOSTILE: [&str; 14] = [
    "//evil.example/login",
    "///evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    "/%2F%2Fevil.example",
    "/%5C%5Cevil.example",
    "https://evil.example",
    "https:evil.example",
    "javascript:alert(1)",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\nSet-Cookie: pwned=1",
    "\u{0}//evil.example",
    "/ /evil.example",
];

/// A `Location` a browser resolves to this site: one `/`, then no `/` or `\`, and only
/// visible ASCII, so nothing a browser strips or turns into a slash is left.
fn assert_local(page: &Page, what: &str) {
    let location = page.headers.get(header::LOCATION).unwrap_or_else(|| panic!("{what}: none"));
    let location = location.to_str().unwrap_or_else(|_| panic!("{what}: {location:?}"));
    let mut chars = location.chars();
    assert_eq!(chars.next(), Some('/'), "{what}: {location}");
    assert!(!matches!(chars.next(), Some('/' | '\\')), "{what}: {location}");
    assert!(location.bytes().all(|b| b.is_ascii_graphic() && b != b'\\'), "{what}: {location}");
    assert!(page
        .headers
        .get_all(header::SET_COOKIE)
        .iter()
        .all(|c| !c.to_str().unwrap_or_default().contains("pwned")));
}

fn query(value: &str) -> String {
    form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

#[test]
fn every_redirect_stays_on_this_site() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        // The language switch, checked after `/ko` is taken off: `/ko//host` was `//host`.
        for hostile in HOSTILE {
            for from in [hostile.to_string(), format!("/ko{hostile}"), format!("/ko/{hostile}")] {
                for to in ["en", "ko"] {
                    let path = format!("/language?to={to}&from={}", query(&from));
                    let page = get(&app, &path, None).await;
                    assert_eq!(page.status, StatusCode::SEE_OTHER, "{path}");
                    assert_local(&page, &path);
                }
            }
        }
        // The exact attack: to the language's home, not to another site.
        let page = get(&app, "/language?to=en&from=/ko//evil.example/login", None).await;
        assert_eq!(page.headers[header::LOCATION], "/");
        let page = get(&app, "/language?to=ko&from=//evil.example/login", None).await;
        assert_eq!(page.headers[header::LOCATION], "/ko");
        // A page of this site still switches, its section's address kept.
        let page = get(&app, "/language?to=en&from=/ko/lessons/torchrun", None).await;
        assert_eq!(page.headers[header::LOCATION], "/lessons/torchrun");

        // The 404 page of such an address offers the switch: following it stays here.
        let missing = get(&app, "/ko//evil.example/login", None).await;
        assert_eq!(missing.status, StatusCode::NOT_FOUND);
        let links: Vec<String> = missing
            .body
            .split("href=\"")
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .map(|s| s.replace("&amp;", "&"))
            .filter(|s| s.starts_with("/language?"))
            .collect();
        assert!(!links.is_empty(), "the 404 page has the switch");
        for link in links {
            assert_local(&get(&app, &link, None).await, &link);
        }

        // Forms whose redirect carries what the request named, in both languages.
        let mut jar = signed_up(&app, "rita@example.org").await;
        for hostile in HOSTILE {
            let slug = query(hostile.trim_start_matches('/')).replace('+', "%20");
            for lang in ["", "/ko"] {
                let path = format!("{lang}/lessons/{slug}/quizzes/0");
                let page = jar.post(&app, &path, &[("q0", "0")]).await;
                if page.status.is_redirection() {
                    assert_local(&page, &path);
                }
                for (action, place) in [("/comments", hostile), ("/reports", hostile)] {
                    let path = format!("{lang}{action}");
                    let page = jar.post(&app, &path, &[("place", place), ("body", "x")]).await;
                    assert!(!page.status.is_redirection(), "{path} {place}: a place it issued");
                }
            }
        }
    })
}
