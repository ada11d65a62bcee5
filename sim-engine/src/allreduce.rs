//! All-reduce on real data, step by step: the ring that NCCL and gloo use for large tensors,
//! and for comparison a naive all-to-a-master-then-broadcast and a binomial tree.
//!
//! **Ring.** The tensor is cut into N chunks (the first `len % N` chunks one element longer,
//! like `numpy.array_split`). In reduce-scatter step `s`, rank `r` sends chunk `(r − s) mod N`
//! to rank `r + 1`, which adds it to its own copy; after N−1 steps rank `r` holds the complete
//! sum of chunk `(r + 1) mod N`. In all-gather step `s`, rank `r` forwards chunk
//! `(r + 1 − s) mod N`, which the receiver stores. Every rank sends 2(N−1) chunks, 2(N−1)/N of
//! the tensor.
//!
//! **Naive.** Ranks 1…N−1 send their whole tensor to rank 0 one after another (its link takes
//! one at a time), rank 0 adds each, then sends the sum back to each: 2(N−1) steps of the full
//! tensor through one device.
//!
//! **Tree.** A binomial tree: in reduce step `k`, every rank `r` with `r mod 2^(k+1) = 2^k`
//! sends to `r − 2^k`, which adds; the broadcast runs the same edges backwards. 2⌈log₂N⌉ steps
//! of the full tensor.
//!
//! Sums are accumulated in f32 in the algorithm's order, so every rank ends with the same bits
//! and the result equals the element-wise sum up to rounding. Where the sum does not depend on
//! the order (two ranks, or values whose sums are exact in f32) it equals gloo's bit for bit;
//! gloo pipelines its ring over 2N segments, so otherwise the last bit can differ.
//!
//! The `mean` is what DDP computes: each rank multiplies its gradient by `1/N` (rounded to f32)
//! as it copies it into the bucket, and the bucket is then summed (`Reducer::mark_variable_ready_dense`).

use std::ops::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Ring, first half: partial sums travel round the ring.
    ReduceScatter,
    /// Ring, second half: finished chunks travel round the ring.
    AllGather,
    /// Naive and tree: whole tensors move towards rank 0, which ends with the sum.
    Reduce,
    /// Naive and tree: the sum moves out from rank 0.
    Broadcast,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::ReduceScatter => "reduce-scatter",
            Phase::AllGather => "all-gather",
            Phase::Reduce => "reduce",
            Phase::Broadcast => "broadcast",
        }
    }

    /// Whether the receiver adds what it receives (otherwise it overwrites).
    pub fn adds(self) -> bool {
        matches!(self, Phase::ReduceScatter | Phase::Reduce)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Algorithm {
    Ring,
    Naive,
    Tree,
}

impl Algorithm {
    pub const ALL: [Algorithm; 3] = [Algorithm::Ring, Algorithm::Naive, Algorithm::Tree];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Ring => "ring",
            Algorithm::Naive => "naive",
            Algorithm::Tree => "tree",
        }
    }

    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Steps for `n` ranks: 2(N−1) for ring and naive, 2⌈log₂N⌉ for the tree.
    pub fn steps(self, n: usize) -> usize {
        match self {
            Algorithm::Ring | Algorithm::Naive => 2 * n.saturating_sub(1),
            Algorithm::Tree => 2 * tree_levels(n),
        }
    }
}

/// ⌈log₂ n⌉, the depth of a binomial tree over `n` ranks.
pub fn tree_levels(n: usize) -> usize {
    if n <= 1 {
        0
    } else {
        (usize::BITS - (n - 1).leading_zeros()) as usize
    }
}

/// One chunk moving between two ranks in one step.
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
pub struct AllReduce {
    pub algorithm: Algorithm,
    /// The element ranges that move as units: N chunks for the ring, the whole tensor otherwise.
    pub chunks: Vec<Range<usize>>,
    pub steps: Vec<Step>,
    /// Each rank's final vector: the sum.
    pub sum: Vec<Vec<f32>>,
    /// DDP's average: every input multiplied by `1/N` in f32, then summed in the same order.
    pub mean: Vec<Vec<f32>>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AllReduceError {
    #[error("all-reduce needs at least one rank")]
    NoRanks,
    #[error(
        "rank {rank} holds {got} values but rank 0 holds {expected}: all-reduce needs equal shapes"
    )]
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

