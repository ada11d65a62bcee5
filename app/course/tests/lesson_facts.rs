//! The facts the lessons and their quizzes state, checked with the pinned torch: every script
//! in `lessons/ddp/facts/` asserts one and prints `ok: …` (see the README there).
//!
//! Needs the set-up's Python environment (`LOCKSTEP_VENV`, else `~/.cache/lockstep/venv`), as
//! `cargo xtask test` provides.

mod common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons/ddp/facts");
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 60, "the facts are there: {}", scripts.len());
    // The scripts are independent processes (each picks free ports), and most of their time is
    // one core importing torch: one runner per core.
    let runners = std::thread::available_parallelism().map_or(1, |n| n.get()).min(scripts.len());
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..runners {
            s.spawn(|| {
                while let Some(script) = scripts.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if let Some(failure) = check(script) {
                        failures.lock().unwrap().push(failure);
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Why `script`'s fact does not hold, after every attempt; `None` when it holds.
fn check(script: &Path) -> Option<String> {
    let passed = |(code, out): &(Option<i32>, String)| *code == Some(0) && out.contains("ok:");
    let result = common::attempts(&script.display().to_string(), || run(script), passed);
    (!passed(&result)).then(|| {
        let (code, out) = result;
        format!(
            "{}: exit {code:?} (None: killed after {} s)\n{out}",
            script.display(),
            common::LIMIT.as_secs()
        )
    })
}
