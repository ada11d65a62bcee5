//! The app in-process, through its router or on a socket, without a browser: one test binary
//! for all of them, since each binary links the whole server (some 200 MB unoptimised) and CI's
//! disk and linker pay for every copy.
//!
//! `assets` stays a binary of its own: Leptos reads the bundle's split manifest once per
//! process (`HydrationScripts`), and these apps have no bundle, so whichever test renders first
//! would decide for it.

#[path = "../common/mod.rs"]
mod common;

mod accounts;
mod capture;
mod comments;
mod courses;
mod kept_reads;
mod korean;
mod limits;
mod redirects;
mod router;
mod search;
mod submissions;
