//! The site in headless Chromium, untimed: one test binary for all of them, since each binary
//! links the whole server (some 200 MB unoptimised) and CI's disk and linker pay for every
//! copy. The timed ones (`sim_steps`, `bundle_budget`) stay binaries of their own, which the
//! test command runs with nothing beside them, and so do those that run real workers
//! (`grading`, `grading_browser`, `slurm`), so that no other test shares their binary's test
//! threads.

#[path = "../common/mod.rs"]
mod common;

mod comments_browser;
mod courses_browser;
mod crawl;
mod first_visit;
mod hostile;
mod korean_browser;
mod simulations;
mod xp;
