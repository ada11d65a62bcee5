//! The one place an operator configures grading through Slurm (`pilots.toml`), and the batch
//! script it makes.

use std::path::{Path, PathBuf};

use serde::Deserialize;

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{path}: {source}")]
    Parse { path: PathBuf, source: Box<toml::de::Error> },
    #[error("{path}: `{field}`: {why}")]
    Invalid { path: PathBuf, field: &'static str, why: String },
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The Lockstep server, as the GPU nodes reach it.
    pub server: String,
    /// The `gpu-runner` binary, as the GPU nodes see it (a shared file system).
    pub runner: PathBuf,
    /// Pilot jobs queued or running at most: the most GPU jobs the course holds at once.
    #[serde(default = "default_max_pilots")]
    pub max_pilots: u32,
    /// Seconds between two looks at the queues.
    #[serde(default = "default_poll")]
    pub poll_seconds: f64,
    pub slurm: Slurm,
    #[serde(default)]
    pub worker: Worker,
}

/// What each pilot job asks of Slurm.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slurm {
    pub partition: String,
    /// GPUs of one node (`--gres=gpu:N`); the worker grades with one process per GPU. 0 on a
    /// CPU partition: the worker grades with gloo.
    #[serde(default)]
    pub gpus_per_job: u32,
    #[serde(default)]
    pub cpus_per_job: Option<u32>,
    /// Slurm's `--time`: minutes, or `[D-]HH:MM:SS`.
    pub time_limit: String,
    #[serde(default)]
    pub account: Option<String>,
    /// Further `sbatch` options, one per entry (`--qos=course`, `--constraint=h100`).
    #[serde(default)]
    pub extra_sbatch: Vec<String>,
    /// Shell lines run on the node before the worker (`module load cuda/12.4`).
    #[serde(default)]
    pub setup: Vec<String>,
    /// The pilots' job name: how the supervisor finds its own jobs in `squeue`.
    #[serde(default = "default_job_name")]
    pub job_name: String,
    /// Where each pilot's log goes (`%x-%j.out` in it); Slurm's default when unset.
    #[serde(default)]
    pub log_dir: Option<PathBuf>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Worker {
    /// A pilot without work for this long exits and gives its node back.
    #[serde(default = "default_idle_exit")]
    pub idle_exit_seconds: f64,
    /// A pilot takes no new job after this long [default: the time limit less half an hour,
    /// or less half of it when it is shorter than an hour], so a grade ends before Slurm's
    /// limit does.
    #[serde(default)]
    pub claim_for_seconds: Option<f64>,
    /// Further `gpu-runner worker` options (`--skip-speedup`, `--poll=0.5`).
    #[serde(default)]
    pub args: Vec<String>,
}

impl Default for Worker {
    fn default() -> Worker {
        Worker { idle_exit_seconds: default_idle_exit(), claim_for_seconds: None, args: Vec::new() }
    }
}

fn default_max_pilots() -> u32 {
    4
}
fn default_poll() -> f64 {
    2.0
}
fn default_job_name() -> String {
    "lockstep-pilot".into()
}
fn default_idle_exit() -> f64 {
    120.0
}

