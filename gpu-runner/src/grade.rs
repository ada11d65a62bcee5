//! Grading one script: the job's set-up, its runs (each made again after a teardown abort) and
//! the verdict's frame. Which runs an exercise makes and how its checks are decided is its
//! grader's, in [`crate::exercises`]; the judging itself is `grading-checks'`.
//!
//! # Script → verdict
//!
//! (`gpu-runner grade`): the runner copies the script into a fresh job directory and starts
//! `torchrun` inside bubblewrap (uid 1000, no network beyond loopback, read-only system, cgroup
//! memory and process limits, a file-size rlimit, a wall clock). Each rank runs
//! `harness/lockstep_harness.py`, which patches torch and runs the script as `__main__`; it writes
//! what torch did to `/records/rank{R}.jsonl` (a file the script's prints cannot reach), the rank's
//! output to its own log files, and parameters and checkpoints as safetensors. `gather` reads the
//! records (`grading_checks::record`) and logs and compares the saved tensors with tch, producing
//! one `RunEvidence` per run; `grading_checks::all` judges the `Evidence` of all runs into the
//! conversion's ten checks, and `grade` wraps them in a `grading_protocol::Verdict`
//! (`gpu-runner/RESULT.md`). For `survive-a-crash` both runs go under `torchrun --max-restarts=1`
//! with torchrun's shared rendezvous store turned off (`TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1`:
//! torch 2.13 keeps dead workers' addresses in it across a restart); the second carries
//! `LOCKSTEP_CRASH=RANK:LOADER:PASS:BATCH`, and that rank's harness records the crash and SIGKILLs
//! itself as it is about to read that batch, in the first attempt only. Each attempt appends to the
//! same records and logs (`start` carries `TORCHELASTIC_RESTART_COUNT`), and `RankRecord::attempts`
//! splits them. Epochs are complete passes over the training DataLoader, so a resume is judged by
//! counting, and its order by comparing indices with the run left alone. For the conversion, the
//! same script is run with one process for the speedup, alternating with the N-process runs (unless
//! the grade is asked not to time it); each run's CPU time is accounted (the job's cgroup, and the
//! rest of the machine from `/proc/stat`), and a speedup that falls short while other work was
//! running is measured again. Checks that compare ranks within one process group wait for
//! `launched`: when it fails, their failures become skips, so the verdict names the cause once.

use std::path::{Path, PathBuf};

use grading_checks::evidence::RunEvidence;
use grading_checks::exercises::Exercise;
use grading_checks::outcome;
use grading_checks::record::RankRecord;
use grading_checks::resume::CrashPlan;
use grading_protocol::live::Event;
use grading_protocol::{
    Check, ErrorInfo, Limits, RunReport, RunRole, Said, Settings, Status, Verdict, Versions, SCHEMA,
};
use lockstep_routes::Lang;

use crate::env::{probe_once, Environment};
use crate::gather;
use crate::launch::{self, Restarts, Run};
use crate::RunnerError;

#[derive(Debug, Clone)]
pub struct Options {
    /// The exercise the script answers, from the registry; its grader decides the runs.
    pub exercise: &'static Exercise,
    /// `survive-a-crash`: where to kill a rank, instead of a moment chosen at random (its
    /// `loader` is replaced by the training DataLoader's).
    pub crash_at: Option<CrashPlan>,
    pub venv: PathBuf,
    /// What `venv` offers, when it is known already: a worker probes once as it starts and
    /// hands it to each grade. `None`: probed here (once per process).
    pub environment: Option<Environment>,
    /// Processes; by default one per GPU, or 2 on CPU.
    pub nproc: Option<u32>,
    /// How many times each of the N-process and 1-process runs is made for the speedup.
    pub repeats: u32,
    pub min_speedup: Option<f64>,
    /// Whether to time the speedup at all. Without it only the N-process run is made, and the
    /// `speedup` check is skipped: for grading on a machine that is busy anyway, and for tests
    /// aimed at other checks.
    pub time_speedup: bool,
    pub threads: u32,
    pub pg_timeout_s: f64,
    pub limits: Limits,
    /// Keep the job's files here (records, logs, tensors) instead of deleting them.
    pub keep: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            exercise: &grading_checks::exercises::DDP_CONVERSION,
            crash_at: None,
            venv: crate::default_venv(),
            environment: None,
            nproc: None,
            repeats: 2,
            min_speedup: None,
            time_speedup: true,
            threads: 1,
            pg_timeout_s: 20.0,
            limits: Limits::default(),
            keep: None,
        }
    }
}

