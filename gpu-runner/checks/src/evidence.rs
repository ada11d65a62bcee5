//! Everything the checks judge, gathered into plain values. The runner fills these in from a
//! run's files (records, logs, and tensors it compares with tch); the checks never touch a
//! file, so each can be tested on evidence made up to reach a corner that real runs reach
//! only slowly or not at all.

use grading_protocol::{CpuTime, RankRun};

use crate::record::RankRecord;

/// What one `torchrun` showed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunEvidence {
    /// Processes started.
    pub nproc: u32,
    /// Each rank's records, in rank order.
    pub records: Vec<RankRecord>,
    /// Each rank's whole stdout (up to the file-size limit), in rank order.
    pub stdout: Vec<String>,
    /// How each rank ended, as the launcher saw it, with the tails of its output.
    pub ranks: Vec<RankRun>,
    /// The end of torchrun's own output.
    pub launcher_tail: String,
    pub wall_s: f64,
    pub timed_out: bool,
    /// Where the CPU time went, where the host accounts for it.
    pub cpu: Option<CpuTime>,
    /// The ranks' final parameters compared with rank 0's; `None` when not every rank saved
    /// any (see [`RankRecord::params`]) or when the tensors were not read for this run.
    pub final_params: Option<FinalParams>,
    /// Whether the checkpoint [`crate::checkpoint::chosen`] picks holds the same tensors as its
    /// rank's final parameters (after dropping a `module.` prefix); `None` where either could
    /// not be read.
    pub checkpoint_equals_final: Option<bool>,
}

/// Each rank's final parameters against rank 0's.
#[derive(Debug, Clone, PartialEq)]
pub struct FinalParams {
    /// Rank 0's tensors and values; `None` when its file could not be read.
    pub reference: Option<ParamsSize>,
    /// Ranks 1 and up, in order: how each differs from rank 0; `None` where its file could not
    /// be read.
    pub others: Vec<(u32, Option<Difference>)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamsSize {
    pub tensors: usize,
    pub values: u64,
}

/// How one state dict differs from another.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// Every name in both, every value bit for bit equal.
    pub identical: bool,
    /// The tensor that differs most and by how much (largest absolute difference; infinite
    /// for a shape mismatch).
    pub worst: Option<(String, f64)>,
}

impl RunEvidence {
    /// Cores' worth of other work on the machine, on average, while the run ran (when known).
    pub fn others_cores(&self) -> Option<f64> {
        self.cpu.map(|c| c.others_s / self.wall_s.max(1e-9))
    }

    /// The backend the ranks initialised, if any did.
    pub fn backend(&self) -> Option<&str> {
        self.records.iter().find_map(|r| r.init().map(|(b, _, _)| b))
    }
}

/// Everything a verdict's checks are judged on: the graded N-process runs (the first is the
/// one most checks look at; the rest are repeats for the speedup) and the 1-process runs the
/// speedup is measured against.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    pub ddp: Vec<RunEvidence>,
    /// Empty when the N-process run could not be timed (then `speedup` is skipped).
    pub single: Vec<RunEvidence>,
    pub min_speedup: f64,
    /// How many extra pairs of runs were made because the machine was busy.
    pub remeasured: u32,
    /// Why the speedup was not timed at all, when the grade was asked not to time it.
    pub not_timed: Option<grading_protocol::Said>,
}
