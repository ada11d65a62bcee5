//! Which language a reader gets. Every page's address says its own (`/ko/…` or not), so only
//! two places choose: `/`, which sends a first visit to the reader's language by
//! `Accept-Language` and a returning one by the choice they made, and the switcher
//! ([`lockstep_routes::LANGUAGE`]), which remembers that choice in a cookie. Both choose among
//! the languages the site serves ([`Languages`]); an address in another is not found.

use axum::extract::{OriginalUri, Query, Request, State};
use axum::http::header::{ACCEPT_LANGUAGE, LOCATION, VARY};
use axum::http::{HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use lockstep_routes::{Lang, Languages, LANG_COOKIE};

use crate::http_error::ErrorPage;

/// The language of the page a request is for (or, for a form post, of the page that posts it).
pub struct PageLang(pub Lang);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for PageLang {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        // Under a nested router the URI has lost its prefix; the original has it.
        let path = match parts.extensions.get::<OriginalUri>() {
            Some(OriginalUri(uri)) => uri.path().to_string(),
            None => parts.uri.path().to_string(),
        };
        Ok(PageLang(Lang::of_path(&path)))
    }
}

#[derive(serde::Deserialize)]
pub struct Switch {
    to: String,
    #[serde(default)]
    from: String,
}

/// A year: a choice of language outlives sessions.
const REMEMBERED_SECONDS: u32 = 365 * 24 * 3600;

/// The switcher: remembers the language and goes to the same page in it. The fragment of the
/// link (the section being read) is kept by the browser across the redirect.
pub async fn switch(State(languages): State<Languages>, Query(q): Query<Switch>) -> Response {
    let Some(to) = Lang::from_code(&q.to).filter(|l| languages.contains(*l)) else {
        return (axum::http::StatusCode::BAD_REQUEST, "unknown language").into_response();
    };
    let cookie =
        format!("{LANG_COOKIE}={}; Path=/; Max-Age={REMEMBERED_SECONDS}; SameSite=Lax", to.code());
    // `from` must be a page of this site, and so must the page it becomes, checked as it will
    // be sent: `/ko//host` is a path here only until `/ko` is taken off it.
    let from = without_query(&q.from);
    let to_path = lockstep_routes::local_location(from)
        .and_then(|_| lockstep_routes::local_location(&Lang::switch(from, to)))
        .unwrap_or_else(|| to.path(lockstep_routes::HOME));
    crate::redirect::see_other(&to_path, HeaderValue::from_str(&cookie).ok())
}

/// The path of `from`, without the query or fragment a page's address may carry.
fn without_query(from: &str) -> &str {
    from.split(['?', '#']).next().unwrap_or_default()
}

/// A form posted from a page in another language than English (`POST /ko/account/sign-in`):
/// handled by the English route, with its redirect back sent to the page in that language.
/// Handlers that need the language read it from the original address ([`PageLang`]). An error
/// page answering any request under `/ko` is written in Korean. Under a language the site does
/// not serve there is nothing.
pub async fn forms_in_their_language(
    State(languages): State<Languages>,
    mut req: Request,
    next: Next,
) -> Response {
    let lang = Lang::of_path(req.uri().path());
    if lang == Lang::En {
        return next.run(req).await;
    }
    if !languages.contains(lang) {
        return crate::http_error::not_found();
    }
    if matches!(*req.method(), Method::GET | Method::HEAD) {
        return error_page_in(next.run(req).await, lang);
    }
    let english = Lang::strip(req.uri().path()).to_string();
    let uri = match req.uri().query() {
        Some(q) => format!("{english}?{q}"),
        None => english,
    };
    let Ok(uri) = uri.parse() else {
        return (axum::http::StatusCode::BAD_REQUEST, "bad address").into_response();
    };
    if req.extensions().get::<OriginalUri>().is_none() {
        let original = OriginalUri(req.uri().clone());
        req.extensions_mut().insert(original);
    }
    *req.uri_mut() = uri;
    let mut response = next.run(req).await;
    let location = response.headers().get(LOCATION).and_then(|l| l.to_str().ok());
    let english = location.filter(|l| Lang::of_path(l) == Lang::En);
    if let Some(to) = english.and_then(|l| lockstep_routes::local_location(&lang.path(l))) {
        if let Ok(value) = HeaderValue::from_str(&to) {
            response.headers_mut().insert(LOCATION, value);
        }
    }
    error_page_in(response, lang)
}

