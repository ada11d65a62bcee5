//! The test command's time by stage, printed at the end of the run (also when a stage failed,
//! for the stages that ran), so a change that makes CI slower shows where.

use std::time::Instant;

pub struct Stages {
    done: Vec<Stage>,
    summary: Option<String>,
}

struct Stage {
    name: &'static str,
    secs: f64,
    ok: bool,
    /// Ran beside another stage, within the pair's row: shown indented, not added to the total.
    within: bool,
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
        let (secs, ok) = (started.elapsed().as_secs_f64(), result.is_ok());
        self.done.push(Stage { name, secs, ok, within: false });
        result
    }

    /// Runs `a` and `b` at the same time, each on a thread of its own with stages of its own,
    /// and waits for both (when one fails, the other still ends, so its output is whole). The
    /// pair is one row timed as a whole; each side's stages follow it, indented.
    pub fn beside<A: Send, B: Send, E: Send>(
        &mut self,
        name: &'static str,
        a: impl FnOnce(&mut Stages) -> Result<A, E> + Send,
        b: impl FnOnce(&mut Stages) -> Result<B, E> + Send,
    ) -> Result<(A, B), E> {
        let started = Instant::now();
        let ((a, a_stages), (b, b_stages)) = std::thread::scope(|s| {
            let a = s.spawn(|| {
                let mut stages = Stages::new();
                (a(&mut stages), stages)
            });
            let mut stages = Stages::new();
            let b = (b(&mut stages), stages);
            (a.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), b)
        });
        let ok = a.is_ok() && b.is_ok();
        self.done.push(Stage { name, secs: started.elapsed().as_secs_f64(), ok, within: false });
        for stage in a_stages.done.into_iter().chain(b_stages.done) {
            self.done.push(Stage { within: true, ..stage });
        }
        Ok((a?, b?))
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

        let total: f64 = self.done.iter().filter(|s| !s.within).map(|s| s.secs).sum();
        let mut out = String::from("xtask: time by stage\n");
        for Stage { name, secs, ok, within } in &self.done {
            let failed = if *ok { "" } else { "  FAILED" };
            let indent = if *within { "  " } else { "" };
            let name = format!("{indent}{name}");
            let _ = writeln!(out, "  {name:<36} {secs:>8.1} s{failed}");
        }
        let _ = writeln!(out, "  {:<36} {total:>8.1} s", "total");
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

    #[test]
    fn stages_side_by_side_are_one_row_in_the_total_and_both_end_when_one_fails() {
        use std::time::Duration;

        let mut stages = Stages::new();
        stages.time("set-up", || Ok::<_, String>(())).unwrap();
        let pair = stages.beside(
            "wasm beside native",
            |s| s.time("bundle", || Err::<(), _>("wasm".to_string())),
            |s| {
                s.time("clippy", || Ok::<_, String>(()))?;
                s.time("build", || {
                    std::thread::sleep(Duration::from_millis(300));
                    Ok(7)
                })
            },
        );
        assert_eq!(pair, Err("wasm".to_string()));
        let table = stages.table();
        let lines: Vec<&str> = table.lines().collect();
        let row = |name: &str| {
            let line = lines.iter().find(|l| l.trim_start().starts_with(name)).unwrap();
            let words: Vec<&str> = line.split_whitespace().collect();
            let unit = words.iter().position(|w| *w == "s").unwrap();
            let secs: f64 = words[unit - 1].parse().unwrap();
            (line.to_string(), secs)
        };
        let (pair_row, pair_secs) = row("wasm beside native");
        assert!(pair_row.starts_with("  wasm") && pair_row.ends_with("FAILED"), "{table}");
        assert!(pair_secs >= 0.3, "the pair waited for its slower side: {table}");
        let (bundle, _) = row("bundle");
        assert!(bundle.starts_with("    bundle") && bundle.ends_with("FAILED"), "{table}");
        let (build, build_secs) = row("build");
        assert!(build.starts_with("    build") && !build.ends_with("FAILED"), "{table}");
        assert!(build_secs >= 0.3, "the side that did not fail ran to its end: {table}");
        let (_, total) = row("total");
        assert!((total - pair_secs).abs() < 0.1, "the pair is counted once: {table}");
    }
}
