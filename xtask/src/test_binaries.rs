//! The workspace's tests, built by one `cargo test --no-run` and then run two binaries at a
//! time. `cargo test` runs its binaries one after another, and most of them leave the cores idle
//! much of the time (waiting for a lease to expire, a Slurm job, a page to draw): the test
//! command used the machine's two cores less than half of its run.
//!
//! The binaries that time something run alone, at the end; the others start longest first, so
//! that the short ones fill the time beside the long ones. Each binary's output is kept in
//! `target/test-logs/` and printed whole when it ends, so two binaries' lines never interleave.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::interrupt;

/// Binaries that measure time: a simulation's step, a page's time to interactive, and the
/// gradings that judge a solution's speedup against the runner's own threshold (2 processes
/// against 1, on the two cores). Anything beside them would move their figures: with a browser
/// test beside it, the reference solution failed `speedup` (0.96× against the 1.05× it needs).
///
/// The gradings through the web (`grading`, `grading_browser`) time the speedup too, but
/// against 0.25×, a threshold no busy machine comes near, and they re-measure a short one as
/// every grade does: they share the machine. Alone, they left a core idle a third of the time.
const ALONE: &[&str] = &["grade", "sim_steps", "bundle_budget"];

/// The binaries that take longest, longest first (from about 6 minutes down to half a minute,
/// each run alone on two cores); the rest take seconds.
const LONGEST: &[&str] = &[
    "grade",
    "browser",
    "grading",
    "http",
    "lesson_facts",
    "grading_browser",
    "crash",
    "grading_untimed",
    "grade_untimed",
    "lesson_snippets",
    "slurm",
    "sandbox",
    "torch_fixtures",
];

/// Whether a test binary may share the machine.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Share {
    Alone,
    Shared,
}

/// One test binary (or the doc-tests), ready to run.
pub struct Job {
    /// What the output calls it: the package, and the target unless it is the library.
    label: String,
    share: Share,
    /// Its place in [`LONGEST`], that list's length when it is not there.
    longest: usize,
    command: Command,
}

/// Builds every test binary of `build` (a `cargo test … --no-run` command, to which this adds
/// the message format) and returns them as jobs, each run in its package's folder as `cargo
/// test` would, and the doc-tests (`doc`) as one more job.
pub fn build(build: &mut Command, doc: Command) -> Result<Vec<Job>> {
    use std::io::{BufRead, BufReader};

    build.args(["--no-run", "--message-format=json-render-diagnostics"]).stdout(Stdio::piped());
    eprintln!("xtask: {}", format!("{build:?}").replace('"', ""));
    let mut child = interrupt::spawn_group(build).context("cannot start cargo test --no-run")?;
    let mut jobs = Vec::new();
    let stdout = child.stdout().expect("stdout was piped");
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        if let Some(job) = test_binary(&line) {
            jobs.push(job);
        }
    }
    let status = child.wait().context("waiting for cargo test --no-run")?;
    if !status.success() {
        bail!("building the tests failed: {status}");
    }
    if jobs.is_empty() {
        bail!("cargo test --no-run built no test binary");
    }
    let (share, longest) = (Share::Shared, LONGEST.len());
    jobs.push(Job { label: "doc-tests".into(), share, longest, command: doc });
    jobs.sort_by_key(|job| (job.share == Share::Alone, job.longest));
    Ok(jobs)
}

