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

/// A Python that has imported torch and forks a child for each plain script, and one for each
/// rank of the others (`common/fork_server.py` says why and what the children have).
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

    /// Runs `script` (a file name in `dir`) in `ranks` processes, as [`common::run`] would run
    /// it with plain Python (one) or torchrun (more): (exit code, `None` when a signal ended it
    /// or it was killed at the limit; its output).
    fn run(&mut self, dir: &Path, script: &str, ranks: u32) -> (Option<i32>, String) {
        let limit = common::LIMIT.as_secs();
        writeln!(self.jobs, "{}\t{script}\t{limit}\t{ranks}", dir.display())
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

/// How a fact script runs, from its first line.
#[derive(Debug, PartialEq)]
enum Launch {
    /// `# torchrun: N`: under `torchrun --standalone --nproc_per_node=N`, for facts about
    /// torchrun itself.
    Torchrun(u32),
    /// `# ranks: N`, or nothing (one): N children of the fork server at once, as torchrun's
    /// workers (`common/fork_server.py`).
    Forked(u32),
}

fn launch(source: &str) -> Launch {
    let first = source.lines().next().unwrap_or_default();
    let count = |rest: &str| rest.trim().parse().unwrap_or_else(|e| panic!("{first:?}: {e}"));
    if let Some(n) = first.strip_prefix("# torchrun:") {
        Launch::Torchrun(count(n))
    } else if let Some(n) = first.strip_prefix("# ranks:") {
        Launch::Forked(count(n))
    } else {
        Launch::Forked(1)
    }
}

/// Runs one script in a fresh folder: (exit code, `None` when killed; output). Under torchrun
/// when its first line asks for it, else in children of `forks`' server, started the first time.
fn run(script: &Path, forks: &mut Option<ForkServer>) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let name = script.file_name().unwrap().to_str().unwrap();
    std::fs::copy(script, dir.path().join(name)).unwrap();
    match launch(&std::fs::read_to_string(script).unwrap()) {
        Launch::Torchrun(n) => common::run(common::launcher(Some(n), &[], name), dir.path()),
        Launch::Forked(n) => forks.get_or_insert_with(ForkServer::start).run(dir.path(), name, n),
    }
}

#[test]
fn the_first_line_says_how_a_fact_runs() {
    assert_eq!(launch("# torchrun: 2\nimport os\n"), Launch::Torchrun(2));
    assert_eq!(launch("# ranks: 2\n# Fact: ...\n"), Launch::Forked(2));
    assert_eq!(launch("# Fact: ...\nimport torch\n"), Launch::Forked(1));
    assert_eq!(launch(""), Launch::Forked(1));
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
                let mut forks = None;
                while let Some(script) = scripts.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if let Some(failure) = check(script, &mut forks) {
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
fn check(script: &Path, forks: &mut Option<ForkServer>) -> Option<String> {
    let passed = |(code, out): &(Option<i32>, String)| *code == Some(0) && out.contains("ok:");
    let result = common::attempts(&script.display().to_string(), || run(script, forks), passed);
    (!passed(&result)).then(|| {
        let (code, out) = result;
        format!(
            "{}: exit {code:?} (None: killed after {} s)\n{out}",
            script.display(),
            common::LIMIT.as_secs()
        )
    })
}
