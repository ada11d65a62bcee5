//! Ring all-reduce on real data, step by step, as NCCL and gloo run it for large tensors:
//! a reduce-scatter of N−1 steps, then an all-gather of N−1 steps.
//!
//! The tensor is cut into N chunks (the first `len % N` chunks one element longer, like
//! `numpy.array_split`). In reduce-scatter step `s`, rank `r` sends chunk `(r − s) mod N` to
//! rank `r + 1`, which adds it to its own copy; after N−1 steps rank `r` holds the complete sum
//! of chunk `(r + 1) mod N`. In all-gather step `s`, rank `r` forwards chunk `(r + 1 − s) mod N`,
//! which the receiver stores. Every rank sends 2(N−1) chunks, 2(N−1)/N of the tensor.
//!
//! Sums are accumulated in f32 in ring order, so the result is identical on every rank and
//! equals the element-wise sum up to float rounding (summation order differs from a plain loop).

use std::ops::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    ReduceScatter,
    AllGather,
}

/// One chunk moving between neighbours in one step.
#[derive(Debug, Clone, PartialEq)]
pub struct Transfer {
    pub from: usize,
    pub to: usize,
    pub chunk: usize,
    /// The values sent (the sender's copy of the chunk before the step).
    pub values: Vec<f32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub phase: Phase,
    pub transfers: Vec<Transfer>,
    /// Every rank's whole vector after the step.
    pub after: Vec<Vec<f32>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RingAllReduce {
    pub chunks: Vec<Range<usize>>,
    pub steps: Vec<Step>,
    /// Each rank's final vector: the sum.
    pub sum: Vec<Vec<f32>>,
    /// The sum divided by the number of ranks, as DDP averages gradients.
    pub mean: Vec<Vec<f32>>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RingError {
    #[error("a ring needs at least one rank")]
    NoRanks,
    #[error("rank {rank} holds {got} values but rank 0 holds {expected}: all-reduce needs equal shapes")]
    ShapeMismatch { rank: usize, expected: usize, got: usize },
}

/// `len` elements cut into `n` nearly equal chunks.
pub fn chunk_ranges(len: usize, n: usize) -> Vec<Range<usize>> {
    let (base, extra) = (len / n, len % n);
    let mut start = 0;
    (0..n)
        .map(|c| {
            let size = base + usize::from(c < extra);
            let r = start..start + size;
            start += size;
            r
        })
        .collect()
}

/// Which chunk rank `rank` sends in global step `step` (0 ≤ step < 2(N−1)).
pub fn chunk_sent(n: usize, rank: usize, step: usize) -> usize {
    if step < n - 1 {
        (rank + n - step % n) % n
    } else {
        (rank + 1 + n - (step - (n - 1)) % n) % n
    }
}

/// One send in a ring schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Send {
    pub from: u32,
    pub to: u32,
    pub chunk: u32,
}

/// Every send of every step for `n` ranks, without data: 2(n−1) steps of n sends, stored in one
/// allocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RingSchedule {
    pub ranks: usize,
    sends: Vec<Send>,
}

impl RingSchedule {
    pub fn steps(&self) -> usize {
        self.sends.len() / self.ranks.max(1)
    }

    pub fn step(&self, step: usize) -> &[Send] {
        &self.sends[step * self.ranks..(step + 1) * self.ranks]
    }
}

pub fn ring_schedule(n: usize) -> RingSchedule {
    let steps = 2 * n.saturating_sub(1);
    let n32 = n as u32;
    let mut sends = Vec::with_capacity(steps * n);
    for step in 0..steps {
        // Rank r sends chunk (r + offset) mod n; walk r upwards and wrap instead of dividing,
        // which keeps a 1,024-rank schedule (2 million sends) within a few milliseconds.
        let mut chunk = chunk_sent(n, 0, step) as u32;
        for from in 0..n32 {
            let to = if from + 1 == n32 { 0 } else { from + 1 };
            sends.push(Send { from, to, chunk });
            chunk = if chunk + 1 == n32 { 0 } else { chunk + 1 };
        }
    }
    RingSchedule { ranks: n, sends }
}

