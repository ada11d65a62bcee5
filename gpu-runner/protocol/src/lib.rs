//! The grading protocol: the verdict on one script, as `gpu-runner grade --json` prints it and
//! as the web app, its store and remote workers will exchange it. The schema is documented in
//! `gpu-runner/RESULT.md`; [`SCHEMA`] changes when a field's meaning does.
//!
//! This crate is plain data with serde and nothing else, so that everything that only *reads*
//! verdicts can depend on it without linking libtorch (the runner's `tch`): the web app never
//! links libtorch, and `cargo tree -p lockstep-server | grep tch` proves it.
//!
//! # What is where
//!
//! The verdict as data (`Verdict`, `Check`, `CheckId`, `Section`, `RunReport`, `RunRole`,
//! `Settings`, `Limits`), and a submission's live events and the worker's HTTP messages (`live.rs`;
//! a claim lists the exercises the worker grades and their versions), serde only. A check names the
//! section that teaches it by ids (`Section { lesson, heading }`), never by URL: pages build the
//! link, in the reader's language; verdicts stored before carry an English URL under `lesson`, read
//! as the ids it names. Everything that reads verdicts (the web app, its store, remote workers)
//! depends on this and not on `gpu-runner`. Its JSON is `gpu-runner/RESULT.md`. With its `words`
//! feature (on everywhere but the browser bundle), `said.rs`: what the grader said as data (`Said`:
//! a sentence's id and its numbers), each sentence written in English and Korean in one macro, so a
//! sentence without its Korean does not compile. A check, an error and a summary keep their English
//! text and their sentence; `message_in(lang)` words them for a reader, and `in_language(lang)`
//! words a whole verdict or event for a page and drops the sentences, which is what the server
//! sends the browser (the bundle carries no sentence).

mod check;
pub mod live;
mod run;
#[cfg(feature = "words")]
mod said;
mod verdict;

#[cfg(feature = "words")]
pub use check::CheckWords;
pub use check::{Check, CheckId, CheckStatus, Section, UnknownCheckId};
pub use run::{
    CpuTime, Enforced, EpochMeasure, Limits, Measured, ModelShape, RankEpochs, RankRun, RunReport,
    RunRole, Settings,
};
#[cfg(feature = "words")]
pub use said::{Killed, Resumption, Said};
pub use verdict::{ErrorInfo, Status, Verdict, Versions, SCHEMA};