impl Config {
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| ConfigError::Read { path: path.into(), source })?;
        Config::parse(&text, path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let config: Config = toml::from_str(text)
            .map_err(|e| ConfigError::Parse { path: path.into(), source: Box::new(e) })?;
        let invalid = |field, why: &str| ConfigError::Invalid {
            path: path.into(),
            field,
            why: why.to_string(),
        };
        if !(config.server.starts_with("http://") || config.server.starts_with("https://")) {
            return Err(invalid("server", "an http:// or https:// URL"));
        }
        if config.max_pilots == 0 {
            return Err(invalid("max_pilots", "at least 1"));
        }
        if config.poll_seconds.is_nan() || config.poll_seconds < 0.1 {
            return Err(invalid("poll_seconds", "at least 0.1"));
        }
        let seconds = |v: f64| v.is_finite() && v >= 0.0;
        if !seconds(config.worker.idle_exit_seconds) {
            return Err(invalid("worker.idle_exit_seconds", "a number of seconds, 0 or more"));
        }
        if config.worker.claim_for_seconds.is_some_and(|v| !seconds(v)) {
            return Err(invalid("worker.claim_for_seconds", "a number of seconds, 0 or more"));
        }
        time_limit_seconds(&config.slurm.time_limit)
            .ok_or_else(|| invalid("slurm.time_limit", "minutes, or [D-]HH:MM:SS"))?;
        let s = &config.slurm;
        for (field, word) in [("slurm.partition", &s.partition), ("slurm.job_name", &s.job_name)]
            .into_iter()
            .chain(s.account.as_ref().map(|a| ("slurm.account", a)))
        {
            if word.is_empty() || !word.chars().all(|c| c.is_ascii_graphic() && c != '\'') {
                return Err(invalid(field, "one word, without quotes"));
            }
        }
        if let Some(bad) = s.extra_sbatch.iter().find(|o| !o.starts_with("--") || has_newline(o)) {
            return Err(invalid("slurm.extra_sbatch", &format!("`{bad}` is not one --option")));
        }
        if s.setup.iter().any(|l| has_newline(l)) {
            return Err(invalid("slurm.setup", "one shell line per entry"));
        }
        if config.worker.args.iter().any(|a| has_newline(a)) {
            return Err(invalid("worker.args", "one argument per entry"));
        }
        Ok(config)
    }

    /// Seconds a pilot keeps taking jobs.
    pub fn claim_for_seconds(&self) -> f64 {
        self.worker.claim_for_seconds.unwrap_or_else(|| {
            let limit = time_limit_seconds(&self.slurm.time_limit).expect("checked on load");
            limit - (limit / 2.0).min(1800.0)
        })
    }

    /// The pilot job, for `sbatch` on its standard input: the worker, started on the node
    /// Slurm gives it, naming itself after the node and the job.
    pub fn batch_script(&self) -> String {
        let s = &self.slurm;
        let mut lines = vec!["#!/bin/bash".to_string()];
        let mut sbatch = |option: String| lines.push(format!("#SBATCH {option}"));
        sbatch(format!("--job-name={}", s.job_name));
        sbatch(format!("--partition={}", s.partition));
        sbatch(format!("--time={}", s.time_limit));
        sbatch("--nodes=1".into());
        sbatch("--ntasks=1".into());
        if s.gpus_per_job > 0 {
            sbatch(format!("--gres=gpu:{}", s.gpus_per_job));
        }
        if let Some(cpus) = s.cpus_per_job {
            sbatch(format!("--cpus-per-task={cpus}"));
        }
        if let Some(account) = &s.account {
            sbatch(format!("--account={account}"));
        }
        if let Some(dir) = &s.log_dir {
            sbatch(format!("--output={}/%x-%j.out", dir.display()));
        }
        for option in &s.extra_sbatch {
            sbatch(option.clone());
        }
        lines.extend(s.setup.iter().cloned());
        let mut worker = vec![
            quote(&self.runner.to_string_lossy()),
            "worker".into(),
            format!("--server={}", quote(&self.server)),
            // Slurm sets both variables in the job; the supervisor finds the job by the name.
            format!(r#"--name="${{SLURMD_NODENAME}}{}""#, worker_suffix("${SLURM_JOB_ID}")),
            r#"--node="${SLURMD_NODENAME}""#.into(),
            format!("--idle-exit={}", self.worker.idle_exit_seconds),
            format!("--claim-for={}", self.claim_for_seconds()),
        ];
        worker.extend(self.worker.args.iter().map(|a| quote(a)));
        // exec: Slurm's SIGTERM then reaches the worker itself.
        lines.push(format!("exec {}", worker.join(" ")));
        lines.join("\n") + "\n"
    }
}

/// The worker name a pilot claims with ends with this, whatever the server puts before it.
pub fn worker_suffix(slurm_job: &str) -> String {
    format!("/slurm-{slurm_job}")
}

fn has_newline(s: &str) -> bool {
    s.contains('\n') || s.contains('\r')
}