/// A run that failed because of the runtime rather than the script: a rank aborted (SIGABRT)
/// or crashed after it had finished or while tearing the process group down. The harness
/// leaves before the interpreter's teardown, where torch 2.13 with gloo aborts processes (its
/// last lines say why), so this is rare; the run is made again, and the verdict says so.
fn teardown_abort(run: &Run) -> Option<String> {
    run.ranks.iter().zip(&run.records).find_map(|(rank, rec)| {
        let crashed = matches!(rank.signal, Some(s) if s == libc::SIGABRT || s == libc::SIGSEGV);
        (crashed && rec.in_destroy_or_done()).then(|| {
            format!(
                "rank {} was killed by signal {} during teardown, after the script had finished",
                rank.rank,
                rank.signal.unwrap_or(0)
            )
        })
    })
}

/// How many times a run is made again for a teardown abort before the result stands.
const TEARDOWN_RETRIES: u32 = 2;

/// One grade in progress: what its grader runs through.
pub struct Job<'a> {
    env: &'a Environment,
    progress: &'a mut dyn FnMut(Event),
    pub(crate) opts: &'a Options,
    script: &'a Path,
    harness: PathBuf,
    work: PathBuf,
    made: u32,
    /// Processes in the graded run.
    pub(crate) nproc: u32,
    pub(crate) script_name: String,
    /// Every run made, in order, as the verdict reports it.
    reports: Vec<RunReport>,
    /// What the sandbox enforced on the first run, as the verdict reports it.
    enforced: grading_protocol::Enforced,
    /// Whether the next run reports `grading_checks::settled_early`'s checks as it goes.
    pub(crate) watch_early: bool,
    /// The checks a run reported before it ended.
    pub(crate) reported_early: Vec<Check>,
}

impl Job<'_> {
    /// One run, made again (up to [`TEARDOWN_RETRIES`] times) while it ends in a teardown
    /// abort; with the last abort's explanation when there was one.
    pub(crate) fn run(
        &mut self,
        nproc: u32,
        role: RunRole,
    ) -> Result<(Run, Option<String>), RunnerError> {
        self.run_with(nproc, role, Restarts::default())
    }

    pub(crate) fn run_with(
        &mut self,
        nproc: u32,
        role: RunRole,
        restarts: Restarts,
    ) -> Result<(Run, Option<String>), RunnerError> {
        let settings = settings(self.opts, nproc);
        let (mut attempt, mut retried) = (0, None);
        loop {
            self.made += 1;
            let index = self.made;
            (self.progress)(Event::RunStarted { index, role, nproc });
            let dir = self.work.join(format!("run{}-{}p", self.made, nproc));
            let (progress, reported) = (&mut *self.progress, &mut self.reported_early);
            let early = self.watch_early;
            // Checks reach the learner as the run settles them, not all at its end.
            let mut watch = |so_far: &[RankRecord]| -> bool {
                if !early {
                    return false;
                }
                for check in grading_checks::settled_early(nproc, so_far) {
                    if !reported.iter().any(|r| r.id == check.id) {
                        reported.push(check.clone());
                        progress(Event::Check { check });
                    }
                }
                reported.len() < 2
            };
            let run = launch::run_watched(
                self.env,
                &self.opts.venv,
                &self.harness,
                self.script,
                &settings,
                restarts,
                &dir,
                &mut watch,
            )?;
            (self.progress)(Event::RunFinished { index, role, nproc, wall_s: run.finished.wall_s });
            match teardown_abort(&run) {
                Some(why) if attempt < TEARDOWN_RETRIES => retried = Some(why),
                _ => return Ok((run, retried)),
            }
            attempt += 1;
        }
    }

    /// One run in `role`, its report filed, as evidence (with its tensors compared when
    /// `tensors`).
    pub(crate) fn measure(
        &mut self,
        nproc: u32,
        role: RunRole,
        tensors: bool,
    ) -> Result<RunEvidence, RunnerError> {
        let (run, retried) = self.run(nproc, role)?;
        self.file(role, &run, retried);
        Ok(gather::evidence(run, tensors))
    }

    /// Files a run's report; the first run's limits are the verdict's.
    pub(crate) fn file(&mut self, role: RunRole, run: &Run, retried: Option<String>) {
        if self.reports.is_empty() {
            self.enforced = run.finished.enforced.clone();
        }
        self.reports.push(report(role, run, retried));
    }

    /// The verdict of the runs made so far.
    pub(crate) fn verdict(
        &mut self,
        status: Status,
        summary: Said,
        error: Option<ErrorInfo>,
        checks: Vec<Check>,
    ) -> Verdict {
        Verdict {
            schema: SCHEMA,
            status,
            summary: summary.say(Lang::En),
            summary_words: Some(summary),
            script: self.script_name.clone(),
            nproc: self.nproc,
            backend: self.env.backend().into(),
            error,
            checks,
            runs: std::mem::take(&mut self.reports),
            settings: settings(self.opts, self.nproc),
            enforced: self.enforced.clone(),
            versions: Versions {
                runner: env!("CARGO_PKG_VERSION").into(),
                torch: self.env.torch.clone(),
                python: self.env.python.clone(),
            },
        }
    }

    /// An `error` verdict: the script could not be graded, for the reason `error` gives.
    pub(crate) fn error(&mut self, error: ErrorInfo) -> Verdict {
        let summary = outcome::error_summary(&error);
        self.verdict(Status::Error, summary, Some(error), Vec::new())
    }

    /// The verdict of decided checks.
    pub(crate) fn judged(&mut self, checks: Vec<Check>, timed_out: bool) -> Verdict {
        let (status, summary) = outcome::summarize(&checks, timed_out, self.opts.limits.wall_s);
        self.verdict(status, summary, None, checks)
    }

    /// Tells the learner a check was decided.
    pub(crate) fn decided(&mut self, check: &Check) {
        (self.progress)(Event::Check { check: check.clone() });
    }
}

