//! The page being rendered, as every part of it may ask: its language and its words, its path,
//! and where this build's browser bundle is served.

use leptos::prelude::*;
use lockstep_i18n::Lang;

/// The `<meta name>` in every page's head that names the bundle's folder.
pub(crate) const BUNDLE_META: &str = "lockstep-bundle";

/// This build's browser bundle's folder, `/pkg/<hash>`. The server knows it from the build
/// (`ssr::Site::bundle`); the browser from the page's head, so both render the same addresses.
pub fn bundle_dir() -> String {
    #[cfg(feature = "ssr")]
    let dir = use_context::<crate::ssr::Site>().map(|c| c.bundle).unwrap_or_default();
    #[cfg(not(feature = "ssr"))]
    let dir = bundle_from_head();
    dir
}

/// The address of `file` of this build's browser bundle: `/pkg/<hash>/FILE`.
pub fn bundle_file(file: &str) -> String {
    format!("{}/{file}", bundle_dir())
}

#[cfg(not(feature = "ssr"))]
fn bundle_from_head() -> String {
    thread_local! {
        static DIR: String = from_head(BUNDLE_META).unwrap_or_else(|| "/pkg".into());
    }
    DIR.with(Clone::clone)
}

/// The content of the page head's `<meta name>`, which the server wrote.
#[cfg(not(feature = "ssr"))]
fn from_head(name: &str) -> Option<String> {
    document()
        .query_selector(&format!("meta[name={name}]"))
        .ok()
        .flatten()
        .and_then(|m| m.get_attribute("content"))
}

/// The `<meta name>` in every page's head that names the languages the site serves.
pub(crate) const LANGUAGES_META: &str = "lockstep-languages";

/// The languages the site serves, English first. The server is configured with them
/// (`ssr::Site::languages`); the browser reads them from the page's head, so the switcher it
/// hydrates is the one the server rendered.
pub fn languages() -> lockstep_i18n::Languages {
    #[cfg(feature = "ssr")]
    let languages = use_context::<crate::ssr::Site>().map(|c| c.languages).unwrap_or_default();
    #[cfg(not(feature = "ssr"))]
    let languages = {
        thread_local! {
            static LANGUAGES: lockstep_i18n::Languages =
                from_head(LANGUAGES_META).and_then(|l| l.parse().ok()).unwrap_or_default();
        }
        LANGUAGES.with(Clone::clone)
    };
    languages
}

/// The comments' place on lesson and exercise pages, filled by the server for each request
/// (`lockstep_pages::talk`).
pub const COMMENTS_PART: &str = "comments";

/// The language of the page being rendered: its address says ([`Lang::of_path`]), so the
/// server's render and the browser's hydration agree.
pub fn use_lang() -> Lang {
    use_context::<Lang>().unwrap_or_default()
}

/// The catalogue of the page's language.
pub fn use_t() -> &'static lockstep_i18n::Catalogue {
    lockstep_i18n::t(use_lang())
}

/// The path of the page being rendered: the request's on the server, the address bar's in the
/// browser.
pub(crate) fn page_path() -> String {
    #[cfg(feature = "ssr")]
    {
        use_context::<http::request::Parts>().map(|p| p.uri.path().to_string()).unwrap_or_default()
    }
    #[cfg(not(feature = "ssr"))]
    {
        #[cfg(feature = "hydrate")]
        {
            window().location().pathname().unwrap_or_default()
        }
        #[cfg(not(feature = "hydrate"))]
        String::new()
    }
}

/// Whether the page at `path` is one the browser makes interactive only where its islands are
/// (the bell, the toast, the search box, a lesson's learner parts, simulations and contents),
/// with a bundle of their own, and not as a whole with the application's: the site's pages
/// (`pages::lazy::Site`), which read what they show from the server and have no control of
/// their own, and the lessons, whose text is the server's and whose controls are those islands
/// (a bundle of their own too). A link from one is an ordinary page load. Read from
/// the address because the page's head, which loads one bundle or the other, is written before
/// its route is rendered.
pub fn hydrates_only_islands(path: &str) -> bool {
    use lockstep_routes as r;
    let page = page_of(path).trim_end_matches('/');
    page.is_empty()
        || [r::XP, r::SEARCH, r::ACCOUNT, r::NOTIFICATIONS].contains(&page)
        || r::course_slug(page).is_some()
        || r::lesson_slug(page).is_some()
}

/// The page `path` is, in whatever language: without the language's prefix, query or fragment.
pub(crate) fn page_of(path: &str) -> &str {
    Lang::strip(path).split(['?', '#']).next().unwrap_or_default()
}

/// A lesson page's heading ids in `lang`'s edition, in page order, as the page lists them
/// (`data-role=section-ids`, one list per edition): the n-th of one edition stands for the
/// n-th of another (the parity check).
#[cfg(feature = "hydrate")]
pub(crate) fn section_ids(lang: Lang) -> Vec<String> {
    let selector = format!("[data-role=section-ids][data-lang={}]", lang.code());
    let list = document().query_selector(&selector).ok().flatten();
    let ids = list.and_then(|l| l.get_attribute("data-ids")).unwrap_or_default();
    ids.split(' ').filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// The position in `ids` (a lesson's headings, in page order) of the section being read: the
/// last heading at most a line under the (sticky) header, where a heading lands when the
/// contents link to it (`scroll-margin-top`), or above.
#[cfg(feature = "hydrate")]
pub(crate) fn reading(ids: &[String]) -> Option<usize> {
    let doc = document();
    let top = doc
        .query_selector(".site-header")
        .ok()
        .flatten()
        .map_or(0.0, |h| h.get_bounding_client_rect().bottom());
    let mut current = None;
    for (i, id) in ids.iter().enumerate() {
        let Some(h) = doc.get_element_by_id(id) else { continue };
        if h.get_bounding_client_rect().top() <= top + 64.0 {
            current = Some(i);
        }
    }
    current
}