/// A word for bash, in single quotes.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Slurm's `--time` in seconds: `M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`, `D-H:M:S`.
pub fn time_limit_seconds(limit: &str) -> Option<f64> {
    let num = |s: &str| -> Option<f64> {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
    };
    let (days, rest) = match limit.split_once('-') {
        Some((d, rest)) => (num(d)?, Some(rest)),
        None => (0.0, None),
    };
    let seconds = match rest {
        Some(rest) => {
            let parts: Vec<&str> = rest.split(':').collect();
            match parts.as_slice() {
                [h] => num(h)? * 3600.0,
                [h, m] => num(h)? * 3600.0 + num(m)? * 60.0,
                [h, m, s] => num(h)? * 3600.0 + num(m)? * 60.0 + num(s)?,
                _ => return None,
            }
        }
        None => {
            let parts: Vec<&str> = limit.split(':').collect();
            match parts.as_slice() {
                [m] => num(m)? * 60.0,
                [m, s] => num(m)? * 60.0 + num(s)?,
                [h, m, s] => num(h)? * 3600.0 + num(m)? * 60.0 + num(s)?,
                _ => return None,
            }
        }
    };
    let total = days * 86400.0 + seconds;
    (total > 0.0).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"
server = "https://lockstep.example.org"
runner = "/shared/lockstep/bin/gpu-runner"
max_pilots = 8

[slurm]
partition = "gpu"
gpus_per_job = 4
cpus_per_job = 32
time_limit = "02:00:00"
account = "ddp-course"
extra_sbatch = ["--qos=course", "--constraint=h100"]
setup = ["module load cuda/12.4"]
log_dir = "/shared/lockstep/pilots"

[worker]
args = ["--poll=0.5"]
"#;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(text, Path::new("pilots.toml"))
    }

    #[test]
    fn the_batch_script_asks_for_what_the_config_says() {
        let config = parse(EXAMPLE).unwrap();
        assert_eq!(
            config.batch_script(),
            "#!/bin/bash
#SBATCH --job-name=lockstep-pilot
#SBATCH --partition=gpu
#SBATCH --time=02:00:00
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --gres=gpu:4
#SBATCH --cpus-per-task=32
#SBATCH --account=ddp-course
#SBATCH --output=/shared/lockstep/pilots/%x-%j.out
#SBATCH --qos=course
#SBATCH --constraint=h100
module load cuda/12.4
exec '/shared/lockstep/bin/gpu-runner' worker --server='https://lockstep.example.org' \
--name=\"${SLURMD_NODENAME}/slurm-${SLURM_JOB_ID}\" --node=\"${SLURMD_NODENAME}\" \
--idle-exit=120 --claim-for=5400 '--poll=0.5'
"
        );
    }

    #[test]
    fn a_cpu_partition_asks_for_no_gpus() {
        let config = parse(
            r#"server = "http://127.0.0.1:3000"
runner = "/opt/it's/gpu-runner"
[slurm]
partition = "debug"
time_limit = "20"
"#,
        )
        .unwrap();
        let script = config.batch_script();
        assert!(!script.contains("--gres"), "{script}");
        assert!(script.contains(r"exec '/opt/it'\''s/gpu-runner' worker"), "{script}");
        // 20 minutes, less half of them.
        assert!(script.contains("--claim-for=600\n"), "{script}");
        assert_eq!(config.max_pilots, 4);
    }

    #[test]
    fn mistakes_name_their_field() {
        let with =
            |from: &str, to: &str| parse(&EXAMPLE.replace(from, to)).unwrap_err().to_string();
        assert!(with("02:00:00", "2h").contains("`slurm.time_limit`"));
        assert!(with("\"gpu\"", "\"gpu a\"").contains("`slurm.partition`"));
        assert!(with("--qos=course", "qos=course").contains("`slurm.extra_sbatch`"));
        assert!(with("max_pilots = 8", "max_pilots = 0").contains("`max_pilots`"));
        assert!(with("https://lockstep", "lockstep").contains("`server`"));
        assert!(with("max_pilots = 8", "max_pilot = 8").contains("unknown field"));
        let worker = |line: &str| with("[worker]\n", &format!("[worker]\n{line}\n"));
        assert!(worker("idle_exit_seconds = nan").contains("`worker.idle_exit_seconds`"));
        assert!(worker("claim_for_seconds = -1.0").contains("`worker.claim_for_seconds`"));
    }

    #[test]
    fn slurm_time_limits() {
        let t = time_limit_seconds;
        assert_eq!(t("30"), Some(1800.0));
        assert_eq!(t("30:15"), Some(1815.0));
        assert_eq!(t("2:00:00"), Some(7200.0));
        assert_eq!(t("1-0"), Some(86400.0));
        assert_eq!(t("1-2:30"), Some(86400.0 + 9000.0));
        assert_eq!(t("1-2:30:05"), Some(86400.0 + 9005.0));
        for bad in ["", "0", "a", "1:2:3:4", "-5", "1-", "1-2:3:4:5", "infinite"] {
            assert_eq!(t(bad), None, "{bad}");
        }
    }
}
