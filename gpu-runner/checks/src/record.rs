//! What the harness recorded on each rank: one JSON object per line in `rank{R}.jsonl`.
//!
//! The field names are the harness's (`gpu-runner/harness/lockstep_harness.py`), documented for
//! check authors in `gpu-runner/EVIDENCE.md` (change both together); a line that
//! does not parse is kept as [`Event::Unreadable`] instead of failing the job, since a rank
//! killed in the middle of a write leaves half a line.

use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Event {
    Start {
        rank: u32,
        world: u32,
        torch: String,
        cuda_devices: u32,
        threads: u32,
        time: f64,
        /// torchrun's `TORCHELASTIC_RESTART_COUNT`: 0 for the first attempt.
        #[serde(default)]
        restart: u32,
    },
    SyntaxError {
        line: Option<u32>,
        offset: Option<u32>,
        message: String,
        text: String,
    },
    Init {
        backend: String,
        rank: u32,
        world: u32,
        site: Option<String>,
        time: f64,
    },
    InitError {
        backend: Option<String>,
        site: Option<String>,
        reason: String,
        error: String,
    },
    Ddp {
        index: u32,
        params: u32,
        numel: u64,
        allreduce_ms: Option<f64>,
        device: Option<String>,
        /// Its `nn.Linear` layers, (in, out) features, in module order.
        #[serde(default)]
        linears: Vec<(u64, u64)>,
        site: Option<String>,
    },
    Pass(Pass),
    CollEnter {
        op: String,
        seq: u64,
        site: Option<String>,
        time: f64,
    },
    CollExit {
        op: String,
        seq: u64,
        ok: bool,
        #[serde(default)]
        error: Option<String>,
        time: f64,
    },
    Save {
        path: String,
        prefix: Option<String>,
        keys: Option<Vec<String>>,
        site: Option<String>,
        #[serde(default)]
        tensors: Option<String>,
    },
    SaveError {
        error: String,
    },
    Params {
        index: u32,
        file: String,
        when: String,
        forwards: u64,
        #[serde(default)]
        source: ParamsSource,
    },
    ParamsError {
        index: u32,
        error: String,
    },
    DestroyEnter {
        site: Option<String>,
    },
    DestroyExit {},
    Exception {
        #[serde(rename = "type")]
        kind: String,
        message: String,
        site: Option<String>,
    },
    End {
        status: String,
        code: i64,
    },
    /// The runner's planned failure: this rank killed itself (SIGKILL) as it was about to read
    /// batch `batch` (1-based) of pass `pass` of loader `loader`.
    Crash {
        loader: u32,
        pass: u32,
        batch: u64,
    },
    #[serde(skip)]
    Unreadable(String),
}

/// One pass over a DataLoader on one rank.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Pass {
    pub loader: u32,
    pub number: u32,
    pub start: f64,
    pub end: f64,
    pub batches: u64,
    pub samples: u64,
    pub complete: bool,
    pub indices: Vec<i64>,
    pub dataset_len: Option<u64>,
    pub sampler: Sampler,
    pub batch_size: Option<u64>,
    pub site: Option<String>,
    /// The mean scalar loss `backward()` was called on during the pass.
    #[serde(default)]
    pub loss: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Sampler {
    pub kind: String,
    pub epoch: Option<i64>,
    pub num_replicas: Option<u32>,
    pub rank: Option<u32>,
    pub shuffle: Option<bool>,
    pub seed: Option<i64>,
    pub drop_last: Option<bool>,
}

/// Whose parameters a params file holds: a DDP model's, or (in a script without DDP) what an
/// optimizer updates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamsSource {
    #[default]
    Ddp,
    Optimizer,
}

/// The last parameters saved for one model on one rank.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params<'a> {
    pub source: ParamsSource,
    pub index: u32,
    pub file: &'a str,
    /// How often the DDP model itself ran forward (0 for an optimizer's parameters).
    pub forwards: u64,
}

/// Everything one rank recorded, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RankRecord {
    pub rank: u32,
    pub events: Vec<Event>,
}