pub fn allreduce(algorithm: Algorithm, inputs: &[Vec<f32>]) -> Result<AllReduce, AllReduceError> {
    let n = inputs.len();
    if n == 0 {
        return Err(AllReduceError::NoRanks);
    }
    let len = inputs[0].len();
    if let Some((rank, v)) = inputs.iter().enumerate().find(|(_, v)| v.len() != len) {
        return Err(AllReduceError::ShapeMismatch { rank, expected: len, got: v.len() });
    }
    let chunks = match algorithm {
        Algorithm::Ring => chunk_ranges(len, n),
        Algorithm::Naive | Algorithm::Tree => chunk_ranges(len, 1),
    };
    let plan = plan(algorithm, n);
    let (steps, sum) = execute(&plan, &chunks, inputs.to_vec());
    // What DDP multiplies each gradient by: the double 1/N, as the f32 the kernel computes with.
    let scale = (1.0 / n as f64) as f32;
    let scaled = inputs.iter().map(|v| v.iter().map(|x| x * scale).collect()).collect();
    let (_, mean) = execute(&plan, &chunks, scaled);
    Ok(AllReduce { algorithm, chunks, steps, sum, mean })
}

pub fn ring_allreduce(inputs: &[Vec<f32>]) -> Result<AllReduce, AllReduceError> {
    allreduce(Algorithm::Ring, inputs)
}

/// The sends of one step: `(from, to, chunk)`.
type Sends = Vec<(usize, usize, usize)>;

/// The sends of every step.
fn plan(algorithm: Algorithm, n: usize) -> Vec<(Phase, Sends)> {
    match algorithm {
        Algorithm::Ring => (0..2 * (n - 1))
            .map(|step| {
                let phase = if step < n - 1 { Phase::ReduceScatter } else { Phase::AllGather };
                (
                    phase,
                    (0..n).map(|from| (from, (from + 1) % n, chunk_sent(n, from, step))).collect(),
                )
            })
            .collect(),
        Algorithm::Naive => {
            let reduce = (1..n).map(|r| (Phase::Reduce, vec![(r, 0, 0)]));
            let broadcast = (1..n).map(|r| (Phase::Broadcast, vec![(0, r, 0)]));
            reduce.chain(broadcast).collect()
        }
        Algorithm::Tree => {
            let levels = tree_levels(n);
            let edges = |k: usize| -> Vec<(usize, usize)> {
                let half = 1 << k;
                (half..n).step_by(2 * half).map(|r| (r, r - half)).collect()
            };
            let reduce = (0..levels)
                .map(|k| (Phase::Reduce, edges(k).into_iter().map(|(r, p)| (r, p, 0)).collect()));
            let broadcast = (0..levels).rev().map(|k| {
                (Phase::Broadcast, edges(k).into_iter().map(|(r, p)| (p, r, 0)).collect())
            });
            reduce.chain(broadcast).collect()
        }
    }
}

