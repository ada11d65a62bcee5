//! `torch.utils.data.distributed.DistributedSampler` without shuffling.
//!
//! Mirrors `DistributedSampler.__init__` and `__iter__` in PyTorch 2.13
//! (`torch/utils/data/distributed.py`):
//!
//! ```text
//! if drop_last and len % R != 0: num_samples = ceil((len - R) / R)
//! else:                          num_samples = ceil(len / R)
//! total_size = num_samples * R
//! indices = list(range(len))                       # randperm(len, g) when shuffling
//! if not drop_last: pad by repeating indices from the start until total_size
//! else:             indices = indices[:total_size]
//! return indices[rank:total_size:R]
//! ```

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SamplerError {
    /// PyTorch raises `ValueError("Invalid rank {rank}, rank should be in the interval [0, {R - 1}]")`.
    #[error("Invalid rank {rank}, rank should be in the interval [0, {}]", .num_replicas.saturating_sub(1))]
    InvalidRank { rank: usize, num_replicas: usize },
    /// PyTorch fails with a division by zero; here it is an error up front.
    #[error("num_replicas must be at least 1")]
    NoReplicas,
}

/// Number of indices each rank receives (`DistributedSampler.num_samples`).
pub fn num_samples(len: usize, num_replicas: usize, drop_last: bool) -> usize {
    if drop_last && len % num_replicas != 0 {
        // ceil((len - R) / R), which is 0 when len < R, as Python's math.ceil gives.
        (len.saturating_sub(num_replicas)).div_ceil(num_replicas)
    } else {
        len.div_ceil(num_replicas)
    }
}

/// The indices `rank` iterates in one epoch with `shuffle=False`.
pub fn unshuffled_indices(
    len: usize,
    num_replicas: usize,
    rank: usize,
    drop_last: bool,
) -> Result<Vec<usize>, SamplerError> {
    if num_replicas == 0 {
        return Err(SamplerError::NoReplicas);
    }
    if rank >= num_replicas {
        return Err(SamplerError::InvalidRank { rank, num_replicas });
    }
    let total = num_samples(len, num_replicas, drop_last) * num_replicas;
    // Position i of the padded (or truncated) list holds index i % len: padding repeats the list
    // from its start, as many times as needed.
    Ok((rank..total).step_by(num_replicas).map(|i| i % len.max(1)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Outputs of torch 2.13's DistributedSampler(range(10), num_replicas=4, rank=r,
    // shuffle=False, drop_last=...), the worked example of lesson 4.
    #[test]
    fn ten_samples_four_replicas() {
        let padded: Vec<Vec<usize>> = (0..4).map(|r| unshuffled_indices(10, 4, r, false).unwrap()).collect();
        assert_eq!(padded, vec![vec![0, 4, 8], vec![1, 5, 9], vec![2, 6, 0], vec![3, 7, 1]]);
        let dropped: Vec<Vec<usize>> = (0..4).map(|r| unshuffled_indices(10, 4, r, true).unwrap()).collect();
        assert_eq!(dropped, vec![vec![0, 4], vec![1, 5], vec![2, 6], vec![3, 7]]);
    }

    #[test]
    fn padding_can_wrap_more_than_once() {
        // len 2, 5 replicas: padded list is [0, 1, 0, 1, 0].
        let all: Vec<usize> = (0..5).flat_map(|r| unshuffled_indices(2, 5, r, false).unwrap()).collect();
        assert_eq!(all, vec![0, 1, 0, 1, 0]);
        assert!(unshuffled_indices(2, 5, 0, true).unwrap().is_empty());
    }

    #[test]
    fn shards_cover_the_dataset() {
        for len in 1..40 {
            for r in 1..9 {
                let mut seen = vec![0usize; len];
                for rank in 0..r {
                    let shard = unshuffled_indices(len, r, rank, false).unwrap();
                    assert_eq!(shard.len(), num_samples(len, r, false));
                    for i in shard {
                        seen[i] += 1;
                    }
                }
                assert!(seen.iter().all(|&c| c >= 1), "len {len} replicas {r}: every index is seen");
                let extra: usize = seen.iter().map(|c| c - 1).sum();
                assert_eq!(extra, len.div_ceil(r) * r - len, "only the padding repeats");
            }
        }
    }

    #[test]
    fn invalid_rank_reads_like_pytorch() {
        let e = unshuffled_indices(10, 4, 4, false).unwrap_err();
        assert_eq!(e.to_string(), "Invalid rank 4, rank should be in the interval [0, 3]");
        assert_eq!(unshuffled_indices(10, 0, 0, false).unwrap_err(), SamplerError::NoReplicas);
    }
}
