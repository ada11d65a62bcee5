//! The server's half of the app, compiled only with `ssr`: what server functions run against
//! ([`context`]), who is asking ([`viewer`]: an account's session or the anonymous
//! [`learner_cookie`]), and the conversion from the course's
//! types to the page models the browser receives ([`page_models`]).

pub mod context;
pub mod grading;
pub mod instructor;
pub mod learner_cookie;
pub mod page_models;
pub mod template;
pub mod viewer;

pub use context::{context, AppContext};