/// The job for one of cargo's JSON messages, if it announces a test binary.
fn test_binary(line: &str) -> Option<Job> {
    let message: serde_json::Value = serde_json::from_str(line).ok()?;
    if message["reason"] != "compiler-artifact" || message["profile"]["test"] != true {
        return None;
    }
    let executable = message["executable"].as_str()?;
    let target = &message["target"];
    let name = target["name"].as_str()?;
    let kind = target["kind"][0].as_str()?;
    // Built for their lints (the test build is also the clippy run), not to be run: a bench
    // measures rather than checks.
    if matches!(kind, "bench" | "example") {
        return None;
    }
    let manifest = Path::new(message["manifest_path"].as_str()?);
    let dir = manifest.parent()?;
    let package = package_name(message["package_id"].as_str()?).unwrap_or(name);
    let label = match kind {
        "lib" => package.to_string(),
        "test" => format!("{package} --test {name}"),
        other => format!("{package} --{other} {name}"),
    };
    let mut command = Command::new(executable);
    // What `cargo test` sets for a test binary it runs.
    command.current_dir(dir).env("CARGO_MANIFEST_DIR", dir).env("CARGO_PKG_NAME", package);
    let alone = kind == "test" && ALONE.contains(&name);
    let share = if alone { Share::Alone } else { Share::Shared };
    let longest = LONGEST.iter().position(|l| *l == name).unwrap_or(LONGEST.len());
    Some(Job { label, share, longest, command })
}

/// The package's name in a package id: `path+file:///work/app/server#lockstep-server@0.1.0`
/// (or `…/sim-engine#0.1.0`, where the folder's name is the package's).
fn package_name(id: &str) -> Option<&str> {
    let (path, rest) = id.rsplit_once('#')?;
    match rest.split_once('@') {
        Some((name, _)) => Some(name),
        None => path.rsplit('/').next(),
    }
}

/// What the run of every job came to.
pub struct Outcome {
    pub summary: String,
    /// The labels of the jobs that failed, or "no test passed".
    pub failed: Vec<String>,
}

/// How one job went.
struct Ran {
    label: String,
    log: PathBuf,
    result: std::io::Result<std::process::ExitStatus>,
    wall: Duration,
}

/// Runs the jobs, at most `lanes` at once and as their [`Share`] allows, with `configure`
/// applied to each command (the services' settings); prints each job's output as it ends, and
/// then the jobs' times.
pub fn run(jobs: Vec<Job>, lanes: usize, logs: &Path, configure: impl Fn(&mut Command)) -> Outcome {
    let _ = std::fs::remove_dir_all(logs);
    let mut queue: VecDeque<Job> = jobs.into();
    let mut running: Vec<Share> = Vec::new();
    let (done, finished) = mpsc::channel::<(Share, Ran)>();
    let mut totals = Totals::default();
    let mut failed = Vec::new();
    let mut times = Vec::new();
    while !queue.is_empty() || !running.is_empty() {
        while running.len() < lanes {
            let Some(i) = queue.iter().position(|job| may_start(job.share, &running)) else {
                break;
            };
            let mut job = queue.remove(i).expect("a position in the queue");
            configure(&mut job.command);
            running.push(job.share);
            let log = logs.join(format!("{}.log", job.label.replace([' ', '/'], "_")));
            let done = done.clone();
            eprintln!("xtask: started {}", job.label);
            std::thread::spawn(move || {
                let started = Instant::now();
                let result = run_one(&mut job.command, &log);
                let ran = Ran { label: job.label, log, result, wall: started.elapsed() };
                let _ = done.send((job.share, ran));
            });
        }
        let (share, ran) = finished.recv().expect("a job's thread sends before it ends");
        let at = running.iter().position(|s| *s == share).expect("the job was running");
        running.remove(at);
        let output = std::fs::read_to_string(&ran.log).unwrap_or_default();
        println!("\n──── {} ────\n{output}", ran.label);
        totals.count(&output);
        times.push((ran.label.clone(), ran.wall));
        match &ran.result {
            Ok(status) if status.success() => {}
            Ok(status) => {
                println!("xtask: {} failed: {status}", ran.label);
                failed.push(ran.label);
            }
            Err(e) => {
                println!("xtask: cannot run {}: {e}", ran.label);
                failed.push(ran.label);
            }
        }
    }
    times.sort_by_key(|t| std::cmp::Reverse(t.1));
    println!("\nxtask: time by test binary (a second or more)");
    for (label, wall) in times.iter().take_while(|(_, wall)| wall.as_secs() >= 1) {
        println!("  {label:<48} {:>7.1} s", wall.as_secs_f64());
    }
    if totals.passed == 0 {
        failed.push("no test passed".into());
    }
    Outcome { summary: totals.summary(), failed }
}

