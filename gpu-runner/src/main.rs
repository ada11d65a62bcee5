use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use gpu_runner::grade::{grade, Options};
use gpu_runner::verdict::Status;

const USAGE: &str = "usage:
  gpu-runner grade SCRIPT [--nproc N] [--json] [--repeats K] [--min-speedup X] [--threads T]
                          [--pg-timeout S] [--wall S] [--memory MIB] [--pids N] [--file-size MIB]
                          [--keep DIR]
      run SCRIPT under torchrun in the sandbox and grade it; exit 0 on pass, 1 on fail,
      2 on error or timeout
  gpu-runner env
      describe the Python environment jobs run in";

fn main() -> ExitCode {
    match real_main() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gpu-runner: {e:#}");
            ExitCode::from(3)
        }
    }
}

fn real_main() -> Result<ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("env") => {
            let venv = gpu_runner::default_venv();
            let env = gpu_runner::probe(&venv)?;
            println!("environment: {}", venv.display());
            println!("python {}, torch {}", env.python, env.torch);
            println!("CUDA devices: {}, backend for jobs: {}", env.cuda_devices, env.backend());
            println!("sandbox: bubblewrap {}", if gpu_runner::sandbox::available() { "found" } else { "MISSING" });
            Ok(ExitCode::SUCCESS)
        }
        Some("grade") => {
            let mut opts = Options::default();
            let mut script = None;
            let mut json = false;
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                let mut value = |name: &str| it.next().with_context(|| format!("{name} needs a value"));
                match a.as_str() {
                    "--json" => json = true,
                    "--nproc" => opts.nproc = Some(value("--nproc")?.parse().context("--nproc")?),
                    "--repeats" => opts.repeats = value("--repeats")?.parse().context("--repeats")?,
                    "--min-speedup" => opts.min_speedup = Some(value("--min-speedup")?.parse().context("--min-speedup")?),
                    "--threads" => opts.threads = value("--threads")?.parse().context("--threads")?,
                    "--pg-timeout" => opts.pg_timeout_s = value("--pg-timeout")?.parse().context("--pg-timeout")?,
                    "--wall" => opts.limits.wall_s = value("--wall")?.parse().context("--wall")?,
                    "--memory" => opts.limits.memory_bytes = value("--memory")?.parse::<u64>().context("--memory")? << 20,
                    "--pids" => opts.limits.pids = value("--pids")?.parse().context("--pids")?,
                    "--file-size" => opts.limits.file_bytes = value("--file-size")?.parse::<u64>().context("--file-size")? << 20,
                    "--keep" => opts.keep = Some(PathBuf::from(value("--keep")?)),
                    s if s.starts_with("--") => bail!("unknown option {s}\n{USAGE}"),
                    s => script = Some(PathBuf::from(s)),
                }
            }
            let Some(script) = script else { bail!("grade needs a SCRIPT\n{USAGE}") };
            let verdict = grade(&script, &opts)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&verdict)?);
            } else {
                print!("{}", verdict.report());
            }
            Ok(match verdict.status {
                Status::Pass => ExitCode::SUCCESS,
                Status::Fail => ExitCode::from(1),
                Status::Error | Status::Timeout => ExitCode::from(2),
            })
        }
        _ => {
            eprintln!("{USAGE}");
            Ok(ExitCode::from(2))
        }
    }
}
