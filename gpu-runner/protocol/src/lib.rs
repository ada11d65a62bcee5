//! The grading protocol: the verdict on one script, as `gpu-runner grade --json` prints it and
//! as the web app, its store and remote workers will exchange it. The schema is documented in
//! `gpu-runner/RESULT.md`; [`SCHEMA`] changes when a field's meaning does.
//!
//! This crate is plain data with serde and nothing else, so that everything that only *reads*
//! verdicts can depend on it without linking libtorch (the runner's `tch`): the web app never
//! links libtorch, and `cargo tree -p lockstep-server | grep tch` proves it.

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