/// Outermost: a redirect leaves only for a path of this site, checked as it is sent, after
/// every layer that may have rewritten it. An absolute address (a server function's form sends
/// the browser back to its `Referer`) keeps only its path, so it too stays here; anything that
/// is no path of this site goes to the home page instead.
pub async fn local_redirects_only(req: Request, next: Next) -> Response {
    let mut response = next.run(req).await;
    let Some(location) = response.headers().get(LOCATION) else { return response };
    let sent = location.to_str().ok().map(|l| path_of(l).to_string());
    let local = sent.as_deref().and_then(lockstep_routes::local_location);
    let value = local.and_then(|l| HeaderValue::from_str(&l).ok()).unwrap_or_else(|| {
        tracing::warn!("a redirect to {location:?} was sent home instead");
        HeaderValue::from_static(lockstep_routes::HOME)
    });
    response.headers_mut().insert(LOCATION, value);
    response
}

/// An absolute URL's path, query and fragment (`/` for none); anything else as it is.
fn path_of(location: &str) -> &str {
    let scheme = location.split_once("://").filter(|(scheme, _)| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
    });
    match scheme {
        Some((_, rest)) => rest.find(['/', '?', '#']).map_or("/", |i| &rest[i..]),
        None => location,
    }
}

/// An error page ([`ErrorPage`]) written again in `lang`; any other response as it is.
fn error_page_in(mut response: Response, lang: Lang) -> Response {
    let Some(words) = response.extensions_mut().remove::<ErrorPage>() else {
        return response;
    };
    response.headers_mut().remove(axum::http::header::CONTENT_LENGTH);
    *response.body_mut() = axum::body::Body::from(words.page(lang));
    response
}

/// At `/`: the reader's remembered choice, else the first language of `Accept-Language` this
/// site serves, sends them to its home. English stays at `/`.
pub async fn choose_home(State(languages): State<Languages>, req: Request, next: Next) -> Response {
    if req.method() != Method::GET || req.uri().path() != lockstep_routes::HOME {
        return next.run(req).await;
    }
    let lang = preferred(req.headers(), &languages);
    if lang != Lang::En {
        let mut response = crate::redirect::see_other(&lang.path(lockstep_routes::HOME), None);
        response.headers_mut().insert(VARY, HeaderValue::from_static("accept-language, cookie"));
        return response;
    }
    let mut response = next.run(req).await;
    response.headers_mut().insert(VARY, HeaderValue::from_static("accept-language, cookie"));
    response
}

/// The reader's language among those served: the `lang` cookie when set, else
/// `Accept-Language`.
pub fn preferred(headers: &HeaderMap, languages: &Languages) -> Lang {
    let cookie = lockstep_rules::learner_cookie::cookies(headers, LANG_COOKIE)
        .next()
        .and_then(Lang::from_code)
        .filter(|l| languages.contains(*l));
    cookie.unwrap_or_else(|| {
        let accepted = headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
        accepted.map_or(Lang::En, |a| by_accept_language(a, languages))
    })
}

