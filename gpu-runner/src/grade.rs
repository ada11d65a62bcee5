//! Grading one script: for `ddp-conversion`, the N-process run and the 1-process runs the
//! speedup is measured against; for `survive-a-crash`, the N-process run left alone and the
//! same run with one rank killed mid-epoch. Then the evidence and the verdict. The judging is
//! `grading-checks`'; this module decides which runs to make.

use std::path::{Path, PathBuf};

use grading_checks::evidence::{Evidence, RunEvidence};
use grading_checks::record::RankRecord;
use grading_checks::resume::{CrashEvidence, CrashPlan};
use grading_checks::{outcome, speedup};
use grading_protocol::live::Event;
use grading_protocol::{CheckId, Limits, RunReport, RunRole, Settings, Verdict, Versions, SCHEMA};

use crate::env::{probe, Environment};
use crate::gather;
use crate::launch::{self, Restarts, Run};
use crate::RunnerError;

/// The exercises this runner grades, by the ids lessons give them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Exercise {
    /// Convert a single-GPU script to DDP: ten checks, the speedup timed.
    #[default]
    #[value(name = "ddp-conversion")]
    DdpConversion,
    /// Make training survive a crash: five checks, one rank killed mid-epoch.
    #[value(name = "survive-a-crash")]
    SurviveACrash,
}

#[derive(Debug, Clone)]
pub struct Options {
    pub exercise: Exercise,
    /// `survive-a-crash`: where to kill a rank, instead of a moment chosen at random (its
    /// `loader` is replaced by the training DataLoader's).
    pub crash_at: Option<CrashPlan>,
    pub venv: PathBuf,
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
            exercise: Exercise::DdpConversion,
            crash_at: None,
            venv: crate::default_venv(),
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

/// A number nobody can predict from the script, for the moment a rank is killed: a learner
/// cannot tune the script to one epoch and batch.
fn random() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// At most this many extra pairs of runs when the speedup fell short on a busy machine.
const BUSY_REMEASURES: u32 = 2;

/// How many times a run is made again for a teardown abort before the result stands.
const TEARDOWN_RETRIES: u32 = 2;

struct Runner<'a> {
    env: &'a Environment,
    progress: &'a mut dyn FnMut(Event),
    opts: &'a Options,
    script: &'a Path,
    harness: PathBuf,
    work: PathBuf,
    made: u32,
    /// Every run made, in order, as the verdict reports it.
    reports: Vec<RunReport>,
    /// The checks the graded run of the conversion reported before it ended.
    reported_early: Vec<grading_protocol::Check>,
}

