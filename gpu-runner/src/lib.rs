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
//!
//! # What is where
//!
//! Runs DDP scripts for real: `grade` runs `torchrun` inside bubblewrap (`sandbox.rs`: cgroup
//! memory and process limits, file-size rlimit, wall clock; on a GPU node the devices, `/sys` and
//! the driver's libraries read-only; `cpu.rs` accounts where the CPU time went) with the harness
//! `harness/lockstep_harness.py` in front of the learner's script, which records to a per-rank file
//! what torch did (process group, DDP, DataLoader passes and indices, collectives and call sites,
//! `torch.save`, final parameters as safetensors, and per pass its time and mean loss, which the
//! verdict carries as `RunReport.measured`). `gather.rs` turns a finished run into evidence,
//! comparing its tensors with tch; `grade.rs` sets up a job (`grade::Job`: its runs, each made
//! again after a teardown abort, and the verdict's frame) and hands it to the exercise's grader in
//! `exercises/`, one file per exercise of the registry, which decides the runs to make
//! (`ddp_conversion.rs`: the N-process run, then 1-process runs alternating with N-process ones for
//! the speedup; `survive_a_crash.rs`: the run under `torchrun --max-restarts=1` left alone and
//! again with one rank killed mid-epoch, `launch::Restarts`) and how their evidence becomes its
//! checks. Each exercise's reference solution and wrong answers are in its folder of the course
//! (`lessons/ddp/exercises/<id>/`, read by `exercise-spec`). `worker.rs` is `gpu-runner worker`: it probes its Python
//! environment once as it starts (`env.rs`; a broken one claims nothing), claims jobs from the
//! server over HTTP (`lockstep-client`), runs each grade as a child `gpu-runner grade --json
//! --events --exercise=ID` handed that probe (a probe imports torch: some 2.5 s of a core; a
//! process that grades itself probes once, `env::probe_once`) and reports its events, heartbeats
//! and verdict. The only crate that links libtorch.

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
