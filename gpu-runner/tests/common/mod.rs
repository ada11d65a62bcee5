//! What the runner's tests share.
#![allow(dead_code)] // Each test binary uses its own subset.

pub mod verdicts;

use std::path::{Path, PathBuf};

/// Script `name` of exercise `id` as its folder in the course holds it: `solution.py`, or a
/// wrong answer `broken/<name>.py` (its patch applied to the solution), written under this
/// binary's temporary folder with its own file name, which the verdict quotes.
pub fn exercise_script(id: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons/ddp/exercises").join(id);
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("exercises").join(id);
    let name = name.strip_prefix("broken/").unwrap_or(name);
    exercise_spec::write_script(&dir, name, &out).unwrap_or_else(|e| panic!("{id} {name}: {e}"))
}

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