fn settings(opts: &Options, nproc: u32) -> Settings {
    Settings { nproc, threads: opts.threads, pg_timeout_s: opts.pg_timeout_s, limits: opts.limits }
}

fn report(role: RunRole, run: &Run, retried: Option<String>) -> RunReport {
    RunReport {
        role,
        nproc: run.nproc,
        backend: run.backend().map(str::to_string),
        command: run.command.clone(),
        wall_s: run.finished.wall_s,
        timed_out: run.finished.timed_out,
        out_of_memory: run.finished.out_of_memory,
        ranks: run.ranks.clone(),
        launcher_tail: run.launcher_tail.clone(),
        retried_because: retried,
        cpu: run.finished.cpu,
        measured: grading_checks::measure::measured(&run.records),
    }
}

/// Runs and grades `script`.
pub fn grade(script: &Path, opts: &Options) -> Result<Verdict, RunnerError> {
    grade_reporting(script, opts, &mut |_| {})
}

/// Runs and grades `script`, telling `progress` as each run starts and ends and as each check
/// is decided: every check but `speedup` after the graded run (they judge that run alone),
/// `speedup` once its runs are timed.
pub fn grade_reporting(
    script: &Path,
    opts: &Options,
    progress: &mut dyn FnMut(Event),
) -> Result<Verdict, RunnerError> {
    let grader = crate::exercises::grader(opts.exercise.id)
        .ok_or(RunnerError::NoGrader(opts.exercise.id))?;
    let env = match &opts.environment {
        Some(env) => env.clone(),
        None => probe_once(&opts.venv)?,
    };
    std::fs::metadata(script).map_err(RunnerError::io(format!("reading {}", script.display())))?;
    let nproc =
        opts.nproc.unwrap_or(if env.cuda_devices > 0 { env.cuda_devices } else { 2 }).max(1);
    let temp;
    let work = match &opts.keep {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(RunnerError::io(format!("creating {}", dir.display())))?;
            dir.clone()
        }
        None => {
            temp = tempfile::Builder::new()
                .prefix("lockstep-job-")
                .tempdir()
                .map_err(RunnerError::io("creating the job directory"))?;
            temp.path().to_path_buf()
        }
    };
    let harness = work.join("harness");
    launch::write_harness(&harness)?;
    let script_name =
        script.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut job = Job {
        env: &env,
        progress,
        opts,
        script,
        harness,
        work: work.clone(),
        made: 0,
        nproc,
        script_name,
        reports: Vec::new(),
        enforced: Default::default(),
        watch_early: false,
        reported_early: Vec::new(),
    };
    let verdict = grader(&mut job)?;
    debug_assert!(
        verdict.checks.is_empty()
            || verdict.checks.iter().map(|c| c.id).eq(opts.exercise.check_ids()),
        "the verdict's checks are the registry's, in order"
    );
    debug_assert!(verdict.runs.iter().all(|r| opts.exercise.runs.contains(&r.role)));
    Ok(verdict)
}