/// The served language the reader ranks highest: by `q` (1 when absent; 0 means not at all),
/// then by the order given; a tag matches by its primary subtag (`ko-KR` is `ko`).
pub fn by_accept_language(header: &str, languages: &Languages) -> Lang {
    let mut ranked: Vec<(u32, usize, Lang)> = header
        .split(',')
        .enumerate()
        .filter_map(|(i, item)| {
            let mut parts = item.split(';');
            let tag = parts.next()?.trim();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            let primary = tag.split('-').next()?;
            let lang = Lang::from_code(primary).filter(|l| languages.contains(*l))?;
            (q > 0.0).then(|| ((q.clamp(0.0, 1.0) * 1000.0) as u32, i, lang))
        })
        .collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    ranked.first().map_or(Lang::En, |r| r.2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::COOKIE;

    #[test]
    fn accept_language_by_quality_then_order() {
        for (header, lang) in [
            ("ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7", Lang::Ko),
            ("en-US,en;q=0.9,ko;q=0.8", Lang::En),
            ("en;q=0.5,ko;q=0.8", Lang::Ko),
            ("fr-FR,ko;q=0.3", Lang::Ko),
            ("ko;q=0,en", Lang::En),
            ("fr, de", Lang::En),
            ("", Lang::En),
            ("*", Lang::En),
            ("KO", Lang::Ko),
            ("ko;q=abc", Lang::Ko),
            // Not served by default.
            ("ja-JP,ko;q=0.5", Lang::Ko),
        ] {
            assert_eq!(by_accept_language(header, &Languages::default()), lang, "{header}");
        }
        let three: Languages = "en,ko,ja".parse().unwrap();
        assert_eq!(by_accept_language("ja-JP,ko;q=0.5", &three), Lang::Ja);
    }

    #[test]
    fn the_cookie_wins() {
        let mut headers = HeaderMap::new();
        let served = Languages::default();
        headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("ko-KR"));
        assert_eq!(preferred(&headers, &served), Lang::Ko);
        headers.insert(COOKIE, HeaderValue::from_static("lockstep_learner=x; lang=en"));
        assert_eq!(preferred(&headers, &served), Lang::En);
        headers.insert(COOKIE, HeaderValue::from_static("lang=xx"));
        assert_eq!(preferred(&headers, &served), Lang::Ko);
        // A language the site no longer serves is no choice.
        headers.insert(COOKIE, HeaderValue::from_static("lang=ja"));
        assert_eq!(preferred(&headers, &served), Lang::Ko);
    }

    /// The web app lists each page in every language, in English and under each other's code:
    /// a page added to one list only would be missing in the others.
    #[test]
    fn every_page_has_its_twin_in_every_language() {
        let routes = leptos_axum::generate_route_list(lockstep_web::App);
        let paths: std::collections::BTreeSet<String> =
            routes.iter().map(|r| r.path().to_string()).collect();
        let english: Vec<&String> = paths.iter().filter(|p| Lang::of_path(p) == Lang::En).collect();
        assert!(english.len() >= 7, "{paths:?}");
        for lang in Lang::ALL {
            let theirs = paths.iter().filter(|p| Lang::of_path(p) == lang).count();
            assert_eq!(theirs, english.len(), "{lang:?}: {paths:?}");
            for path in &english {
                let twin = lang.path(path);
                assert!(paths.contains(&twin), "{path} has no twin in {lang:?}: {paths:?}");
            }
        }
    }

    #[test]
    fn an_absolute_address_keeps_its_path() {
        for (location, path) in [
            ("http://localhost/lessons/a?x=1#b", "/lessons/a?x=1#b"),
            ("https://evil.example", "/"),
            ("https://evil.example?x", "?x"),
            ("/lessons/a", "/lessons/a"),
            ("//evil.example/a", "//evil.example/a"),
            ("javascript:alert(1)//x", "javascript:alert(1)//x"),
        ] {
            assert_eq!(path_of(location), path, "{location}");
        }
    }

    #[test]
    fn the_switch_keeps_the_path_not_its_query() {
        for (from, path) in [("/lessons/a", "/lessons/a"), ("/xp?next=//evil", "/xp"), ("", "")] {
            assert_eq!(without_query(from), path, "{from}");
        }
    }
}
