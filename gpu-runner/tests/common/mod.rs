//! What the runner's tests share.
#![allow(dead_code)] // Each test binary uses its own subset.

pub mod verdicts;

use std::path::{Path, PathBuf};

/// An exercise's starting script as the course declares it (the lesson's code block, read by
/// the course loader the web app uses), written under `dir` with the file name learners get.
pub fn starter(exercise: &str, dir: &Path) -> PathBuf {
    let lessons = Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons/ddp");
    let course = lockstep_course::load(&lessons).unwrap();
    let (_, e) = course.exercise(exercise).unwrap_or_else(|| panic!("no exercise {exercise}"));
    let path = dir.join(&e.file_name);
    std::fs::write(&path, &e.starter).unwrap();
    path
}
