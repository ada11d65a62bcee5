//! Grading one script: the N-process run, the 1-process runs the speedup is measured against,
//! the checks, and the verdict.

use std::path::{Path, PathBuf};

use crate::checks::{self, IDS};
use crate::env::{probe, Environment};
use crate::launch::{self, Run, Settings};
use crate::record::Event;
use crate::sandbox::Limits;
use crate::verdict::{CheckStatus, ErrorInfo, RunReport, Status, Verdict, Versions, SCHEMA};
use crate::RunnerError;

#[derive(Debug, Clone)]
pub struct Options {
    pub venv: PathBuf,
    /// Processes; by default one per GPU, or 2 on CPU.
    pub nproc: Option<u32>,
    /// How many times each of the N-process and 1-process runs is made for the speedup.
    pub repeats: u32,
    pub min_speedup: Option<f64>,
    pub threads: u32,
    pub pg_timeout_s: f64,
    pub limits: Limits,
    /// Keep the job's files here (records, logs, tensors) instead of deleting them.
    pub keep: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            venv: crate::default_venv(),
            nproc: None,
            repeats: 2,
            min_speedup: None,
            threads: 1,
            pg_timeout_s: 20.0,
            limits: Limits::default(),
            keep: None,
        }
    }
}

/// A run that failed because of the runtime rather than the script: a rank aborted (SIGABRT)
/// or crashed after it had finished or while tearing the process group down. gloo does this
/// at teardown about one run in six; the run is made again, and the verdict says so.
fn teardown_abort(run: &Run) -> Option<String> {
    run.ranks.iter().zip(&run.records).find_map(|(rank, rec)| {
        let crashed = matches!(rank.signal, Some(s) if s == libc::SIGABRT || s == libc::SIGSEGV);
        (crashed && rec.in_destroy_or_done()).then(|| {
            format!("rank {} was killed by signal {} during teardown, after the script had finished", rank.rank, rank.signal.unwrap_or(0))
        })
    })
}

/// At most this many extra pairs of runs when the speedup fell short on a busy machine.
const BUSY_REMEASURES: u32 = 2;

/// How many times a run is made again for a teardown abort before the result stands.
const TEARDOWN_RETRIES: u32 = 2;

struct Runner<'a> {
    env: &'a Environment,
    opts: &'a Options,
    script: &'a Path,
    harness: PathBuf,
    work: PathBuf,
    made: u32,
    /// Every run made, in order, as the verdict reports it.
    reports: Vec<RunReport>,
}

impl Runner<'_> {
    /// One run, made again (up to [`TEARDOWN_RETRIES`] times) while it ends in a teardown
    /// abort; with the last abort's explanation when there was one.
    fn run(&mut self, nproc: u32) -> Result<(Run, Option<String>), RunnerError> {
        let settings = settings(self.opts, nproc);
        let (mut attempt, mut retried) = (0, None);
        loop {
            self.made += 1;
            let dir = self.work.join(format!("run{}-{}p", self.made, nproc));
            let run = launch::run(self.env, &self.opts.venv, &self.harness, self.script, &settings, &dir)?;
            match teardown_abort(&run) {
                Some(why) if attempt < TEARDOWN_RETRIES => retried = Some(why),
                _ => return Ok((run, retried)),
            }
            attempt += 1;
        }
    }

    /// One run in `role` (`ddp` or `single`), its report filed.
    fn measure(&mut self, nproc: u32, role: &str) -> Result<Run, RunnerError> {
        let (run, retried) = self.run(nproc)?;
        self.reports.push(report(role, &run, retried));
        Ok(run)
    }
}

fn refs(runs: &[Run]) -> Vec<&Run> {
    runs.iter().collect()
}

fn settings(opts: &Options, nproc: u32) -> Settings {
    Settings { nproc, threads: opts.threads, pg_timeout_s: opts.pg_timeout_s, limits: opts.limits }
}

fn report(role: &str, run: &Run, retried: Option<String>) -> RunReport {
    RunReport {
        role: role.into(),
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
    }
}

/// The line number of a harness call site, `file.py:LINE`.
fn site_line(site: Option<&str>) -> Option<u32> {
    site?.rsplit(':').next()?.parse().ok()
}

/// Why nothing could be graded, if so: a syntax error, NCCL without a GPU, or a script that
/// died before any rank reached the process group.
fn nothing_to_grade(run: &Run, script_name: &str) -> Option<ErrorInfo> {
    for rec in &run.records {
        for e in &rec.events {
            match e {
                Event::SyntaxError { line, message, text, .. } => {
                    return Some(ErrorInfo {
                        message: format!("SyntaxError: {message}{}", if text.is_empty() { String::new() } else { format!(": {}", text.trim()) }),
                        file: Some(script_name.into()),
                        line: *line,
                    })
                }
                Event::InitError { reason, backend, error, site } if reason == "nccl_without_gpu" => {
                    return Some(ErrorInfo {
                        message: format!(
                            "the script asks for the {} backend, but this runner has no GPU ({error}); choose it with \"nccl\" if torch.cuda.is_available() else \"gloo\"",
                            backend.as_deref().unwrap_or("nccl")
                        ),
                        file: Some(script_name.into()),
                        line: site_line(site.as_deref()),
                    });
                }
                _ => {}
            }
        }
    }
    let anyone_started = run.records.iter().any(|r| r.init().is_some() || r.passes().next().is_some());
    if anyone_started || run.finished.timed_out {
        return None;
    }
    // Died before doing anything distributed: an import error, an exception at the top.
    let exc = run.records.iter().find_map(|r| r.exception());
    let (message, line) = match exc {
        Some((kind, msg, site)) => (format!("{kind}: {msg}"), site_line(site)),
        None if run.records.iter().all(|r| r.end().is_some()) => {
            ("the script finished without starting a process group or a DataLoader: there was nothing to grade".into(), None)
        }
        None => (
            format!(
                "no rank got going: {}",
                run.ranks.iter().map(|r| r.stderr_tail.lines().last().unwrap_or("").to_string()).find(|l| !l.is_empty()).unwrap_or_else(|| run.launcher_tail.lines().last().unwrap_or("").to_string())
            ),
            None,
        ),
    };
    Some(ErrorInfo { message, file: Some(script_name.into()), line })
}