pub fn ring_allreduce(inputs: &[Vec<f32>]) -> Result<RingAllReduce, RingError> {
    let n = inputs.len();
    if n == 0 {
        return Err(RingError::NoRanks);
    }
    let len = inputs[0].len();
    if let Some((rank, v)) = inputs.iter().enumerate().find(|(_, v)| v.len() != len) {
        return Err(RingError::ShapeMismatch { rank, expected: len, got: v.len() });
    }
    let chunks = chunk_ranges(len, n);
    let mut data: Vec<Vec<f32>> = inputs.to_vec();
    let mut steps = Vec::with_capacity(2 * (n - 1));
    for step in 0..2 * (n - 1) {
        let phase = if step < n - 1 { Phase::ReduceScatter } else { Phase::AllGather };
        // All sends of a step happen at once: read every sender's values before any write.
        let transfers: Vec<Transfer> = (0..n)
            .map(|from| {
                let chunk = chunk_sent(n, from, step);
                Transfer { from, to: (from + 1) % n, chunk, values: data[from][chunks[chunk].clone()].to_vec() }
            })
            .collect();
        for t in &transfers {
            let dest = &mut data[t.to][chunks[t.chunk].clone()];
            match phase {
                Phase::ReduceScatter => dest.iter_mut().zip(&t.values).for_each(|(d, v)| *d += v),
                Phase::AllGather => dest.copy_from_slice(&t.values),
            }
        }
        steps.push(Step { phase, transfers, after: data.clone() });
    }
    let mean = data.iter().map(|v| v.iter().map(|x| x / n as f32).collect()).collect();
    Ok(RingAllReduce { chunks, steps, sum: data, mean })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_ranks_worked_example() {
        let r = ring_allreduce(&[vec![1.0, 2.0, 3.0], vec![10.0, 20.0, 30.0], vec![100.0, 200.0, 300.0]]).unwrap();
        assert_eq!(r.steps.len(), 4);
        // Step 1: rank 0 sends chunk 0 to rank 1, rank 1 chunk 1 to rank 2, rank 2 chunk 2 to rank 0.
        let sent: Vec<(usize, usize, usize)> = r.steps[0].transfers.iter().map(|t| (t.from, t.to, t.chunk)).collect();
        assert_eq!(sent, vec![(0, 1, 0), (1, 2, 1), (2, 0, 2)]);
        assert_eq!(r.steps[0].after, vec![vec![1.0, 2.0, 303.0], vec![11.0, 20.0, 30.0], vec![100.0, 220.0, 300.0]]);
        // After reduce-scatter rank r owns the full sum of chunk r + 1.
        assert_eq!(r.steps[1].after[0][1], 222.0);
        assert_eq!(r.steps[1].after[1][2], 333.0);
        assert_eq!(r.steps[1].after[2][0], 111.0);
        for v in &r.sum {
            assert_eq!(v, &vec![111.0, 222.0, 333.0]);
        }
        assert_eq!(r.mean[0], vec![37.0, 74.0, 111.0]);
    }

    /// The table in lessons/03-ddp-allreduce.md, "Ring all-reduce, step by step", row by row.
    #[test]
    fn lesson_three_table() {
        let r = ring_allreduce(&[vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0], vec![7.0, 8.0, 9.0]]).unwrap();
        let rows: Vec<Vec<Vec<f32>>> = r.steps.iter().map(|s| s.after.clone()).collect();
        assert_eq!(
            rows,
            vec![
                vec![vec![1.0, 2.0, 12.0], vec![5.0, 5.0, 6.0], vec![7.0, 13.0, 9.0]],
                vec![vec![1.0, 15.0, 12.0], vec![5.0, 5.0, 18.0], vec![12.0, 13.0, 9.0]],
                vec![vec![12.0, 15.0, 12.0], vec![5.0, 15.0, 18.0], vec![12.0, 13.0, 18.0]],
                vec![vec![12.0, 15.0, 18.0], vec![12.0, 15.0, 18.0], vec![12.0, 15.0, 18.0]],
            ]
        );
        assert_eq!(r.mean[1], vec![4.0, 5.0, 6.0]);
    }

    #[test]
    fn invariants_for_many_shapes() {
        for n in 1usize..10 {
            for len in [0, 1, n.saturating_sub(1), n, 3 * n + 2, 17] {
                let inputs: Vec<Vec<f32>> =
                    (0..n).map(|r| (0..len).map(|i| ((r * 31 + i * 7) % 13) as f32 - 6.0).collect()).collect();
                let out = ring_allreduce(&inputs).unwrap();
                assert_eq!(out.steps.len(), 2 * (n - 1));
                // Small integers sum exactly in f32, whatever the order.
                let expected: Vec<f32> = (0..len).map(|i| inputs.iter().map(|v| v[i]).sum()).collect();
                for v in &out.sum {
                    assert_eq!(v, &expected, "n={n} len={len}");
                }
                // Each rank sends 2(N−1) chunks: 2(N−1)/N of the tensor when N divides it.
                for rank in 0..n {
                    let sent: usize = out.steps.iter().flat_map(|s| &s.transfers).filter(|t| t.from == rank).map(|t| t.values.len()).sum();
                    if len % n == 0 {
                        assert_eq!(sent * n, 2 * (n - 1) * len, "n={n} len={len} rank={rank}");
                    }
                    let sends = out.steps.iter().flat_map(|s| &s.transfers).filter(|t| t.from == rank).count();
                    assert_eq!(sends, 2 * (n - 1));
                }
            }
        }
    }

    #[test]
    fn schedule_matches_the_data_run() {
        let inputs: Vec<Vec<f32>> = (0..5).map(|r| vec![r as f32; 7]).collect();
        let run = ring_allreduce(&inputs).unwrap();
        let schedule = ring_schedule(5);
        assert_eq!(schedule.steps(), run.steps.len());
        for (i, step) in run.steps.iter().enumerate() {
            let sends = schedule.step(i);
            let from_run: Vec<Send> = step
                .transfers
                .iter()
                .map(|t| Send { from: t.from as u32, to: t.to as u32, chunk: t.chunk as u32 })
                .collect();
            assert_eq!(sends, &from_run[..]);
        }
        assert_eq!(ring_schedule(1).steps(), 0);
    }

    #[test]
    fn shape_mismatch_is_an_error() {
        let e = ring_allreduce(&[vec![1.0, 2.0], vec![1.0]]).unwrap_err();
        assert_eq!(e, RingError::ShapeMismatch { rank: 1, expected: 2, got: 1 });
        assert_eq!(ring_allreduce(&[]).unwrap_err(), RingError::NoRanks);
    }
}
