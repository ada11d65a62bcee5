//! The facts the lessons and their quizzes state, checked with the pinned torch: every script
//! in `lessons/facts/` asserts one and prints `ok: …` (see the README there).
//!
//! Needs the set-up's Python environment (`LOCKSTEP_VENV`, else `~/.cache/lockstep/venv`), as
//! `cargo xtask test` provides.

mod common;

use std::path::{Path, PathBuf};

/// Runs one script in a fresh folder: (exit code, `None` when killed at the limit; output).
fn run(script: &Path) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let name = script.file_name().unwrap();
    std::fs::copy(script, dir.path().join(name)).unwrap();
    let source = std::fs::read_to_string(script).unwrap();
    let nproc = source.starts_with("# torchrun: 2").then_some(2);
    common::run(common::launcher(nproc, &[], name.to_str().unwrap()), dir.path())
}

#[test]
fn every_fact_holds_in_the_pinned_torch() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons/facts");
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 60, "the facts are there: {}", scripts.len());
    let mut failures = Vec::new();
    for script in &scripts {
        let passed = |(code, out): &(Option<i32>, String)| *code == Some(0) && out.contains("ok:");
        let result = common::attempts(&script.display().to_string(), || run(script), passed);
        if !passed(&result) {
            let (code, out) = result;
            failures.push(format!(
                "{}: exit {code:?} (None: killed after {} s)\n{out}",
                script.display(),
                common::LIMIT.as_secs()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
