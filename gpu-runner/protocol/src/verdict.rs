//! The verdict on one script, and the plain-text report `gpu-runner grade` prints.

use serde::{Deserialize, Serialize};

use crate::{Check, CheckStatus, Enforced, RunReport, Settings};

pub const SCHEMA: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

impl Status {
    /// As serialized: `pass`, `fail`, `error`, `timeout`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Error => "error",
            Status::Timeout => "timeout",
        }
    }
}

/// Where an `error` verdict points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorInfo {
    pub message: String,
    pub file: Option<String>,
    pub line: Option<u32>,
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
    pub enforced: Enforced,
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
        s.push_str(&format!(
            "{} with {} processes, backend {}\n",
            self.script, self.nproc, self.backend
        ));
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
            s.push_str(&format!("[{mark}] {:<22} {}\n", c.id.as_str(), c.message));
            if let Some(h) = &c.hint {
                s.push_str(&format!("       {:<22} hint: {h}\n", ""));
                let url =
                    lockstep_routes::lesson_section(&c.section.lesson, Some(&c.section.heading));
                s.push_str(&format!("       {:<22} see {url}\n", ""));
            }
        }
        for r in &self.runs {
            s.push_str(&format!(
                "\nrun: {} × {} ({}), {:.1} s{}{}\n",
                r.nproc,
                r.role.as_str(),
                r.backend.as_deref().unwrap_or("no process group"),
                r.wall_s,
                if r.timed_out { ", timed out" } else { "" },
                r.retried_because
                    .as_deref()
                    .map(|w| format!(", repeated: {w}"))
                    .unwrap_or_default()
            ));
        }
        s
    }
}