impl Runner<'_> {
    /// One run, made again (up to [`TEARDOWN_RETRIES`] times) while it ends in a teardown
    /// abort; with the last abort's explanation when there was one.
    fn run(&mut self, nproc: u32, role: RunRole) -> Result<(Run, Option<String>), RunnerError> {
        self.run_with(nproc, role, Restarts::default())
    }

    fn run_with(
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
            // Only the conversion's graded run, the first: no run has been reported yet.
            let early = self.opts.exercise == Exercise::DdpConversion && self.reports.is_empty();
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
    fn measure(
        &mut self,
        nproc: u32,
        role: RunRole,
        tensors: bool,
    ) -> Result<RunEvidence, RunnerError> {
        let (run, retried) = self.run(nproc, role)?;
        self.reports.push(report(role, &run, retried));
        Ok(gather::evidence(run, tensors))
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
    let env = probe(&opts.venv)?;
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
    let mut runner = Runner {
        env: &env,
        progress,
        opts,
        script,
        harness,
        work: work.clone(),
        made: 0,
        reports: Vec::new(),
        reported_early: Vec::new(),
    };

    // The crash exercise's first run is the one left alone, under the same torchrun as the run
    // a rank will be killed in.
    let (first_role, first_restarts) = match opts.exercise {
        Exercise::DdpConversion => (RunRole::Ddp, Restarts::default()),
        Exercise::SurviveACrash => (RunRole::Uninterrupted, Restarts { max: 1, crash: None }),
    };
    let (first, first_params, enforced) = {
        let (run, retried) = runner.run_with(nproc, first_role, first_restarts)?;
        runner.reports.push(report(first_role, &run, retried));
        let enforced = run.finished.enforced.clone();
        // The conversion's checks read this run's tensors; the crash exercise's compare only
        // rank 0's final parameters with the interrupted run's, so it keeps where they are.
        let conversion = opts.exercise == Exercise::DdpConversion;
        let kept = if conversion { None } else { gather::rank0_final_params(&run) };
        (gather::evidence(run, conversion), kept, enforced)
    };
    let versions = Versions {
        runner: env!("CARGO_PKG_VERSION").into(),
        torch: env.torch.clone(),
        python: env.python.clone(),
    };
    let verdict = |status, summary, error, checks, runs| Verdict {
        schema: SCHEMA,
        status,
        summary,
        script: script_name.clone(),
        nproc,
        backend: env.backend().into(),
        error,
        checks,
        runs,
        settings: settings(opts, nproc),
        enforced: enforced.clone(),
        versions: versions.clone(),
    };

    if let Some(error) = outcome::nothing_to_grade(&first, &script_name) {
        let summary = outcome::error_summary(&error);
        return Ok(verdict(
            grading_protocol::Status::Error,
            summary,
            Some(error),
            Vec::new(),
            runner.reports,
        ));
    }

    if opts.exercise == Exercise::SurviveACrash {
        if let Some(error) = outcome::fails_unharmed(&first, &script_name) {
            let summary = outcome::error_summary(&error);
            let status = grading_protocol::Status::Error;
            return Ok(verdict(status, summary, Some(error), Vec::new(), runner.reports));
        }
        let training_loader =
            first.records.first().and_then(|r| r.training_passes().first().map(|p| p.loader));
        let chosen = match opts.crash_at {
            Some(at) => Some(CrashPlan { loader: training_loader.unwrap_or(at.loader), ..at }),
            None => CrashPlan::choose(&first, random()),
        };
        let Some(plan) = chosen else {
            let error = grading_protocol::ErrorInfo {
                message: "the script trained fewer than 2 epochs, so there is no moment after a snapshot to crash at: train at least 2".into(),
                file: Some(script_name.clone()),
                line: None,
            };
            let summary = outcome::error_summary(&error);
            let status = grading_protocol::Status::Error;
            return Ok(verdict(status, summary, Some(error), Vec::new(), runner.reports));
        };
        let (run, retried) =
            runner.run_with(nproc, RunRole::Interrupted, Restarts { max: 1, crash: Some(plan) })?;
        runner.reports.push(report(RunRole::Interrupted, &run, retried));
        let final_params =
            first_params.as_deref().and_then(|first| gather::final_params_against(first, &run));
        let interrupted = gather::evidence(run, false);
        let timed_out = first.timed_out || interrupted.timed_out;
        let evidence = CrashEvidence { uninterrupted: first, interrupted, plan, final_params };
        let checks = grading_checks::resume::all(&evidence);
        for check in &checks {
            (runner.progress)(Event::Check { check: check.clone() });
        }
        let (status, summary) = outcome::summarize(&checks, timed_out, opts.limits.wall_s);
        return Ok(verdict(status, summary, None, checks, runner.reports));
    }

    // The speedup needs the N-process run to have trained (a script that hangs at the very
    // end, at a misplaced barrier, has); then the runs alternate, so a noisy minute hurts both
    // sides alike.
    let trained = !speedup::epoch_throughputs(&first).is_empty() && !first.timed_out;
    let timed_out = first.timed_out;
    let mut evidence = Evidence {
        ddp: vec![first],
        single: Vec::new(),
        min_speedup: opts.min_speedup.unwrap_or_else(|| speedup::default_min_speedup(nproc)),
        remeasured: 0,
        not_timed: (!opts.time_speedup)
            .then(|| "this grade was asked not to time the speedup".to_string()),
    };
    let decided = grading_checks::all(&evidence);
    // What the run settled as it went stands; the rest now (a check reported early is sent
    // again only if the whole run says otherwise, which records that only grow never do).
    let early = std::mem::take(&mut runner.reported_early);
    for check in decided.iter().filter(|c| c.id != CheckId::Speedup && !early.contains(c)) {
        (runner.progress)(Event::Check { check: check.clone() });
    }
    if trained && opts.time_speedup {
        for i in 0..opts.repeats.max(1) {
            evidence.single.push(runner.measure(1, RunRole::Single, false)?);
            if i + 1 < opts.repeats {
                evidence.ddp.push(runner.measure(nproc, RunRole::Ddp, false)?);
            }
        }
        // A speedup that falls short while other work was using the machine is measured
        // again, a pair of runs at a time, so that a correct script is not failed for a noisy
        // minute. Not when the script did not divide the work: no quiet minute fixes that.
        let sharded = grading_checks::sampler::sharding(&evidence.ddp[0]).status
            != grading_protocol::CheckStatus::Fail;
        while sharded
            && evidence.remeasured < BUSY_REMEASURES
            && speedup::worth_measuring_again(&evidence)
        {
            evidence.remeasured += 1;
            evidence.ddp.push(runner.measure(nproc, RunRole::Ddp, false)?);
            evidence.single.push(runner.measure(1, RunRole::Single, false)?);
        }
    }
    let checks = grading_checks::all(&evidence);
    debug_assert_eq!(checks.iter().map(|c| c.id).collect::<Vec<_>>(), CheckId::CONVERSION);
    // The timed runs change only the speedup: what was reported before stands.
    debug_assert!(decided.iter().zip(&checks).all(|(a, b)| a.id == CheckId::Speedup || a == b));
    if let Some(speedup) = checks.iter().find(|c| c.id == CheckId::Speedup) {
        (runner.progress)(Event::Check { check: speedup.clone() });
    }
    let (status, summary) = outcome::summarize(&checks, timed_out, opts.limits.wall_s);
    Ok(verdict(status, summary, None, checks, runner.reports))
}
