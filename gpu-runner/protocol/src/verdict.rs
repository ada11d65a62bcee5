//! The verdict on one script, and the plain-text report `gpu-runner grade` prints.

use serde::{Deserialize, Serialize};

use lockstep_lang::{say, words};
use lockstep_routes::Lang;

#[cfg(feature = "words")]
use crate::Said;
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
    /// `message` as a sentence; absent from older verdicts.
    #[cfg(feature = "words")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub words: Option<Said>,
}

impl ErrorInfo {
    /// The error of `said`, its English text kept as `message`.
    #[cfg(feature = "words")]
    pub fn new(said: Said, file: Option<String>, line: Option<u32>) -> ErrorInfo {
        ErrorInfo { message: said.say(Lang::En), file, line, words: Some(said) }
    }

    /// The message in `lang`, as [`Check::message_in`].
    pub fn message_in(&self, lang: Lang) -> String {
        #[cfg(feature = "words")]
        if let Some(w) = &self.words {
            return w.say(lang);
        }
        let _ = lang;
        self.message.clone()
    }
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
    /// One sentence for the learner, in English.
    pub summary: String,
    /// `summary` as a sentence; absent from older verdicts.
    #[cfg(feature = "words")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary_words: Option<Said>,
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
    /// The summary in `lang`, as [`Check::message_in`].
    pub fn summary_in(&self, lang: Lang) -> String {
        #[cfg(feature = "words")]
        if let Some(w) = &self.summary_words {
            return w.say(lang);
        }
        let _ = lang;
        self.summary.clone()
    }

    /// The verdict with all its text worded in `lang` and its sentences dropped, as
    /// [`Check::in_language`].
    #[cfg(feature = "words")]
    pub fn in_language(mut self, lang: Lang) -> Verdict {
        self.summary = self.summary_in(lang);
        self.summary_words = None;
        if let Some(e) = &mut self.error {
            e.message = e.message_in(lang);
            e.words = None;
        }
        self.checks = self.checks.into_iter().map(|c| c.in_language(lang)).collect();
        self
    }

    /// The readable report `gpu-runner grade` prints without `--json`, in English.
    pub fn report(&self) -> String {
        self.report_in(Lang::En, &|c| c.section.url())
    }

    /// The readable report in `lang`; `section_url` is where a failed check's lesson section
    /// is read in that language (only the course knows a translation's heading ids).
    pub fn report_in(&self, lang: Lang, section_url: &dyn Fn(&Check) -> String) -> String {
        let mut s = String::new();
        let status = match self.status {
            Status::Pass => words! { En: "PASS", Ko: "통과" },
            Status::Fail => words! { En: "FAIL", Ko: "실패" },
            Status::Error => words! { En: "ERROR", Ko: "오류" },
            Status::Timeout => words! { En: "TIMEOUT", Ko: "시간 초과" },
        };
        s.push_str(&format!("{}: {}\n", status.get(lang), self.summary_in(lang)));
        let (script, nproc, backend) = (&self.script, self.nproc, &self.backend);
        s.push_str(&say(
            lang,
            &[
                (Lang::En, &|| format!("{script} with {nproc} processes, backend {backend}\n")),
                (Lang::Ko, &|| format!("{script}, 프로세스 {nproc}개, backend {backend}\n")),
            ],
        ));
        if let Some(e) = &self.error {
            let at = match (&e.file, e.line) {
                (Some(f), Some(l)) => format!("{f}:{l}: "),
                (Some(f), None) => format!("{f}: "),
                _ => String::new(),
            };
            s.push_str(&format!("\n{at}{}\n", e.message_in(lang)));
        }
        if !self.checks.is_empty() {
            s.push('\n');
        }
        let hint = words! { En: "hint", Ko: "힌트" }.get(lang);
        let see = words! { En: "see", Ko: "참고" }.get(lang);
        for c in &self.checks {
            let mark = match c.status {
                CheckStatus::Pass => "ok  ",
                CheckStatus::Fail => "FAIL",
                CheckStatus::Skip => "skip",
            };
            s.push_str(&format!("[{mark}] {:<22} {}\n", c.id.as_str(), c.message_in(lang)));
            if let Some(h) = c.hint_in(lang) {
                s.push_str(&format!("       {:<22} {hint}: {h}\n", ""));
                s.push_str(&format!("       {:<22} {see} {}\n", "", section_url(c)));
            }
        }
        for r in &self.runs {
            let backend = r
                .backend
                .as_deref()
                .unwrap_or(words! { En: "no process group", Ko: "process group 없음" }.get(lang));
            let timed_out = words! { En: ", timed out", Ko: ", 시간 초과" }.get(lang);
            let repeated = words! { En: "repeated", Ko: "다시 실행한 이유" }.get(lang);
            s.push_str(&format!(
                "\nrun: {} × {} ({backend}), {:.1} s{}{}\n",
                r.nproc,
                r.role.as_str(),
                r.wall_s,
                if r.timed_out { timed_out } else { "" },
                r.retried_because
                    .as_deref()
                    .map(|w| format!(", {repeated}: {w}"))
                    .unwrap_or_default()
            ));
        }
        s
    }
}
