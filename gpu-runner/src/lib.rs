//! Runs learners' DDP scripts under `torchrun`, sandboxed, and grades what they really did.
//!
//! The pieces, in the order a job meets them: [`env`] finds the Python environment the set-up
//! created; [`sandbox`] confines a command (bubblewrap, cgroups, rlimits, a wall clock) while
//! [`cpu`] accounts for where the CPU time went; [`launch`] starts `torchrun` in it with the
//! instrumentation harness (`harness/`) and collects each rank's exit, output and records;
//! [`gather`] turns a finished run into evidence, comparing the tensors it saved with tch
//! ([`tensors`]); the checks of `grading-checks` judge that evidence; [`grade`] runs the whole
//! thing and assembles the verdict of `grading-protocol`. This crate is the only one that
//! links libtorch (through `tch`); the web app never does, and reads verdicts through
//! `grading-protocol` alone.

pub mod cpu;
pub mod env;
pub mod exercises;
pub mod gather;
pub mod grade;
pub mod launch;
pub mod sandbox;
pub mod tensors;
pub mod worker;

pub use grading_checks;
pub use grading_protocol as protocol;

use std::path::PathBuf;

pub use env::{default_venv, probe, probe_once, Environment};

/// What can stop the runner from grading at all. A script's own failures are not errors: they
/// are graded.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    #[error("no Python environment at {0}: run `cargo xtask run` (or `cargo xtask test`) once to create it, or set LOCKSTEP_VENV")]
    NoEnvironment(PathBuf),
    #[error("cannot run {path}: {source}")]
    Spawn { path: PathBuf, source: std::io::Error },
    #[error("the Python environment is broken: {0}")]
    Probe(String),
    #[error("sandbox: {0}")]
    Sandbox(String),
    #[error("{what}: {source}")]
    Io { what: String, source: std::io::Error },
    #[error("this runner has no grader for exercise `{0}`")]
    NoGrader(&'static str),
    #[error("cannot read the tensors the harness saved ({path}): {message}")]
    Tensors { path: PathBuf, message: String },
}

impl RunnerError {
    pub(crate) fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> RunnerError {
        let what = what.into();
        move |source| RunnerError::Io { what, source }
    }
}
