//! All of the supervisor's IO with Slurm, behind one trait: `sbatch`, `squeue`, `scancel`.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::plan::{parse_squeue, SlurmJob, SQUEUE_FORMAT};

#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    #[error("cannot run {command}: {source}")]
    Spawn { command: &'static str, source: std::io::Error },
    #[error("{command} failed ({status}): {stderr}")]
    Failed { command: &'static str, status: std::process::ExitStatus, stderr: String },
    #[error("{command} printed what this version cannot read: {what}")]
    Output { command: &'static str, what: String },
}

pub trait Batch {
    /// Submits `script` (`sbatch --parsable`); the new job's id.
    fn submit(&self, script: &str) -> Result<String, SlurmError>;
    /// This user's jobs called `name`.
    fn jobs_named(&self, name: &str) -> Result<Vec<SlurmJob>, SlurmError>;
    /// Every user's pending jobs in `partition`.
    fn pending_in(&self, partition: &str) -> Result<Vec<SlurmJob>, SlurmError>;
    fn cancel(&self, job: &str) -> Result<(), SlurmError>;
}

/// The real Slurm, through its commands on `PATH` (and `SLURM_CONF`, when set).
pub struct Slurm;

fn run(command: &'static str, args: &[&str], stdin: Option<&str>) -> Result<String, SlurmError> {
    let mut child = Command::new(command)
        .args(args)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| SlurmError::Spawn { command, source })?;
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().expect("piped");
        pipe.write_all(text.as_bytes()).map_err(|source| SlurmError::Spawn { command, source })?;
    }
    let out = child.wait_with_output().map_err(|source| SlurmError::Spawn { command, source })?;
    if !out.status.success() {
        return Err(SlurmError::Failed {
            command,
            status: out.status,
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn squeue(args: &[&str]) -> Result<Vec<SlurmJob>, SlurmError> {
    let format = format!("--format={SQUEUE_FORMAT}");
    let mut all = vec!["--noheader", format.as_str()];
    all.extend_from_slice(args);
    parse_squeue(&run("squeue", &all, None)?)
        .map_err(|what| SlurmError::Output { command: "squeue", what })
}

impl Batch for Slurm {
    fn submit(&self, script: &str) -> Result<String, SlurmError> {
        let out = run("sbatch", &["--parsable"], Some(script))?;
        // `--parsable` prints `id` or `id;cluster`.
        let id = out.trim().split(';').next().unwrap_or_default().to_string();
        if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
            return Err(SlurmError::Output { command: "sbatch", what: out });
        }
        Ok(id)
    }

    fn jobs_named(&self, name: &str) -> Result<Vec<SlurmJob>, SlurmError> {
        squeue(&["--me", &format!("--name={name}")])
    }

    fn pending_in(&self, partition: &str) -> Result<Vec<SlurmJob>, SlurmError> {
        squeue(&["--states=PENDING", &format!("--partition={partition}")])
    }

    fn cancel(&self, job: &str) -> Result<(), SlurmError> {
        run("scancel", &[job], None).map(drop)
    }
}
