//! The server's half of the app, compiled only with `ssr`: what server functions run against
//! ([`context`]), who the learner is ([`learner_cookie`]), and the conversion from the course's
//! types to the page models the browser receives ([`page_models`]).

pub mod context;
pub mod learner_cookie;
pub mod page_models;

pub use context::{context, AppContext};
