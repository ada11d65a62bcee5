//! `torch.utils.data.distributed.DistributedSampler`, index for index.
//!
//! Mirrors `DistributedSampler.__init__` and `__iter__` in PyTorch 2.13
//! (`torch/utils/data/distributed.py`):
//!
//! ```text
//! if drop_last and len % R != 0: num_samples = ceil((len - R) / R)
//! else:                          num_samples = ceil(len / R)
//! total_size = num_samples * R
//! if shuffle: g = torch.Generator(); g.manual_seed(seed + epoch)
//!             indices = torch.randperm(len, generator=g).tolist()
//! else:       indices = list(range(len))
//! if not drop_last: pad by repeating indices from the start until total_size
//! else:             indices = indices[:total_size]
//! return indices[rank:total_size:R]
//! ```

use crate::rng::{randperm_compact, Mt19937, Permutation};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SamplerError {
    /// PyTorch raises `ValueError("Invalid rank {rank}, rank should be in the interval [0, {R - 1}]")`.
    #[error("Invalid rank {rank}, rank should be in the interval [0, {}]", .num_replicas - 1)]
    InvalidRank { rank: i64, num_replicas: usize },
    /// PyTorch fails later with a division by zero; here it is an error up front.
    #[error("num_replicas must be at least 1")]
    NoReplicas,
    /// `seed + epoch` outside [-2^63, 2^64): `g.manual_seed` raises this ValueError.
    #[error("Overflow when unpacking long long")]
    SeedOverflow,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DistributedSampler {
    pub len: usize,
    pub num_replicas: usize,
    pub rank: usize,
    pub shuffle: bool,
    /// Any Python int torch accepts; `seed + epoch` seeds the generator.
    pub seed: i64,
    pub drop_last: bool,
}

impl DistributedSampler {
    /// `DistributedSampler(dataset_of_len, num_replicas, rank, shuffle, seed, drop_last)`.
    pub fn new(
        len: usize,
        num_replicas: usize,
        rank: i64,
        shuffle: bool,
        seed: i64,
        drop_last: bool,
    ) -> Result<Self, SamplerError> {
        if num_replicas == 0 {
            return Err(SamplerError::NoReplicas);
        }
        if rank < 0 || rank as u64 >= num_replicas as u64 {
            return Err(SamplerError::InvalidRank { rank, num_replicas });
        }
        Ok(Self { len, num_replicas, rank: rank as usize, shuffle, seed, drop_last })
    }

    /// Indices this rank receives per epoch (`len(sampler)`).
    pub fn num_samples(&self) -> usize {
        let r = self.num_replicas;
        if self.drop_last && !self.len.is_multiple_of(r) {
            // ceil((len - R) / R), which is 0 when len < R, as Python's math.ceil gives.
            self.len.saturating_sub(r).div_ceil(r)
        } else {
            self.len.div_ceil(r)
        }
    }

    pub fn total_size(&self) -> usize {
        self.num_samples() * self.num_replicas
    }

    /// The indices this rank iterates in `epoch` (after `set_epoch(epoch)`).
    pub fn indices(&self, epoch: u64) -> Result<Vec<u64>, SamplerError> {
        Ok(self.indices_of(self.order(epoch)?.as_ref()))
    }

    /// The order of the whole dataset in `epoch`, before padding and sharding: the permutation
    /// `torch.randperm(len, generator=g)` gives (`None`: not shuffled, `range(len)`). It is the
    /// same on every rank of the same dataset, seed and epoch, so a view of every rank draws it
    /// once and gives it to each rank's `indices_of`.
    pub fn order(&self, epoch: u64) -> Result<Option<Permutation>, SamplerError> {
        if !self.shuffle {
            return Ok(None);
        }
        let mut rng = Mt19937::from_python_seed(self.seed as i128 + epoch as i128)
            .ok_or(SamplerError::SeedOverflow)?;
        Ok(Some(randperm_compact(self.len, &mut rng)))
    }

    /// This rank's indices of the dataset in the order `order` gave.
    pub fn indices_of(&self, order: Option<&Permutation>) -> Vec<u64> {
        if self.len == 0 {
            return Vec::new();
        }
        // Position i of the padded (or truncated) list holds order[i % len]: padding repeats the
        // list from its start as often as needed. Only this rank's positions are produced.
        let at = |i: usize| order.map_or((i % self.len) as u64, |p| p.get(i % self.len));
        (self.rank..self.total_size()).step_by(self.num_replicas).map(at).collect()
    }

    /// Whether the `k`-th index of this rank's shard is padding: a repeat of an index another
    /// position already holds, added so every rank gets `num_samples` (never with `drop_last`).
    pub fn is_padding(&self, k: usize) -> bool {
        self.rank + k * self.num_replicas >= self.len
    }

    /// The shard of each epoch in `epochs`, as a training loop sees it. With `set_epoch` false
    /// the loop never calls `sampler.set_epoch(epoch)`, so the sampler stays at epoch 0 and
    /// every epoch repeats the first epoch's order.
    pub fn epochs(
        &self,
        epochs: std::ops::Range<u64>,
        set_epoch: bool,
    ) -> Result<Vec<Vec<u64>>, SamplerError> {
        epochs.map(|e| self.indices(if set_epoch { e } else { 0 })).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(len: usize, r: usize, rank: i64, drop_last: bool) -> Vec<u64> {
        DistributedSampler::new(len, r, rank, false, 0, drop_last).unwrap().indices(0).unwrap()
    }

    // torch 2.13's DistributedSampler(range(10), num_replicas=4, rank=r, shuffle=False,
    // drop_last=...): the worked example of lesson 4.
    #[test]
    fn ten_samples_four_replicas() {
        let padded: Vec<Vec<u64>> = (0..4).map(|r| shard(10, 4, r, false)).collect();
        assert_eq!(padded, vec![vec![0, 4, 8], vec![1, 5, 9], vec![2, 6, 0], vec![3, 7, 1]]);
        let dropped: Vec<Vec<u64>> = (0..4).map(|r| shard(10, 4, r, true)).collect();
        assert_eq!(dropped, vec![vec![0, 4], vec![1, 5], vec![2, 6], vec![3, 7]]);
    }

    #[test]
    fn padding_can_wrap_more_than_once() {
        let all: Vec<u64> = (0..5).flat_map(|r| shard(2, 5, r, false)).collect();
        assert_eq!(all, vec![0, 1, 0, 1, 0]);
        assert!(shard(2, 5, 0, true).is_empty());
        assert!(shard(0, 3, 1, false).is_empty());
    }

    #[test]
    fn shards_cover_the_dataset_apart_from_padding() {
        for shuffle in [false, true] {
            for len in 1..40 {
                for r in 1..9 {
                    let mut seen = vec![0usize; len];
                    for rank in 0..r {
                        let s = DistributedSampler::new(len, r, rank as i64, shuffle, 7, false)
                            .unwrap();
                        let idx = s.indices(3).unwrap();
                        assert_eq!(idx.len(), s.num_samples());
                        for i in idx {
                            seen[i as usize] += 1;
                        }
                    }
                    assert!(seen.iter().all(|&c| c >= 1), "len {len} R {r}: every index is seen");
                    let extra: usize = seen.iter().map(|c| c - 1).sum();
                    assert_eq!(extra, len.div_ceil(r) * r - len, "only the padding repeats");
                }
            }
        }
    }

    #[test]
    fn padding_is_marked() {
        let s = DistributedSampler::new(10, 4, 2, false, 0, false).unwrap();
        let shard = s.indices(0).unwrap();
        let padding: Vec<bool> = (0..shard.len()).map(|k| s.is_padding(k)).collect();
        assert_eq!((shard, padding), (vec![2, 6, 0], vec![false, false, true]));
        let s = DistributedSampler::new(10, 4, 1, false, 0, false).unwrap();
        assert!((0..3).all(|k| !s.is_padding(k)), "rank 1 gets 1, 5, 9: no padding");
    }

    #[test]
    fn without_set_epoch_every_epoch_repeats() {
        let s = DistributedSampler::new(16, 2, 0, true, 0, false).unwrap();
        let fixed = s.epochs(0..3, false).unwrap();
        assert!(fixed.iter().all(|e| e == &fixed[0]));
        let moving = s.epochs(0..3, true).unwrap();
        assert_eq!(moving[0], fixed[0]);
        assert_ne!(moving[1], moving[0]);
        assert_ne!(moving[2], moving[1]);
    }

    #[test]
    fn order_changes_with_the_epoch_only_when_shuffling() {
        let s = DistributedSampler::new(100, 4, 1, true, 0, false).unwrap();
        assert_ne!(s.indices(0).unwrap(), s.indices(1).unwrap());
        assert_eq!(s.indices(1).unwrap(), s.indices(1).unwrap());
        let fixed = DistributedSampler::new(100, 4, 1, false, 0, false).unwrap();
        assert_eq!(fixed.indices(0).unwrap(), fixed.indices(1).unwrap());
        let late = DistributedSampler::new(10, 2, 0, true, i64::MAX, false).unwrap();
        assert_eq!(late.indices(u64::MAX).unwrap_err(), SamplerError::SeedOverflow);
    }

    #[test]
    fn invalid_rank_reads_like_pytorch() {
        let e = DistributedSampler::new(10, 4, 4, true, 0, false).unwrap_err();
        assert_eq!(e.to_string(), "Invalid rank 4, rank should be in the interval [0, 3]");
        let e = DistributedSampler::new(10, 4, -1, true, 0, false).unwrap_err();
        assert_eq!(e.to_string(), "Invalid rank -1, rank should be in the interval [0, 3]");
        assert_eq!(
            DistributedSampler::new(10, 0, 0, true, 0, false).unwrap_err(),
            SamplerError::NoReplicas
        );
    }
}
