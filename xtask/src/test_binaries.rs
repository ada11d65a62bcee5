//! The workspace's tests, built by one `cargo test --no-run` and then run two binaries at a
//! time. `cargo test` runs its binaries one after another, and most of them leave the cores idle
//! much of the time (waiting for a lease to expire, a Slurm job, a page to draw): the test
//! command used the machine's two cores less than half of its run.
//!
//! The binaries that time something run alone, at the end; the others start longest first, so
//! that the short ones fill the time beside the long ones. Each binary's output is kept in
//! `target/test-logs/` and printed whole when it ends, so two binaries' lines never interleave.
//!
//! # How the tests are laid out
//!
//! - Unit tests sit beside the code. The lesson format's error messages are checked line for line.
//!   `lockstep-web`'s unit tests render views as the server does, so alone they run with `cargo
//!   test -p lockstep-web --features ssr`.
//! - The server's integration tests are few binaries, because each links the whole server:
//!   `app/server/tests/http/` (the app without a browser) and `app/server/tests/browser/`
//!   (Chromium, untimed) are one binary each, with a module per former file; the timed tests
//!   (`sim_steps`, `bundle_budget`) and those that run real workers (`grading`, `grading_browser`,
//!   `grading_untimed`, `slurm`) are binaries of their own, and so is `assets`, because Leptos
//!   reads the bundle's split manifest once per process. `cargo xtask test` runs the timed ones and
//!   the runner's `grade` (whose gradings judge the speedup against its real threshold) with
//!   nothing beside them; the web path's gradings time the speedup once, against 0.25×, and share
//!   the machine, as do the gradings that time nothing (`grading_untimed`, `grade_untimed`). 23
//!   binaries of 207 MB had filled CI's disk. Run one module with a filter: `cargo test -p
//!   lockstep-server --test browser -- simulations::`.
//! - A refactor that must not change what learners see is checked with `xtask/pages/capture.py`:
//!   `seed` makes a database where learners did things (quizzes, completions, an account, an
//!   instructor, three graded submissions), `capture` fetches every page as four readers
//!   (anonymous, a visitor with progress, a learner, an instructor) from a copy of it, twice each,
//!   and `diff -r` between captures made with the builds before and after shows every byte that
//!   changed (the nonce and the build folder's server-function hash are masked).
//! - Before any test, `cargo xtask test` checks formatting, runs clippy with warnings as errors
//!   (natively, within the build of the tests, and for wasm32), checks that the web app's
//!   dependency graph has no `tch`, and that raw HTML is written only where
//!   `xtask/src/html_sinks.rs` lists it. A clippy warning fails the build of the tests, before any
//!   test runs.
//! - `app/course/tests/course_content.rs`: the real course loads with zero problems, every lesson
//!   has a quiz of four questions or more, Key points and External links, and both exercises are
//!   declared; `lessons_cli.rs` runs `lessons check` on it and on a broken lesson;
//!   `lesson_snippets.rs` cuts each runnable script out of its lesson as a learner copies it and
//!   runs it under `torchrun` (2 gloo processes) with the pinned torch: what it prints must show
//!   what the lesson says (lesson 9's resume demo, crashed and restarted, must end with the same
//!   parameter checksum as a run left alone); `lesson_facts.rs` runs every script in
//!   `lessons/ddp/facts/`, each asserting one fact a lesson or quiz states (68, on CPU with gloo),
//!   the plain-Python ones each in a child forked from a Python that imported torch once
//!   (`fork_server.py`: an import of torch is some 2.4 s of a core), and the two-rank ones in two
//!   such children with torchrun's workers' environment (a torchrun is three imports of torch and
//!   an agent); the one fact about torchrun itself runs under torchrun. Both run their scripts
//!   through `tests/common`, which kills a script's process group after 180 s. Each script is
//!   started through `run_and_exit.py`, which leaves without the interpreter's teardown, as the
//!   runner's harness does: there torch 2.13 with gloo aborts a process that has done its work,
//!   when gloo's thread frees an all-reduce made during backward (the file says why). A failing
//!   script is run up to three times, each failed attempt logged to stderr: a fact is deterministic
//!   and fails every time.
//! - `app/xp`: the XP rules, levels and every achievement's rule on small made-up courses.
//! - `xtask/tests/interrupt.rs`: SIGINT and SIGTERM sent to `cargo xtask with-services` leave no
//!   PostgreSQL server, Slurm daemon, command or temporary folder behind.
//! - `app/store/tests/both_backends.rs`: the same tests on SQLite and on a real PostgreSQL server,
//!   which `cargo xtask test` starts (`initdb` + `pg_ctl` in a temp folder) and removes.
//! - `app/server/tests/http/router.rs`: the full app in-process. It covers pages, status codes, a
//!   broken lesson, live reload, lesson pages filled from their template equal to a full render, a
//!   form post without JavaScript, and 200 concurrent requests. These tests run one at a time (see
//!   the comment there): with several routers rendering at once in one process, Leptos occasionally
//!   left a request waiting. A real server has one router.
//! - `app/server/tests/http/accounts.rs`: accounts without JavaScript, through the router with a
//!   cookie-keeping client, on SQLite and on PostgreSQL: sign-up errors, sign-up merging this
//!   browser's progress, a second device merging without counting twice, no account enumeration, a
//!   forged `acct-` cookie, a learner id the server never issued and a merged one replayed (each
//!   starts a fresh learner and reads nothing), a cross-site password change refused, the
//!   per-account sign-in lock, a password change signing out other sessions and revoking the
//!   terminal token, sign-out; then `lockstep admin` (the real binary) granting the instructor
//!   role, the instructor view and its CSVs, a password reset.
//! - `app/server/tests/http/limits.rs`: every limit under a burst of parallel requests spread over
//!   two real app processes on one database, SQLite and PostgreSQL: 25 wrong passwords for one
//!   account (5 checked, 20 locked), 60 sign-ins from one address (50 and 10), 25 wrong current
//!   passwords on the change-password form (5, then locked, sign-in too), 25 sign-ups from one
//!   address (exactly the hourly limit), 30 submissions of one learner (exactly 20 queued).
//! - `app/server/tests/browser/hostile.rs`: markup in every field a learner or a worker controls
//!   (the email, scripts refused for a NUL byte or their file name, a submitted script, and from a
//!   hostile worker token its node name, a live check with a `javascript:` link, every free-text
//!   field of a failed and of an error verdict), on every page that shows them, SQLite and
//!   PostgreSQL with the real server binary: the HTML carries them escaped (and does carry them),
//!   and in Chromium nothing runs, no script link exists, and the refused script is back in the
//!   editor as the same text.
//! - `app/store/tests/queue.rs`: the queue on SQLite and PostgreSQL: one verdict per job, the lease
//!   holder only, expired leases taken back once, backoff, giving up, re-run, cancel, and eight
//!   workers claiming forty jobs at once, each exactly once; on SQLite, a lease holder's write
//!   right after a stale worker's dropped transaction, 300 times, never "database is locked".
//! - `app/server/tests/grading.rs`: the server on a socket, real `gpu-runner worker` processes and
//!   real torch: bad scripts refused with their reason, a worker SIGKILLed mid-grade whose job a
//!   second worker completes (one verdict, every check live over SSE, `Last-Event-ID` replay), the
//!   reference solution passing and earning the exercise once, a syntax error's `error` verdict,
//!   nobody else reading it, and the workers' API refusing callers without a worker token. The
//!   timed worker grades against a low speedup threshold, timing each run once (`--repeats=1`):
//!   these tests are about the queue, and a shared CI machine can halve a 2-process run's speed.
//! - `app/server/tests/http/submissions.rs`: the exercise and submission pages without JavaScript
//!   on SQLite and PostgreSQL: a refused script comes back with its reason and the script kept; the
//!   page of a queued submission reloads itself; nobody else reads it; cancel; an instructor's list
//!   and re-run; the hourly limit; a terminal token shown once; the multipart form's file replacing
//!   the typed script, and a file that is not UTF-8 refused with nothing queued.
//! - `app/server/tests/grading.rs` also runs `lockstep submit --wait --json` against the server.
//!   `app/server/tests/grading_untimed.rs` kills the real server binary with SIGKILL, once with
//!   three jobs queued and once while a worker grades: every job ends with exactly one verdict (on
//!   SQLite and on PostgreSQL); it also grades the crash exercise's solution through the queue
//!   (both runs, its five checks live, its XP) and one broken variant of each kind of verdict
//!   through the web, each failing the check it fails under `gpu-runner grade`.
//! - `app/server/tests/grading_browser.rs`: Chromium and a real worker: lesson 6 links the
//!   exercise; sign up; upload the reference solution into the editor, submit, see checks arrive
//!   before the verdict, PASS and 100 XP, the run beside the cost model (gap in words, three
//!   charts); a broken variant's failing check with its hint, lesson link and the sampler
//!   simulation in the learner's case; the XP still counted once. Once on SQLite, and once on
//!   PostgreSQL with two real app processes: the browser submits on one and watches live on the
//!   other, while the worker reports to the first, so the live events reach the page only through
//!   the database.
//! - `app/server/tests/slurm.rs`: a real single-node Slurm (`cargo xtask test` starts munge,
//!   `slurmctld` and `slurmd` with their own configuration, ports and folders:
//!   `xtask/src/slurm.rs`) and `lockstep-pilots`: a submission through the web API graded by a
//!   pilot on the Slurm node, its `started` naming the node; a pilot `scancel`led mid-grade gives
//!   the job back and a new pilot completes it; a pilot whose worker is stopped (SIGSTOP) loses its
//!   lease, its Slurm job is cancelled and the next pilot grades the submission; with the node
//!   taken and another job waiting, the queued submission says it waits in partition `grading` with
//!   1 job ahead, and the learner's cancel cancels the pending pilot. Every submission has exactly
//!   one verdict. `gpu-runner/pilots/tests/cli.rs` runs the `lockstep-pilots` command line.
//! - `app/server/tests/browser/xp.rs`: the XP loop in Chromium on SQLite and then PostgreSQL: a
//!   simulation to its end, the quiz by its form, the toast and panel, sign-up with the merge said,
//!   "Mark lesson complete" and the reset on a lesson with a simulation (updated in place: no page
//!   error, no jump, the simulation alive), and a second browser profile signing in to the same XP.
//! - `app/server/tests/browser/crawl.rs`: every lesson in Chromium, light and dark, at 390 and 1280
//!   px: every control used once (the simulations', copy buttons, the contents, the quiz, "Mark
//!   lesson complete", the reset with its confirmation); fails on a console error or panic, the
//!   crash notice, a page wider than the window, text under WCAG AA contrast (4.5:1, 3:1 when
//!   large; backgrounds composited up the ancestors), or a panel that disagrees with the server
//!   after a reload; every page at 320 px for sideways scrolling. A panic on purpose shows the
//!   crash notice and sends its report.
//! - `app/server/tests/browser/first_visit.rs`: headless Chromium through chromedriver
//!   (fantoccini). It opens the index, navigates on the client to lesson 2, checks its title and a
//!   titled code block, then proves hydration (the contents toggle and a copy button). It saves a
//!   screenshot to `target/test-artifacts/`.
//! - The Korean edition: `app/course` unit tests compare a translation with its source, one test
//!   per kind of structural difference (`parity.rs`), and a translation's links and editions
//!   (`load.rs`, `live.rs`); `app/server/tests/http/korean.rs` serves every page at its `/ko` twin
//!   through the router (a lesson not translated yet in English with a Korean notice, `/` by the
//!   `lang` cookie then `Accept-Language`, the switcher, a quiz answered in Korean counting once in
//!   both); `app/server/tests/browser/korean_browser.rs` is a Korean reader in Chromium: hydration
//!   in Korean without a mismatch, Hangul drawn with real glyphs (screenshots of syllables differ
//!   from the missing-glyph box and from each other), the quiz, the switcher to the same section,
//!   the exercise page, search as the learner types; and a third language the bundle reads from
//!   the page (Japanese, served only there) hydrating its switcher as rendered.
//!   `korean.rs` also serves Japanese beside Korean and crawls every page in each language:
//!   each speaks its own words or English, and no link or form leaves its language.
//!   `app/server/tests/http/search.rs` and
//!   `app/search/tests/course.rs` search the real course in both languages, with hostile queries.
//! - `app/server/tests/browser/simulations.rs`: the first four simulations in the real course, in
//!   headless Chromium: the ring stepped and played to the end (the values shown are the sums of
//!   the starting table), the sampler's indices against torch's for two epochs and with `set_epoch`
//!   off (its chips and dataset strip showing those indices and the ranks that got each), DP vs DDP
//!   speedups following the GPU slider, the scatter phases of `torch.chunk`; at 64 ranks of 256
//!   values the ring's table draws only the cells in view, and scrolled to its far corner shows
//!   that corner's sums. It keeps a screenshot of each. A second test drives them by keyboard
//!   alone, with reduced motion forced on.
//! - `app/server/tests/sim_steps.rs`: every simulation at the largest size its directive accepts,
//!   alone on a lesson page, stepped from start to end seven times in Chromium on the release
//!   bundle. It prints each one's worst step (update, style and layout, paint; the goal is 8 ms),
//!   beside what a frame on the same page costs when its one change is a text, and what the browser
//!   alone takes for each step's changes to the page, replayed by a plain script from the state
//!   before the step (what is above that is the simulation's own code). It fails when a replay
//!   wrote nothing, when a step adds or removes more nodes than the simulation has to change (a
//!   step redraws what changed, not the simulation), or when a step but the last changes the
//!   simulation's height.
//! - `sim-engine/tests/torch_fixtures.rs`: bit-for-bit agreement with real torch 2.13: 104
//!   `randperm` cases with edge seeds, both of `randperm`'s branches at the 215-million
//!   switch-over, 400 `DistributedSampler` configurations, 373 `torch.chunk` cases, 21 gloo
//!   `all_reduce` runs (2 to 8 processes), 23 real DDP models' buckets, 12 real DDP models'
//!   all-reduces per optimizer step of gradient accumulation with and without `no_sync` (counted by
//!   a comm hook), and 12 float32 models' parameter, gradient and optimizer-state bytes after a
//!   step (the memory simulation's bytes per parameter). The memory simulation also reproduces the
//!   ZeRO paper's per-GPU figures (120, 31.4, 16.6, 1.9 GB). `sim-engine/tests/properties.rs`
//!   checks the invariants with proptest. `sim-engine/src/allreduce.rs` also reproduces lesson 3's
//!   worked table. `sim-engine/cli/tests/cli.rs` runs the `sim` binary (both `--flag value` and
//!   `--flag=value`, `--help`, usage errors with exit code 2).
//! - `gpu-runner/tests/environment.rs`: the set-up's Python environment has the pinned torch, with
//!   gloo.
//! - `gpu-runner/checks`: each check's unit tests on synthetic evidence (a correct 2-rank run that
//!   each test breaks in one place: one rank, empty shards, a padded last batch, `drop_last`, a tie
//!   at the speedup threshold, a busy machine; for the crash exercise, restarts from scratch,
//!   resumes a snapshot too old or too new, `set_epoch` counted from 0, every rank saving, and
//!   where a crash may be planned), in milliseconds. That every check's lesson link names a real
//!   heading is `lessons check`'s own work now.
//! - `gpu-runner/protocol/tests/round_trip.rs`: verdicts written by real grades (a pass, a failure
//!   waiting for `launched`, an `error`, a failure with a hint) read and write back as the same
//!   JSON.
//! - `gpu-runner/tests/grade.rs` and `grade_untimed.rs`: real torch, gloo, 2 processes: the
//!   reference solution passes; each wrong answer of `lessons/ddp/exercises/ddp-conversion/`
//!   (its patch applied to the solution) fails its check;
//!   lesson 6's starter, read through the course loader (`tests/common`) and submitted unconverted,
//!   is an `error` with no check; a syntax error and NCCL without a GPU are `error` verdicts, a
//!   script that never ends a `timeout`. The grading runs take turns. Only the grades whose verdict
//!   depends on the speedup time it (`grade.rs`, run alone); the others make the graded run alone
//!   (`grade_untimed.rs`, beside other tests). `gpu-runner/tests/crash.rs`: `survive-a-crash` on
//!   real torch, the crash at a random moment in each grade as for learners: the reference solution
//!   passes (and again with rank 0 killed before the last batch of the last epoch), lesson 9's
//!   starter fails `resumed_from_snapshot` and `snapshot_rank0_only`, and each variant in
//!   `survive-a-crash`'s folder fails its checks; a script of one epoch is an `error` that says why.
//!   `gpu-runner/tests/sandbox.rs`: hostile scripts (`tests/hostile/`) against the sandbox, with no
//!   process or cgroup left behind, and the CPU accounting told apart from a spinning thread
//!   outside the job.

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
