//! Parts of a page that are fresh on every request (the comments), written by the server into
//! the lesson page it keeps per course version and into the pages it renders in full. Where
//! they go in a page is the web crate's (`lockstep_web::ssr::request_parts`).
//!
//! The freshness rule (`page_cache` in the server, "Freshness"): the lesson is the same for
//! everyone until a lesson file changes, a learner's parts are the same until that learner writes,
//! and a request part may differ on every request. A request part never enters what is kept: the
//! page names its place (`LessonView::request_parts`), a render for keeping leaves a placeholder
//! there (`lockstep_web::template`), and every response fills it with [`RequestPart::html`], for an
//! anonymous visitor as for a learner.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use lockstep_routes::{Lang, Place};
use lockstep_rules::{Requester, Rules};
use tower_sessions::Session;

pub type PartFuture<'a> = Pin<Box<dyn Future<Output = Result<String, String>> + Send + 'a>>;

/// What a request part is rendered for: a page (the lesson or exercise it is on), its
/// language, who reads it, and their session (for what a refused form left there).
#[derive(Clone, Copy)]
pub struct PartRequest<'a> {
    pub rules: &'a Rules,
    pub place: &'a Place,
    pub lang: Lang,
    pub requester: &'a Requester,
    pub session: Option<&'a Session>,
}

pub trait RequestPart: Send + Sync {
    /// Names its place in the page: lowercase letters, digits and `-`.
    fn name(&self) -> &'static str;

    /// Its HTML for `request`, rendered through Leptos's `view!` (which escapes every value),
    /// never by formatting strings.
    fn html<'a>(&'a self, request: PartRequest<'a>) -> PartFuture<'a>;
}

/// The request parts every lesson page has, in page order.
#[derive(Clone, Default)]
pub struct RequestParts(Arc<Vec<Arc<dyn RequestPart>>>);

impl RequestParts {
    /// # Panics
    /// When a part's name is not lowercase letters, digits and `-` (it is written into the page
    /// as is), or two parts share one.
    pub fn new(parts: Vec<Arc<dyn RequestPart>>) -> RequestParts {
        for (i, part) in parts.iter().enumerate() {
            let name = part.name();
            let plain = !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            assert!(plain, "a request part's name must be plain: `{name}`");
            assert!(parts[..i].iter().all(|p| p.name() != name), "two request parts are `{name}`");
        }
        RequestParts(Arc::new(parts))
    }

    pub fn names(&self) -> Vec<String> {
        self.0.iter().map(|p| p.name().to_string()).collect()
    }

    pub fn find(&self, name: &str) -> Option<&Arc<dyn RequestPart>> {
        self.0.iter().find(|p| p.name() == name)
    }
}
