//! How DDP groups gradients into buckets, as PyTorch 2.13 does it.
//!
//! `compute_bucket_assignment_by_size` (torch/csrc/distributed/c10d/reducer.cpp) walks the
//! tensors in a given order and adds each to the open bucket; as soon as the bucket's bytes
//! reach its limit the bucket is closed (so a bucket may exceed its limit by its last tensor)
//! and the next limit in the list applies, the last one repeating. The open bucket is closed at
//! the end. With no explicit order the buckets are sorted by their smallest tensor index.
//!
//! `DistributedDataParallel.__init__` (torch/nn/parallel/distributed.py) then:
//! - **first iteration**: with the default `find_unused_parameters=False`, the limits are
//!   `[sys.maxsize]`, so every parameter lands in **one bucket** and a single all-reduce runs
//!   after the whole backward;
//! - **rebuilt buckets**: during the first backward the reducer records the order in which
//!   gradients became ready, and before the second forward it re-buckets in that order with the
//!   limits `[first_bucket_bytes_cap, bucket_bytes_cap]`. With the default `bucket_cap_mb`
//!   (25 MiB) the first bucket is capped at `dist._DEFAULT_FIRST_BUCKET_BYTES` = 1 MiB so the
//!   first all-reduce starts early; with an explicit `bucket_cap_mb` both limits are that cap.
//!
//! `tests/torch_fixtures.rs` checks both against real DDP models.

/// `torch.nn.parallel.distributed._DEFAULT_BUCKET_CAP_MB`.
pub const DEFAULT_BUCKET_CAP_MB: f64 = 25.0;
/// `torch.distributed._DEFAULT_FIRST_BUCKET_BYTES`.
pub const DEFAULT_FIRST_BUCKET_BYTES: u64 = 1024 * 1024;
/// Python's `sys.maxsize` on 64-bit platforms: the "no limit" of the first iteration.
const NO_LIMIT: u64 = i64::MAX as u64;

/// DDP's `bucket_cap_mb` argument.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BucketCap {
    /// `None` is the default 25 MiB, which also enables the small first bucket.
    pub bucket_cap_mb: Option<f64>,
}

impl BucketCap {
    /// `int(bucket_cap_mb * 1024 * 1024)`.
    pub fn bucket_bytes_cap(self) -> u64 {
        (self.bucket_cap_mb.unwrap_or(DEFAULT_BUCKET_CAP_MB) * 1024.0 * 1024.0) as u64
    }

    pub fn first_bucket_bytes_cap(self) -> u64 {
        match self.bucket_cap_mb {
            None => DEFAULT_FIRST_BUCKET_BYTES,
            Some(_) => self.bucket_bytes_cap(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bucket {
    /// Parameter indices (into `model.parameters()`), in the bucket's order.
    pub params: Vec<usize>,
    pub bytes: u64,
    pub size_limit: u64,
}

/// `compute_bucket_assignment_by_size` for tensors of one dtype on one device. `bytes[i]` is
/// parameter `i`'s size; `order` lists the indices to walk (the gradient-ready order when DDP
/// rebuilds), or `None` for `0..n` followed by the sort by smallest index.
pub fn assign_by_size(bytes: &[u64], order: Option<&[usize]>, limits: &[u64]) -> Vec<Bucket> {
    let walk: Vec<usize> = order.map_or_else(|| (0..bytes.len()).collect(), <[usize]>::to_vec);
    let mut limit_at = 0;
    let mut result = Vec::new();
    let mut open = Bucket { params: Vec::new(), bytes: 0, size_limit: 0 };
    for i in walk {
        open.params.push(i);
        open.bytes += bytes[i];
        open.size_limit = limits[limit_at];
        if open.bytes >= open.size_limit {
            result.push(std::mem::replace(
                &mut open,
                Bucket { params: Vec::new(), bytes: 0, size_limit: 0 },
            ));
            limit_at = (limit_at + 1).min(limits.len() - 1);
        }
    }
    if !open.params.is_empty() {
        result.push(open);
    }
    if order.is_none() {
        result.sort_by_key(|b| b.params.iter().copied().min());
    }
    result
}

/// The buckets of the first iteration, in the order the reducer launches them.
pub fn first_iteration_buckets(param_bytes: &[u64]) -> Vec<Bucket> {
    let mut buckets = assign_by_size(param_bytes, None, &[NO_LIMIT]);
    // DDP passes `list(reversed(bucket_indices))` to the reducer: the last parameters'
    // gradients come first in backward.
    buckets.reverse();
    buckets
}

/// The buckets DDP rebuilds before the second forward, from the gradient-ready order.
pub fn rebuilt_buckets(param_bytes: &[u64], ready_order: &[usize], cap: BucketCap) -> Vec<Bucket> {
    assign_by_size(
        param_bytes,
        Some(ready_order),
        &[cap.first_bucket_bytes_cap(), cap.bucket_bytes_cap()],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Mlp;

    fn sizes(m: &Mlp) -> Vec<u64> {
        m.parameters().iter().map(|p| p.bytes()).collect()
    }

    /// The model of lesson 3; torch's `rebuilt_bucket_sizes` is "4239400, 3215360".
    #[test]
    fn lesson_model() {
        let m = Mlp::new(vec![784, 1024, 1024, 10]).unwrap();
        let first = first_iteration_buckets(&sizes(&m));
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].bytes, 7_454_760);
        let rebuilt = rebuilt_buckets(&sizes(&m), &m.grad_ready_order(), BucketCap::default());
        let got: Vec<(Vec<usize>, u64)> =
            rebuilt.into_iter().map(|b| (b.params, b.bytes)).collect();
        assert_eq!(got, vec![(vec![5, 4, 3, 2], 4_239_400), (vec![1, 0], 3_215_360)]);
    }

    #[test]
    fn limits_advance_and_the_last_repeats() {
        let b = assign_by_size(&[5, 5, 5, 5, 5, 5, 1], None, &[5, 10]);
        let got: Vec<Vec<usize>> = b.into_iter().map(|b| b.params).collect();
        assert_eq!(got, vec![vec![0], vec![1, 2], vec![3, 4], vec![5, 6]]);
    }

    #[test]
    fn explicit_cap_applies_to_the_first_bucket_too() {
        let cap = BucketCap { bucket_cap_mb: Some(0.5) };
        assert_eq!((cap.first_bucket_bytes_cap(), cap.bucket_bytes_cap()), (524_288, 524_288));
        let default = BucketCap::default();
        assert_eq!(
            (default.first_bucket_bytes_cap(), default.bucket_bytes_cap()),
            (1_048_576, 26_214_400)
        );
    }
}
