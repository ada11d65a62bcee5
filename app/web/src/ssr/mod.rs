//! The server's half of the app, compiled only with `ssr`: the application's rules adapted to
//! Leptos ([`context`]; the rules themselves are `lockstep-rules`), and the conversion from the
//! course's and the store's types to the page models the browser receives ([`page_models`],
//! [`grading`], [`instructor`]); [`template`] cuts a rendered lesson page where its per-request
//! parts go, and [`request_parts`] are what is fresh on every request.

pub mod context;
pub mod grading;
pub mod instructor;
pub mod page_models;
pub mod request_parts;
pub mod talk;
pub mod template;

pub use context::{context, AppContext};

/// `unix_ms` as a page shows it: in the site's default zone, which the page's clock script
/// redraws in the reader's.
pub fn moment(unix_ms: i64) -> crate::model::Moment {
    let zone = lockstep_clock::Zone::site_default();
    let m = zone.moment(unix_ms);
    crate::model::Moment { utc: m.utc, local: m.local, zone: zone.name().to_string() }
}
