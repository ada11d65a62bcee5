//! The site in headless Chromium, untimed: one test binary for all of them, since each binary
//! links the whole server (some 200 MB unoptimised) and CI's disk and linker pay for every
//! copy. The timed ones (`sim_steps`, `bundle_budget`) and those that run real workers
//! (`grading`, `grading_browser`, `slurm`) stay binaries of their own: the test command runs
//! the timed ones, and the gradings that time a speedup, with nothing beside them.

#[path = "../common/mod.rs"]
mod common;

mod comments_browser;
mod courses_browser;
mod crawl;
mod deploys;
mod first_visit;
mod hostile;
mod korean_browser;
mod simulations;
mod time_zones;
mod xp;