fn execute(
    plan: &[(Phase, Sends)],
    chunks: &[Range<usize>],
    mut data: Vec<Vec<f32>>,
) -> (Vec<Step>, Vec<Vec<f32>>) {
    let mut steps = Vec::with_capacity(plan.len());
    for (phase, sends) in plan {
        // All sends of a step happen at once: read every sender's values before any write.
        let transfers: Vec<Transfer> = sends
            .iter()
            .map(|&(from, to, chunk)| Transfer {
                from,
                to,
                chunk,
                values: data[from][chunks[chunk].clone()].to_vec(),
            })
            .collect();
        for t in &transfers {
            let dest = &mut data[t.to][chunks[t.chunk].clone()];
            if phase.adds() {
                dest.iter_mut().zip(&t.values).for_each(|(d, v)| *d += v);
            } else {
                dest.copy_from_slice(&t.values);
            }
        }
        steps.push(Step { phase: *phase, transfers, after: data.clone() });
    }
    (steps, data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_close(got: &[f32], expected: &[f32]) {
        assert_eq!(got.len(), expected.len());
        for (g, e) in got.iter().zip(expected) {
            assert!((g - e).abs() <= 1e-6 * e.abs().max(1.0), "{got:?} vs {expected:?}");
        }
    }

    #[test]
    fn three_ranks_worked_example() {
        let r = ring_allreduce(&[
            vec![1.0, 2.0, 3.0],
            vec![10.0, 20.0, 30.0],
            vec![100.0, 200.0, 300.0],
        ])
        .unwrap();
        assert_eq!(r.steps.len(), 4);
        // Step 1: rank 0 sends chunk 0 to rank 1, rank 1 chunk 1 to rank 2, rank 2 chunk 2 to rank 0.
        let sent: Vec<(usize, usize, usize)> =
            r.steps[0].transfers.iter().map(|t| (t.from, t.to, t.chunk)).collect();
        assert_eq!(sent, vec![(0, 1, 0), (1, 2, 1), (2, 0, 2)]);
        assert_eq!(
            r.steps[0].after,
            vec![vec![1.0, 2.0, 303.0], vec![11.0, 20.0, 30.0], vec![100.0, 220.0, 300.0]]
        );
        // After reduce-scatter rank r owns the full sum of chunk r + 1.
        assert_eq!(r.steps[1].after[0][1], 222.0);
        assert_eq!(r.steps[1].after[1][2], 333.0);
        assert_eq!(r.steps[1].after[2][0], 111.0);
        for v in &r.sum {
            assert_eq!(v, &vec![111.0, 222.0, 333.0]);
        }
        // DDP's mean multiplies by f32(1/3) before summing, so it is off by rounding.
        assert_close(&r.mean[0], &[37.0, 74.0, 111.0]);
    }

    /// The table in lessons/ddp/03-ddp-allreduce.md, "Ring all-reduce, step by step", row by row.
    #[test]
    fn lesson_three_table() {
        let r = ring_allreduce(&[vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0], vec![7.0, 8.0, 9.0]])
            .unwrap();
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
        assert_close(&r.mean[1], &[4.0, 5.0, 6.0]);
    }

    #[test]
    fn naive_goes_through_rank_zero() {
        let r =
            allreduce(Algorithm::Naive, &[vec![1.0, 2.0], vec![10.0, 20.0], vec![100.0, 200.0]])
                .unwrap();
        let sends: Vec<(Phase, usize, usize)> = r
            .steps
            .iter()
            .flat_map(|s| s.transfers.iter().map(move |t| (s.phase, t.from, t.to)))
            .collect();
        use Phase::{Broadcast, Reduce};
        assert_eq!(
            sends,
            vec![(Reduce, 1, 0), (Reduce, 2, 0), (Broadcast, 0, 1), (Broadcast, 0, 2)]
        );
        assert_eq!(r.steps[1].after[0], vec![111.0, 222.0]);
        assert_eq!(r.steps[2].after[1], vec![111.0, 222.0]);
        assert_eq!(r.steps[2].after[2], vec![100.0, 200.0], "rank 2 waits for the last step");
        assert!(r.sum.iter().all(|v| v == &vec![111.0, 222.0]));
        assert_eq!(r.chunks, vec![0..2]);
    }

    #[test]
    fn tree_is_binomial() {
        let inputs: Vec<Vec<f32>> = (0..6).map(|r| vec![r as f32]).collect();
        let r = allreduce(Algorithm::Tree, &inputs).unwrap();
        let edges: Vec<Vec<(usize, usize)>> =
            r.steps.iter().map(|s| s.transfers.iter().map(|t| (t.from, t.to)).collect()).collect();
        assert_eq!(
            edges,
            vec![
                vec![(1, 0), (3, 2), (5, 4)],
                vec![(2, 0)],
                vec![(4, 0)],
                vec![(0, 4)],
                vec![(0, 2)],
                vec![(0, 1), (2, 3), (4, 5)],
            ]
        );
        assert_eq!(r.steps[2].after[0], vec![15.0]);
        assert!(r.sum.iter().all(|v| v == &vec![15.0]));
        assert_eq!([1, 2, 3, 4, 5, 8, 9].map(tree_levels), [0, 1, 2, 2, 3, 3, 4]);
    }

    #[test]
    fn invariants_for_many_shapes() {
        for n in 1usize..10 {
            for len in [0, 1, n.saturating_sub(1), n, 3 * n + 2, 17] {
                let inputs: Vec<Vec<f32>> = (0..n)
                    .map(|r| (0..len).map(|i| ((r * 31 + i * 7) % 13) as f32 - 6.0).collect())
                    .collect();
                let out = ring_allreduce(&inputs).unwrap();
                assert_eq!(out.steps.len(), 2 * (n - 1));
                // Small integers sum exactly in f32, whatever the order.
                let expected: Vec<f32> =
                    (0..len).map(|i| inputs.iter().map(|v| v[i]).sum()).collect();
                for v in &out.sum {
                    assert_eq!(v, &expected, "n={n} len={len}");
                }
                // Each rank sends 2(N−1) chunks: 2(N−1)/N of the tensor when N divides it.
                for rank in 0..n {
                    let sent: usize = out
                        .steps
                        .iter()
                        .flat_map(|s| &s.transfers)
                        .filter(|t| t.from == rank)
                        .map(|t| t.values.len())
                        .sum();
                    if len % n == 0 {
                        assert_eq!(sent * n, 2 * (n - 1) * len, "n={n} len={len} rank={rank}");
                    }
                    let sends = out
                        .steps
                        .iter()
                        .flat_map(|s| &s.transfers)
                        .filter(|t| t.from == rank)
                        .count();
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
        let e = allreduce(Algorithm::Tree, &[vec![1.0, 2.0], vec![1.0]]).unwrap_err();
        assert_eq!(e, AllReduceError::ShapeMismatch { rank: 1, expected: 2, got: 1 });
        assert_eq!(ring_allreduce(&[]).unwrap_err(), AllReduceError::NoRanks);
    }
}
