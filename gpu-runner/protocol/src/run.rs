//! What the verdict says about each `torchrun` it made: the settings, the limits, how each rank
//! ended and where the CPU time went.

use serde::{Deserialize, Serialize};

/// Why a run was made: the graded N-process run (and its repeats for the speedup), or one
/// process alone, which the speedup is measured against; for `survive-a-crash`, the N-process
/// run left alone and the one the runner kills a rank of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunRole {
    Ddp,
    Single,
    Uninterrupted,
    Interrupted,
}

impl RunRole {
    pub const ALL: [RunRole; 4] =
        [RunRole::Ddp, RunRole::Single, RunRole::Uninterrupted, RunRole::Interrupted];

    /// The role named `name` (`ddp`), as an exercise's declaration names it.
    pub fn named(name: &str) -> Option<RunRole> {
        RunRole::ALL.into_iter().find(|r| r.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RunRole::Ddp => "ddp",
            RunRole::Single => "single",
            RunRole::Uninterrupted => "uninterrupted",
            RunRole::Interrupted => "interrupted",
        }
    }
}

/// Resource limits for one sandboxed run. The defaults suit the course's exercise on a small
/// machine: two CPU processes of torch use about 1 GiB.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Memory for the whole job (every rank together), without swap.
    pub memory_bytes: u64,
    /// Processes and threads for the whole job.
    pub pids: u32,
    /// The largest file any process may write, its logs included: a flood of output is cut
    /// here.
    pub file_bytes: u64,
    /// Wall-clock time for one run, after which the whole tree is killed.
    pub wall_s: f64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { memory_bytes: 4 << 30, pids: 512, file_bytes: 64 << 20, wall_s: 300.0 }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub nproc: u32,
    /// Threads per process (`OMP_NUM_THREADS`, `torch.set_num_threads`), the same for every
    /// run so that one process is not given the whole machine while N share it.
    pub threads: u32,
    /// The process-group timeout the harness imposes: how long a rank waits in a collective
    /// before it fails.
    pub pg_timeout_s: f64,
    pub limits: Limits,
}

/// What one rank did, as the launcher saw it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankRun {
    pub rank: u32,
    /// The exit code, or `None` when it was killed.
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    /// Killed by the launcher or the wall clock before it could report.
    pub killed: bool,
    pub stdout_tail: String,
    pub stderr_tail: String,
}

/// Where the CPU time went while a job ran: to the job itself (its cgroup's accounting), and to
/// anything else on the CPUs the job could use: other processes, and a hypervisor's steal. The
/// second says whether a timing was taken on a busy machine.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CpuTime {
    pub job_s: f64,
    pub others_s: f64,
}

/// Which limits cgroups enforced on the host that ran the job.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Enforced {
    pub memory: bool,
    pub pids: bool,
    /// `v1`, `v2`, or `None` where the runner could create no cgroup.
    pub cgroup: Option<String>,
}

/// One torchrun as the verdict reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    pub role: RunRole,
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
    pub cpu: Option<CpuTime>,
    /// What the run measured of its training, for the learner to hold against the cost
    /// model's prediction; absent in verdicts from runners before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<Measured>,
}

/// A run's training as the harness measured it: per rank, each complete pass over the
/// DataLoader the script trained with, and the model DDP wrapped.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// In rank order.
    pub ranks: Vec<RankEpochs>,
    /// The first model wrapped in DDP, if any was.
    pub model: Option<ModelShape>,
    /// The training DataLoader's `batch_size` (per process) and its dataset's length.
    pub batch_size: Option<u64>,
    pub dataset_len: Option<u64>,
    /// The training sampler, as the first pass saw it: `DistributedSampler`, `RandomSampler`, …
    pub sampler: Option<String>,
    /// Whether the sampler's epoch changed from one pass to the next (`set_epoch` was called).
    pub epoch_changed: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RankEpochs {
    pub rank: u32,
    pub epochs: Vec<EpochMeasure>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EpochMeasure {
    pub seconds: f64,
    /// Steps (batches) in the pass.
    pub batches: u64,
    pub samples: u64,
    /// The mean of the scalar losses `backward()` was called on during the pass.
    pub loss: Option<f64>,
}

/// The model DDP wrapped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelShape {
    /// Trainable values.
    pub numel: u64,
    /// Its `nn.Linear` layers in order, as (in, out) features: when they chain and hold all
    /// its parameters, the model is an MLP the cost model can time.
    pub linears: Vec<(u64, u64)>,
    /// The median time of an all-reduce of all its parameters' size, measured when DDP
    /// was constructed.
    pub allreduce_ms: Option<f64>,
    /// `cpu`, `cuda:0`, …
    pub device: Option<String>,
}

impl ModelShape {
    /// The MLP's widths (input, then each layer's output), when the linear layers chain and
    /// hold every parameter (weights and biases).
    pub fn mlp_widths(&self) -> Option<Vec<u64>> {
        let first = self.linears.first()?;
        let mut widths = vec![first.0];
        for (i, &(inp, out)) in self.linears.iter().enumerate() {
            if i > 0 && inp != widths[i] {
                return None;
            }
            widths.push(out);
        }
        let numel: u64 = self.linears.iter().map(|(i, o)| i * o + o).sum();
        (numel == self.numel).then_some(widths)
    }
}
