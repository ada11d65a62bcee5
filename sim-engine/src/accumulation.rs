//! Gradient accumulation under DDP: the all-reduces of one optimizer step of `k` micro-batches,
//! with and without `no_sync`.
//!
//! What is counted is what PyTorch 2.13 does, not an assumption:
//! - a backward pass that follows a forward of the wrapper outside `no_sync` all-reduces every
//!   bucket once (`Reducer::mark_bucket_ready` launches one collective per bucket, which a
//!   registered comm hook sees as one call);
//! - a forward inside `with ddp_model.no_sync():` sets `require_backward_grad_sync = False`, so
//!   `_pre_forward` does not prepare the reducer, its autograd hooks return at once and the
//!   gradients accumulate in `.grad` on each rank alone (`torch/nn/parallel/distributed.py`);
//! - in the steady state (from the second iteration on) the buckets are the rebuilt ones of
//!   [`crate::buckets::rebuilt_buckets`].
//!
//! `tests/torch_fixtures.rs` counts comm hook calls per optimizer step in real DDP against
//! [`Accumulation::allreduces`]. Times come from the α–β model of [`crate::cost`] (ring), one
//! all-reduce per bucket; they leave out the overlap with backward, which hides part of the
//! cost without `no_sync` and none of the count.

use crate::allreduce::Algorithm;
use crate::buckets::{rebuilt_buckets, Bucket, BucketCap};
use crate::cost::{allreduce, Link};
use crate::model::Mlp;

/// Largest accumulation a page shows: beyond it the micro-batch row stops being readable.
pub const MAX_STEPS: usize = 64;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AccumulationError {
    #[error("accumulation steps must be between 1 and {MAX_STEPS}, got {0}")]
    Steps(usize),
    #[error("a DDP job needs at least one rank")]
    NoRanks,
}

/// One optimizer step's worth of micro-batches.
#[derive(Debug, Clone, PartialEq)]
pub struct AccumulationConfig {
    pub model: Mlp,
    /// Micro-batches per optimizer step (`k`, "accumulation steps").
    pub steps: usize,
    pub ranks: usize,
    /// Samples per micro-batch on each rank.
    pub micro_batch: usize,
    pub bucket_cap: BucketCap,
    pub link: Link,
}

/// One micro-batch of the step: does its backward all-reduce?
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MicroBatch {
    /// With `no_sync` around the first `k − 1`: only the last one synchronizes.
    pub syncs_with_no_sync: bool,
}

/// The communication of one optimizer step, both ways.
#[derive(Debug, Clone, PartialEq)]
pub struct Accumulation {
    pub buckets: Vec<Bucket>,
    pub micro_batches: Vec<MicroBatch>,
    /// `micro_batch × steps × ranks`: the samples one optimizer step averages over.
    pub global_batch: u64,
    /// Without `no_sync`, with it.
    pub allreduces: (u64, u64),
    /// Bytes each rank sends in the ring all-reduces, without and with `no_sync`.
    pub bytes_sent_per_rank: (f64, f64),
    /// α–β time of those all-reduces, without and with `no_sync`.
    pub comm_s: (f64, f64),
}

impl Accumulation {
    /// All-reduces `no_sync` saves per optimizer step.
    pub fn saved(&self) -> u64 {
        self.allreduces.0 - self.allreduces.1
    }
}

pub fn simulate(cfg: &AccumulationConfig) -> Result<Accumulation, AccumulationError> {
    if cfg.steps == 0 || cfg.steps > MAX_STEPS {
        return Err(AccumulationError::Steps(cfg.steps));
    }
    if cfg.ranks == 0 {
        return Err(AccumulationError::NoRanks);
    }
    let sizes: Vec<u64> = cfg.model.parameters().iter().map(|p| p.bytes()).collect();
    let buckets = rebuilt_buckets(&sizes, &cfg.model.grad_ready_order(), cfg.bucket_cap);
    let k = cfg.steps as u64;
    let per_backward = buckets.len() as u64;
    let n = cfg.ranks as f64;
    // A ring all-reduce sends 2(N−1) chunks of S/N from every rank.
    let sent: f64 = buckets.iter().map(|b| 2.0 * (n - 1.0) * b.bytes as f64 / n).sum();
    let time: f64 = buckets
        .iter()
        .map(|b| allreduce(Algorithm::Ring, b.bytes as f64, cfg.ranks, cfg.link).time_s)
        .sum();
    let micro_batches =
        (0..cfg.steps).map(|i| MicroBatch { syncs_with_no_sync: i + 1 == cfg.steps }).collect();
    Ok(Accumulation {
        global_batch: cfg.micro_batch as u64 * k * cfg.ranks as u64,
        allreduces: (per_backward * k, per_backward),
        bytes_sent_per_rank: (sent * k as f64, sent),
        comm_s: (time * k as f64, time),
        buckets,
        micro_batches,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::NVLINK4_H100;

    fn cfg(widths: Vec<usize>, steps: usize, ranks: usize) -> AccumulationConfig {
        AccumulationConfig {
            model: Mlp::new(widths).unwrap(),
            steps,
            ranks,
            micro_batch: 32,
            bucket_cap: BucketCap::default(),
            link: NVLINK4_H100,
        }
    }

    /// Lesson 3's model rebuilds into 2 buckets: 4 micro-batches all-reduce 8 times without
    /// `no_sync` and twice with it.
    #[test]
    fn counts_per_optimizer_step() {
        let a = simulate(&cfg(vec![784, 1024, 1024, 10], 4, 8)).unwrap();
        assert_eq!(a.buckets.len(), 2);
        assert_eq!(a.allreduces, (8, 2));
        assert_eq!(a.saved(), 6);
        assert_eq!(a.global_batch, 32 * 4 * 8);
        let flags: Vec<bool> = a.micro_batches.iter().map(|m| m.syncs_with_no_sync).collect();
        assert_eq!(flags, [false, false, false, true]);
        // 7,454,760 bytes of gradients, 2·7/8 of it sent per all-reduce round.
        assert!((a.bytes_sent_per_rank.1 - 7_454_760.0 * 1.75).abs() < 1e-6);
        assert!((a.bytes_sent_per_rank.0 - 4.0 * a.bytes_sent_per_rank.1).abs() < 1e-6);
        assert!((a.comm_s.0 - 4.0 * a.comm_s.1).abs() < 1e-15);
    }

    #[test]
    fn one_step_or_one_rank() {
        let a = simulate(&cfg(vec![10, 10], 1, 4)).unwrap();
        assert_eq!((a.allreduces, a.saved()), ((1, 1), 0));
        let single = simulate(&cfg(vec![10, 10], 4, 1)).unwrap();
        assert_eq!(single.bytes_sent_per_rank, (0.0, 0.0));
        assert_eq!(single.comm_s, (0.0, 0.0));
    }

    #[test]
    fn rejects_what_a_page_cannot_show() {
        assert_eq!(simulate(&cfg(vec![2, 2], 0, 2)), Err(AccumulationError::Steps(0)));
        assert_eq!(simulate(&cfg(vec![2, 2], 65, 2)), Err(AccumulationError::Steps(65)));
        assert_eq!(simulate(&cfg(vec![2, 2], 2, 0)), Err(AccumulationError::NoRanks));
    }
}
