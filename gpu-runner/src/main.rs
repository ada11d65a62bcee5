//! `gpu-runner`: grade a learner's DDP script, or describe the environment jobs run in.
//!
//! Exit codes: 0 the script passed, 1 it failed, 2 an `error` or `timeout` verdict or a command
//! line that cannot be understood, 3 the runner itself could not run (no environment, no
//! sandbox).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use gpu_runner::grade::{grade, grade_reporting, Options};
use gpu_runner::grading_checks::exercises::{self, Exercise};
use gpu_runner::grading_checks::resume::CrashPlan;
use gpu_runner::protocol::Status;
use gpu_runner::Environment;
use lockstep_routes::Lang;

#[derive(Parser)]
#[command(
    version,
    about = "Runs learners' DDP scripts under torchrun, sandboxed, and grades what they really did."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run SCRIPT under torchrun in the sandbox and grade it: exit 0 on pass, 1 on fail, 2 on
    /// error or timeout.
    Grade(GradeArgs),
    /// Describe the Python environment jobs run in.
    Env,
    /// Grade for a Lockstep server: claim queued submissions over HTTP, grade each (one at a
    /// time), and report progress and the verdict. Runs until stopped, or --idle-exit.
    Worker(gpu_runner::worker::WorkerArgs),
}

#[derive(Args)]
struct GradeArgs {
    /// The learner's training script.
    script: PathBuf,
    /// The exercise the script answers, which decides the runs and the checks: ddp-conversion
    /// (ten checks, the speedup timed) or survive-a-crash (five, one rank killed mid-epoch).
    #[arg(long, value_name = "ID", default_value = "ddp-conversion", value_parser = parse_exercise)]
    exercise: &'static Exercise,
    /// survive-a-crash: kill rank RANK as it is about to read batch BATCH (from 1) of epoch
    /// EPOCH (from 0) of its training DataLoader, instead of at a moment chosen at random.
    #[arg(long, value_name = "RANK:EPOCH:BATCH", value_parser = parse_crash_at)]
    crash_at: Option<CrashPlan>,
    /// Processes in the graded run [default: one per GPU, or 2 on CPU].
    #[arg(long)]
    nproc: Option<u32>,
    /// Print the verdict as JSON (gpu-runner/RESULT.md) instead of a report.
    #[arg(long)]
    json: bool,
    /// The report's language, en or ko (or ja, which falls back to English) [default: from
    /// LC_ALL, LC_MESSAGES or LANG].
    #[arg(long, value_name = "LANG")]
    lang: Option<Lang>,
    /// How many times each of the N-process and 1-process runs is made for the speedup.
    #[arg(long, default_value_t = 2)]
    repeats: u32,
    /// The speedup the N-process run must reach [default: 1 + 0.05 per extra process].
    #[arg(long)]
    min_speedup: Option<f64>,
    /// Do not time the speedup: make only the N-process run and skip the `speedup` check.
    #[arg(long)]
    skip_speedup: bool,
    /// Threads per process, the same in every run.
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Seconds a rank waits in a collective before it fails.
    #[arg(long, default_value_t = 20.0)]
    pg_timeout: f64,
    /// Wall-clock limit of one run, in seconds.
    #[arg(long, default_value_t = 300.0)]
    wall: f64,
    /// Memory for the whole job, in MiB.
    #[arg(long, default_value_t = 4096)]
    memory: u64,
    /// Processes and threads for the whole job.
    #[arg(long, default_value_t = 512)]
    pids: u32,
    /// The largest file the job may write, in MiB.
    #[arg(long, default_value_t = 64)]
    file_size: u64,
    /// Keep the job's files (records, logs, tensors) in DIR.
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Write each step as it happens (a run started or ended, a check decided) to standard
    /// error, one JSON event a line (the grading protocol's `live::Event`).
    #[arg(long)]
    events: bool,
    /// The environment as `gpu-runner worker` probed it (JSON), instead of probing it again.
    #[arg(long, hide = true, value_name = "JSON", value_parser = parse_environment)]
    environment: Option<Environment>,
}

fn parse_environment(json: &str) -> Result<Environment, String> {
    serde_json::from_str(json).map_err(|e| format!("not an environment: {e}"))
}

fn parse_exercise(id: &str) -> Result<&'static Exercise, String> {
    exercises::find(id)
        .ok_or_else(|| format!("no such exercise: the exercises are {}", exercises::known()))
}

/// `RANK:EPOCH:BATCH` as a crash plan. Its loader, the training DataLoader, is left for the
/// grade to find in the records.
fn parse_crash_at(s: &str) -> Result<CrashPlan, String> {
    let parts: Vec<&str> = s.split(':').collect();
    let [rank, epoch, batch] = parts.as_slice() else {
        return Err("expected RANK:EPOCH:BATCH, e.g. 1:2:5".into());
    };
    fn number<T: std::str::FromStr>(what: &str, v: &str) -> Result<T, String> {
        v.parse().map_err(|_| format!("{what} `{v}` is not a whole number in range"))
    }
    let batch = number("batch", batch)?;
    if batch == 0 {
        return Err("batches count from 1".into());
    }
    Ok(CrashPlan { rank: number("rank", rank)?, loader: 0, pass: number("epoch", epoch)?, batch })
}

impl GradeArgs {
    fn options(&self) -> Options {
        let mut opts = Options {
            exercise: self.exercise,
            crash_at: self.crash_at,
            nproc: self.nproc,
            repeats: self.repeats,
            min_speedup: self.min_speedup,
            time_speedup: !self.skip_speedup,
            threads: self.threads,
            pg_timeout_s: self.pg_timeout,
            keep: self.keep.clone(),
            environment: self.environment.clone(),
            ..Options::default()
        };
        opts.limits.wall_s = self.wall;
        opts.limits.memory_bytes = self.memory << 20;
        opts.limits.pids = self.pids;
        opts.limits.file_bytes = self.file_size << 20;
        opts
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gpu-runner: {e:#}");
            ExitCode::from(3)
        }
    }
}

fn run(command: Command) -> Result<ExitCode> {
    match command {
        Command::Env => {
            let venv = gpu_runner::default_venv();
            let env = gpu_runner::probe(&venv)?;
            println!("environment: {}", venv.display());
            println!("python {}, torch {}", env.python, env.torch);
            println!("CUDA devices: {}, backend for jobs: {}", env.cuda_devices, env.backend());
            println!(
                "sandbox: bubblewrap {}",
                if gpu_runner::sandbox::available() { "found" } else { "MISSING" }
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Worker(args) => {
            gpu_runner::worker::run(&args)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Grade(args) => {
            let verdict = if args.events {
                grade_reporting(&args.script, &args.options(), &mut |event| {
                    use std::io::Write;
                    let line = serde_json::to_string(&event).expect("events serialize");
                    let mut err = std::io::stderr().lock();
                    let _ = writeln!(err, "{line}");
                    let _ = err.flush();
                })?
            } else {
                grade(&args.script, &args.options())?
            };
            if args.json {
                println!("{}", serde_json::to_string_pretty(&verdict)?);
            } else {
                let lang = args.lang.unwrap_or_else(Lang::of_this_process);
                // This runner has no course, so no translation's heading ids: a check's section
                // is linked in the course's own language.
                print!("{}", verdict.report_in(lang, &|c| c.section.url()));
            }
            Ok(match verdict.status {
                Status::Pass => ExitCode::SUCCESS,
                Status::Fail => ExitCode::from(1),
                Status::Error | Status::Timeout => ExitCode::from(2),
            })
        }
    }
}
