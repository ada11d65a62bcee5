//! The facts the lessons and their quizzes state, checked with the pinned torch: every script
//! in `lessons/ddp/facts/` asserts one and prints `ok: …` (see the README there).
//!
//! Needs the set-up's Python environment (`LOCKSTEP_VENV`, else `~/.cache/lockstep/venv`), as
//! `cargo xtask test` provides.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A Python that has imported torch and forks a child for each plain script
/// (`common/fork_server.py` says why and what the child has).
struct ForkServer {
    child: Child,
    jobs: ChildStdin,
    answers: BufReader<ChildStdout>,
}

impl ForkServer {
    fn start() -> ForkServer {
        let mut cmd = Command::new(common::venv().join("bin/python"));
        common::on_cpu(cmd.arg(common::helper("fork_server.py")));
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
        let jobs = child.stdin.take().unwrap();
        let answers = BufReader::new(child.stdout.take().unwrap());
        ForkServer { child, jobs, answers }
    }

    /// Runs `script` (a file name in `dir`) as [`common::run`] would: (exit code, `None` when
    /// a signal ended it or it was killed at the limit; its output).
    fn run(&mut self, dir: &Path, script: &str) -> (Option<i32>, String) {
        let limit = common::LIMIT.as_secs();
        writeln!(self.jobs, "{}\t{script}\t{limit}", dir.display())
            .and_then(|()| self.jobs.flush())
            .unwrap();
        let mut answer = String::new();
        self.answers.read_line(&mut answer).unwrap();
        let code = match answer.trim() {
            "killed" => None,
            code => Some(
                code.parse().unwrap_or_else(|e| panic!("the fork server answered {answer:?}: {e}")),
            ),
        };
        (code, std::fs::read_to_string(dir.join("output.log")).unwrap_or_default())
    }
}

impl Drop for ForkServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs one script in a fresh folder: (exit code, `None` when killed; output). Under torchrun
/// when its first line asks for it, else in a child of `plain`'s server, started the first time.
fn run(script: &Path, plain: &mut Option<ForkServer>) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let name = script.file_name().unwrap().to_str().unwrap();
    std::fs::copy(script, dir.path().join(name)).unwrap();
    let source = std::fs::read_to_string(script).unwrap();
    if source.starts_with("# torchrun: 2") {
        return common::run(common::launcher(Some(2), &[], name), dir.path());
    }
    plain.get_or_insert_with(ForkServer::start).run(dir.path(), name)
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
                let mut plain = None;
                while let Some(script) = scripts.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if let Some(failure) = check(script, &mut plain) {
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
fn check(script: &Path, plain: &mut Option<ForkServer>) -> Option<String> {
    let passed = |(code, out): &(Option<i32>, String)| *code == Some(0) && out.contains("ok:");
    let result = common::attempts(&script.display().to_string(), || run(script, plain), passed);
    (!passed(&result)).then(|| {
        let (code, out) = result;
        format!(
            "{}: exit {code:?} (None: killed after {} s)\n{out}",
            script.display(),
            common::LIMIT.as_secs()
        )
    })
}