impl RankRecord {
    /// Parses a rank's `rank{R}.jsonl`. Never fails: what cannot be read is kept as
    /// [`Event::Unreadable`].
    pub fn parse(rank: u32, text: &str) -> RankRecord {
        let events = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                serde_json::from_str(l)
                    .unwrap_or_else(|_| Event::Unreadable(l.chars().take(200).collect()))
            })
            .collect();
        RankRecord { rank, events }
    }

    /// One record per attempt, in order: torchrun restarts every rank after a failure, and
    /// each attempt appends to the same file from its own `start`.
    pub fn attempts(&self) -> Vec<RankRecord> {
        let mut out: Vec<RankRecord> = Vec::new();
        for e in &self.events {
            if matches!(e, Event::Start { .. }) || out.is_empty() {
                out.push(RankRecord { rank: self.rank, events: Vec::new() });
            }
            out.last_mut().expect("pushed above").events.push(e.clone());
        }
        out
    }

    /// The planned crash, if this rank went through it.
    pub fn crash(&self) -> Option<(u32, u32, u64)> {
        self.events.iter().find_map(|e| match e {
            Event::Crash { loader, pass, batch } => Some((*loader, *pass, *batch)),
            _ => None,
        })
    }

    pub fn started(&self) -> bool {
        self.events.iter().any(|e| matches!(e, Event::Start { .. }))
    }

    pub fn init(&self) -> Option<(&str, u32, u32)> {
        self.events.iter().find_map(|e| match e {
            Event::Init { backend, rank, world, .. } => Some((backend.as_str(), *rank, *world)),
            _ => None,
        })
    }

    pub fn end(&self) -> Option<(&str, i64)> {
        self.events.iter().rev().find_map(|e| match e {
            Event::End { status, code } => Some((status.as_str(), *code)),
            _ => None,
        })
    }

    /// Whether the script ran to its end without an exception or a non-zero exit.
    pub fn ended_well(&self) -> bool {
        matches!(self.end(), Some(("ok", 0)))
    }

    pub fn passes(&self) -> impl Iterator<Item = &Pass> {
        self.events.iter().filter_map(|e| match e {
            Event::Pass(p) => Some(p),
            _ => None,
        })
    }

    /// The DataLoader the script trained with: the one passed over most often (the largest
    /// dataset on a tie), as (loader index, its complete passes in order).
    pub fn training_passes(&self) -> Vec<&Pass> {
        // Per loader: (complete passes, dataset length).
        let mut loaders: std::collections::BTreeMap<u32, (usize, u64)> = Default::default();
        for p in self.passes() {
            let entry = loaders.entry(p.loader).or_default();
            entry.0 += usize::from(p.complete);
            entry.1 = entry.1.max(p.dataset_len.unwrap_or(0));
        }
        // On a tie, the loader created first.
        let Some((&loader, _)) = loaders.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        else {
            return Vec::new();
        };
        self.passes().filter(|p| p.loader == loader && p.complete).collect()
    }

    pub fn ddp(&self) -> Vec<(u32, Option<f64>, u64)> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Ddp { index, allreduce_ms, numel, .. } => {
                    Some((*index, *allreduce_ms, *numel))
                }
                _ => None,
            })
            .collect()
    }

    /// The last parameters file saved for each model: DDP models first, in order of
    /// construction, then optimizers.
    pub fn params(&self) -> Vec<Params<'_>> {
        let mut out: Vec<Params> = Vec::new();
        for e in &self.events {
            if let Event::Params { index, file, forwards, source, .. } = e {
                out.retain(|p| (p.source, p.index) != (*source, *index));
                out.push(Params { source: *source, index: *index, file, forwards: *forwards });
            }
        }
        out.sort_by_key(|p| (p.source, p.index));
        out
    }

    pub fn saves(&self) -> impl Iterator<Item = &Event> {
        self.events.iter().filter(|e| matches!(e, Event::Save { .. }))
    }

    /// A collective this rank entered and never left: (op, call site).
    pub fn stuck_in(&self) -> Option<(&str, Option<&str>)> {
        let mut open: Vec<(u64, &str, Option<&str>)> = Vec::new();
        for e in &self.events {
            match e {
                Event::CollEnter { op, seq, site, .. } => open.push((*seq, op, site.as_deref())),
                Event::CollExit { seq, ok: true, .. } => open.retain(|(s, _, _)| s != seq),
                _ => {}
            }
        }
        open.last().map(|(_, op, site)| (*op, *site))
    }

    /// A collective that failed on this rank (timed out, or its peers went away).
    pub fn failed_collective(&self) -> Option<(&str, Option<&str>, &str)> {
        let mut sites = std::collections::HashMap::new();
        for e in &self.events {
            match e {
                Event::CollEnter { seq, site, .. } => {
                    sites.insert(*seq, site.as_deref());
                }
                Event::CollExit { op, seq, ok: false, error, .. } => {
                    return Some((
                        op.as_str(),
                        sites.get(seq).copied().flatten(),
                        error.as_deref().unwrap_or(""),
                    ));
                }
                _ => {}
            }
        }
        None
    }

    pub fn collectives(&self) -> Vec<(&str, Option<&str>)> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::CollEnter { op, site, .. } => Some((op.as_str(), site.as_deref())),
                _ => None,
            })
            .collect()
    }

    pub fn exception(&self) -> Option<(&str, &str, Option<&str>)> {
        self.events.iter().find_map(|e| match e {
            Event::Exception { kind, message, site } => {
                Some((kind.as_str(), message.as_str(), site.as_deref()))
            }
            _ => None,
        })
    }

    pub fn in_destroy_or_done(&self) -> bool {
        self.events.iter().any(|e| matches!(e, Event::DestroyEnter { .. } | Event::End { .. }))
    }
}
