//! The test command's time by stage, printed at the end of the run (also when a stage failed,
//! for the stages that ran), so a change that makes CI slower shows where.

use std::time::Instant;

pub struct Stages {
    done: Vec<(&'static str, f64, bool)>,
    summary: Option<String>,
}

impl Stages {
    pub fn new() -> Stages {
        Stages { done: Vec::new(), summary: None }
    }

    /// Runs one stage and records how long it took and whether it succeeded.
    pub fn time<T, E>(
        &mut self,
        name: &'static str,
        stage: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, E> {
        let started = Instant::now();
        let result = stage();
        self.done.push((name, started.elapsed().as_secs_f64(), result.is_ok()));
        result
    }

    pub fn set_summary(&mut self, summary: String) {
        self.summary = (!summary.is_empty()).then_some(summary);
    }

    pub fn summary(&self) -> Option<&str> {
        self.summary.as_deref()
    }

    pub fn print(&self) {
        print!("\n{}", self.table());
    }

    /// One line per stage that ran, in order, then the total.
    fn table(&self) -> String {
        use std::fmt::Write;

        let total: f64 = self.done.iter().map(|(_, s, _)| s).sum();
        let mut out = String::from("xtask: time by stage\n");
        for (name, secs, ok) in &self.done {
            let failed = if *ok { "" } else { "  FAILED" };
            let _ = writeln!(out, "  {name:<28} {secs:>8.1} s{failed}");
        }
        let _ = writeln!(out, "  {:<28} {total:>8.1} s", "total");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Stages;

    #[test]
    fn a_failed_stage_is_timed_and_marked_and_later_stages_do_not_appear() {
        let mut stages = Stages::new();
        let run = |stages: &mut Stages| -> Result<(), String> {
            stages.time("set-up", || Ok::<_, String>(()))?;
            stages.time("rustfmt --check", || Err("unformatted".to_string()))?;
            stages.time("cargo test", || Ok::<_, String>(()))
        };
        assert_eq!(run(&mut stages), Err("unformatted".to_string()));
        let table = stages.table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        assert!(lines[1].trim_start().starts_with("set-up") && lines[1].ends_with(" s"), "{table}");
        assert!(lines[2].contains("rustfmt --check") && lines[2].ends_with("FAILED"), "{table}");
        assert!(lines[3].trim_start().starts_with("total"), "{table}");
        assert_eq!(stages.summary(), None);
        stages.set_summary("summary: 1 passed, 0 failed, 0 skipped".into());
        assert_eq!(stages.summary(), Some("summary: 1 passed, 0 failed, 0 skipped"));
    }
}
