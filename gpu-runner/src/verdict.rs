//! The result of grading one script: what `gpu-runner grade --json` prints and the web app's
//! worker stores. The schema is documented in `gpu-runner/RESULT.md`; `schema` changes when a
//! field's meaning does.

use serde::{Deserialize, Serialize};

use crate::launch::{RankRun, Settings};

pub const SCHEMA: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every required check passed.
    Pass,
    /// It ran, and at least one required check did not pass.
    Fail,
    /// Nothing could be graded: a syntax error, a backend this runner lacks, a crash before
    /// any rank got going.
    Error,
    /// The wall clock ran out.
    Timeout,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckStatus {
    Pass,
    Fail,
    /// Not evaluated: what it needs never happened (the message says what).
    Skip,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    /// Stable: the web app and lessons refer to checks by id.
    pub id: String,
    pub status: CheckStatus,
    pub required: bool,
    /// The evidence, in words, with the numbers.
    pub message: String,
    /// What to do about a failure; absent when it passed.
    pub hint: Option<String>,
    /// The lesson section that teaches it: `/lessons/SLUG#ANCHOR`.
    pub lesson: String,
}

/// Where an `error` verdict points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorInfo {
    pub message: String,
    pub file: Option<String>,
    pub line: Option<u32>,
}

/// One torchrun as the verdict reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// `ddp` (N processes) or `single` (1 process, for the speedup).
    pub role: String,
    pub nproc: u32,
    pub backend: Option<String>,
    pub command: Vec<String>,
    pub wall_s: f64,
    pub timed_out: bool,
    pub out_of_memory: bool,
    pub ranks: Vec<RankRun>,
    pub launcher_tail: String,
    /// Set when this run was repeated because the runtime, not the script, failed (the gloo
    /// teardown abort): why.
    pub retried_because: Option<String>,
    /// CPU seconds the job used, and those the rest of the machine used on the same CPUs
    /// meanwhile; absent where the host does not account for them.
    pub cpu: Option<crate::sandbox::CpuTime>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Versions {
    pub runner: String,
    pub torch: String,
    pub python: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub schema: u32,
    pub status: Status,
    /// One sentence for the learner.
    pub summary: String,
    pub script: String,
    pub nproc: u32,
    /// `nccl` with GPUs, `gloo` on CPU: what this runner offered.
    pub backend: String,
    pub error: Option<ErrorInfo>,
    pub checks: Vec<Check>,
    pub runs: Vec<RunReport>,
    pub settings: Settings,
    /// Which limits the host could enforce with cgroups.
    pub enforced: crate::sandbox::Enforced,
    pub versions: Versions,
}

impl Verdict {
    /// The readable report `gpu-runner grade` prints without `--json`.
    pub fn report(&self) -> String {
        let mut s = String::new();
        let status = match self.status {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Error => "ERROR",
            Status::Timeout => "TIMEOUT",
        };
        s.push_str(&format!("{status}: {}\n", self.summary));
        s.push_str(&format!("{} with {} processes, backend {}\n", self.script, self.nproc, self.backend));
        if let Some(e) = &self.error {
            let at = match (&e.file, e.line) {
                (Some(f), Some(l)) => format!("{f}:{l}: "),
                (Some(f), None) => format!("{f}: "),
                _ => String::new(),
            };
            s.push_str(&format!("\n{at}{}\n", e.message));
        }
        if !self.checks.is_empty() {
            s.push('\n');
        }
        for c in &self.checks {
            let mark = match c.status {
                CheckStatus::Pass => "ok  ",
                CheckStatus::Fail => "FAIL",
                CheckStatus::Skip => "skip",
            };
            s.push_str(&format!("[{mark}] {:<22} {}\n", c.id, c.message));
            if let Some(h) = &c.hint {
                s.push_str(&format!("       {:<22} hint: {h}\n", ""));
                s.push_str(&format!("       {:<22} see {}\n", "", c.lesson));
            }
        }
        for r in &self.runs {
            s.push_str(&format!(
                "\nrun: {} × {} ({}), {:.1} s{}{}\n",
                r.nproc,
                r.role,
                r.backend.as_deref().unwrap_or("no process group"),
                r.wall_s,
                if r.timed_out { ", timed out" } else { "" },
                r.retried_because.as_deref().map(|w| format!(", repeated: {w}")).unwrap_or_default()
            ));
        }
        s
    }
}
