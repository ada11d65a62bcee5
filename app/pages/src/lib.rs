//! The server's half of the pages. `lockstep-web` declares its server functions and what they
//! ask of the server ([`lockstep_web::ssr::Backend`]) and cannot reach the database; this crate
//! answers them ([`AppContext`], in `api.rs`) from the application's rules (`lockstep-rules`),
//! the course, the search index and the store, and renders the parts of a page that are fresh
//! on every request ([`request_parts`], [`talk`]).
//!
//! # What is where
//!
//! `context.rs`: [`AppContext`], the `Rules` with the request's session and headers from the
//! Leptos context and errors as `ServerFnError`. `api.rs`: each server function's body.
//! `page_models.rs`, `grading.rs`: the course's and the store's types as page models.
//! `instructor.rs`: the instructor's tables (reports included). `talk.rs`: the comments, the
//! one request part there is, rendered per reader with the report form, reply, edit, delete,
//! follow and moderation forms; also the notifications worded for `/notifications`.

mod api;
pub mod context;
pub mod grading;
pub mod instructor;
pub mod page_models;
pub mod request_parts;
pub mod talk;

pub use context::AppContext;

/// `unix_ms` as a page shows it: in the site's default zone, which the page's clock script
/// redraws in the reader's.
pub fn moment(unix_ms: i64) -> lockstep_web::model::Moment {
    let zone = lockstep_clock::Zone::site_default();
    let m = zone.moment(unix_ms);
    lockstep_web::model::Moment { utc: m.utc, local: m.local, zone: zone.name().to_string() }
}
