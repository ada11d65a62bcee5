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
        let total: f64 = self.done.iter().map(|(_, s, _)| s).sum();
        println!("\nxtask: time by stage");
        for (name, secs, ok) in &self.done {
            println!("  {name:<28} {secs:>8.1} s{}", if *ok { "" } else { "  FAILED" });
        }
        println!("  {:<28} {total:>8.1} s", "total");
    }
}