/// Runs and grades `script`.
pub fn grade(script: &Path, opts: &Options) -> Result<Verdict, RunnerError> {
    let env = probe(&opts.venv)?;
    std::fs::metadata(script).map_err(RunnerError::io(format!("reading {}", script.display())))?;
    let nproc = opts.nproc.unwrap_or(if env.cuda_devices > 0 { env.cuda_devices } else { 2 }).max(1);
    let temp;
    let work = match &opts.keep {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(RunnerError::io(format!("creating {}", dir.display())))?;
            dir.clone()
        }
        None => {
            temp = tempfile::Builder::new().prefix("lockstep-job-").tempdir().map_err(RunnerError::io("creating the job directory"))?;
            temp.path().to_path_buf()
        }
    };
    let harness = work.join("harness");
    launch::write_harness(&harness)?;
    let script_name = script.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut runner = Runner { env: &env, opts, script, harness, work: work.clone(), made: 0, reports: Vec::new() };

    let first = runner.measure(nproc, "ddp")?;
    let backend = env.backend();
    let versions = Versions { runner: env!("CARGO_PKG_VERSION").into(), torch: env.torch.clone(), python: env.python.clone() };
    let verdict = |status, summary: String, error, checks, reports, enforced| Verdict {
        schema: SCHEMA,
        status,
        summary,
        script: script_name.clone(),
        nproc,
        backend: backend.into(),
        error,
        checks,
        runs: reports,
        settings: settings(opts, nproc),
        enforced,
        versions: versions.clone(),
    };
    let enforced = first.finished.enforced.clone();

    if let Some(error) = nothing_to_grade(&first, &script_name) {
        let summary = match (&error.file, error.line) {
            (Some(f), Some(l)) => format!("nothing could be graded: {f}:{l}: {}", error.message),
            _ => format!("nothing could be graded: {}", error.message),
        };
        return Ok(verdict(Status::Error, summary, Some(error), Vec::new(), runner.reports, enforced));
    }

    // The speedup needs the N-process run to have trained (a script that hangs at the very
    // end, at a misplaced barrier, has); then the runs alternate, so a noisy minute hurts both
    // sides alike.
    let trained = !checks::epoch_throughputs(&first).is_empty() && !first.finished.timed_out;
    let mut ddp_runs = vec![first];
    let mut single_runs = Vec::new();
    if trained {
        for i in 0..opts.repeats.max(1) {
            single_runs.push(runner.measure(1, "single")?);
            if i + 1 < opts.repeats {
                ddp_runs.push(runner.measure(nproc, "ddp")?);
            }
        }
    }
    let min_speedup = opts.min_speedup.unwrap_or_else(|| checks::default_min_speedup(nproc));
    // A speedup that falls short while other work was using the machine is measured again,
    // a pair of runs at a time, so that a correct script is not failed for a noisy minute.
    let mut remeasured = 0;
    if trained && checks::sampler_sharding(&ddp_runs[0]).status != CheckStatus::Fail {
        while remeasured < BUSY_REMEASURES {
            let short = checks::speedup(&refs(&ddp_runs), &refs(&single_runs), min_speedup, true, remeasured).status == CheckStatus::Fail;
            // Only the N-process side: other work during a 1-process run raises the ratio.
            let busy = ddp_runs.iter().filter_map(checks::others_cores).any(|c| c > checks::BUSY_CORES);
            if !(short && busy) {
                break;
            }
            remeasured += 1;
            ddp_runs.push(runner.measure(nproc, "ddp")?);
            single_runs.push(runner.measure(1, "single")?);
        }
    }
    let checks = checks::all(&refs(&ddp_runs), &refs(&single_runs), min_speedup, remeasured);
    debug_assert_eq!(checks.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), IDS);

    let ids = |status| -> Vec<&str> { checks.iter().filter(|c| c.required && c.status == status).map(|c| c.id.as_str()).collect() };
    let (failed, skipped) = (ids(CheckStatus::Fail), ids(CheckStatus::Skip));
    let (status, summary) = if ddp_runs[0].finished.timed_out {
        (Status::Timeout, format!("the run was stopped after {:.0} s (the wall-clock limit)", opts.limits.wall_s))
    } else if failed.is_empty() && skipped.is_empty() {
        (Status::Pass, format!("all {} checks passed", checks.len()))
    } else {
        // A required check that could not be judged is not a pass either.
        let mut parts = Vec::new();
        if !failed.is_empty() {
            parts.push(format!("{} of {} checks failed: {}", failed.len(), checks.len(), failed.join(", ")));
        }
        if !skipped.is_empty() {
            parts.push(format!("{} not judged: {}", skipped.len(), skipped.join(", ")));
        }
        (Status::Fail, parts.join("; "))
    };
    Ok(verdict(status, summary, None, checks, runner.reports, enforced))
}