/// Whether a job that shares the machine as `share` may start beside the `running` ones.
fn may_start(share: Share, running: &[Share]) -> bool {
    match share {
        Share::Alone => running.is_empty(),
        Share::Shared => !running.contains(&Share::Alone),
    }
}

fn run_one(command: &mut Command, log: &Path) -> std::io::Result<std::process::ExitStatus> {
    std::fs::create_dir_all(log.parent().expect("a log's folder"))?;
    let file = std::fs::File::create(log)?;
    command.stdin(Stdio::null()).stdout(file.try_clone()?).stderr(file);
    interrupt::spawn_group(command)?.wait()
}

/// The tests counted from the harness's `test result:` lines.
#[derive(Default)]
struct Totals {
    passed: u64,
    failed: u64,
    ignored: u64,
}

impl Totals {
    fn count(&mut self, output: &str) {
        for line in output.lines() {
            let Some(rest) = line.strip_prefix("test result: ") else { continue };
            for part in rest.split(';') {
                let mut words = part.split_whitespace().rev();
                let (Some(what), Some(n)) = (words.next(), words.next()) else { continue };
                let n: u64 = n.parse().unwrap_or(0);
                match what {
                    "passed" => self.passed += n,
                    "failed" => self.failed += n,
                    "ignored" => self.ignored += n,
                    _ => {}
                }
            }
        }
    }

    fn summary(&self) -> String {
        format!("summary: {} passed, {} failed, {} skipped", self.passed, self.failed, self.ignored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names_from_both_forms_of_package_id() {
        assert_eq!(
            package_name("path+file:///work/app/server#lockstep-server@0.1.0"),
            Some("lockstep-server")
        );
        assert_eq!(package_name("path+file:///work/sim-engine#0.1.0"), Some("sim-engine"));
    }

    #[test]
    fn a_test_binary_is_read_from_cargo_and_other_artifacts_are_not() {
        let test = r#"{"reason":"compiler-artifact","package_id":"path+file:///w/app/server#lockstep-server@0.1.0","manifest_path":"/w/app/server/Cargo.toml","target":{"kind":["test"],"name":"grade"},"profile":{"test":true},"executable":"/w/target/debug/deps/grade-1"}"#;
        let job = test_binary(test).expect("a test binary");
        assert_eq!(job.label, "lockstep-server --test grade");
        assert_eq!(job.share, Share::Alone);
        let untimed = test.replace(r#""grade""#, r#""crash""#);
        assert_eq!(test_binary(&untimed).expect("a test binary").share, Share::Shared);
        assert_eq!(job.command.get_program(), "/w/target/debug/deps/grade-1");
        assert_eq!(job.command.get_current_dir(), Some(Path::new("/w/app/server")));
        let bin = test.replace(r#""test":true"#, r#""test":false"#);
        assert!(test_binary(&bin).is_none(), "a binary built for the tests to run is not one");
        for kind in ["bench", "example"] {
            let built = test.replace(r#"["test"]"#, &format!(r#"["{kind}"]"#));
            assert!(test_binary(&built).is_none(), "a {kind} is built for its lints only");
        }
        assert!(test_binary(r#"{"reason":"build-finished","success":true}"#).is_none());
    }

    #[test]
    fn timed_binaries_run_alone() {
        use Share::*;
        assert!(may_start(Alone, &[]));
        assert!(!may_start(Alone, &[Shared]));
        assert!(may_start(Shared, &[Shared]));
        assert!(!may_start(Shared, &[Alone]));
    }

    #[test]
    fn totals_add_every_result_line() {
        let mut totals = Totals::default();
        totals.count("test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.1s\n");
        totals.count("running 2 tests\ntest result: FAILED. 1 passed; 1 failed; 0 ignored\n");
        assert_eq!(totals.summary(), "summary: 4 passed, 1 failed, 1 skipped");
    }
}
