//! The application's rules, below the pages and the HTTP edge: who is asking
//! ([`requester`]) and what they may read, how progress is recorded and what it earned
//! ([`progress`]), and how a quiz's answers are marked and recorded with their XP ([`quiz`]).
//!
//! The pages' server half (`lockstep-pages`: server functions, page models) and the axum server
//! (forms, the API, the CSV exports) both come here, so each rule is written once. Nothing here
//! knows HTML, Leptos or HTTP status codes; the callers turn [`RulesError`] into their own answers.
//!
//! # What is where
//!
//! The application's rules, below the pages and the HTTP edge, used by both the pages' server half
//! (`lockstep-pages`) and the server: who is asking (`requester.rs`: one `Requester`, an anonymous
//! browser with the learner its cookie names, a signed-in learner or instructor by the session's
//! account and epoch, a learner's terminal token, or a grading worker's token; and the access rule
//! every way of reading a submission goes through, `owns`/`may_read`), the anonymous learner cookie
//! (`learner_cookie.rs`: only an id the store says the server issued and has not merged names a
//! learner), who may see a comment and how long its author may edit it (`comments.rs`), bearer
//! tokens (`tokens.rs`), the session's one-time messages (`flash.rs`), recording progress and what
//! it changed (`progress.rs`: `Rules::record`, the course's facts for the XP rules), and quiz
//! answers (`quiz.rs`: read back through the order the page showed, marked, kept and recorded with
//! the XP `lockstep_xp::quiz_answered` names, in one transaction). It knows no HTML, Leptos or HTTP
//! status; `Rules` is the live course, the store and the cookie settings.

use std::sync::Arc;

use lockstep_course::live::LiveCourse;
use lockstep_store::{Store, StoreError};

pub mod comments;
pub mod flash;
pub mod learner_cookie;
pub mod progress;
pub mod quiz;
pub mod requester;
pub mod tokens;

pub use learner_cookie::LearnerCookie;
pub use progress::Recorded;
pub use requester::{Reads, Requester};

/// The live course and the database, with how this site names its anonymous learners: what
/// every rule runs against. Cheap to clone (shared handles).
#[derive(Clone)]
pub struct Rules {
    pub course: Arc<LiveCourse>,
    pub store: Store,
    pub learner_cookie: LearnerCookie,
}

#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    #[error("session store: {0}")]
    Session(#[from] tower_sessions::session::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("no randomness for a new id: {0}")]
    Randomness(String),
}
