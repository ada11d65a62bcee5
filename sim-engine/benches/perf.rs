//! Figures the sim-engine issue asks for, printed one per line (median of several runs):
//!
//!   cargo bench -p sim-engine --bench perf
//!
//! - `sampler_10m_ms`: `DistributedSampler` over 10,000,000 samples (shuffle, 8 replicas,
//!   rank 3): randperm, padding and the rank stride, as one epoch's `list(sampler)` needs.
//! - `randperm_10m_ms`: the permutation alone, the part comparable with `torch.randperm`.
//! - `ring_schedule_1024_ms`: who sends which chunk to whom in every step of a 1,024-rank ring.
//!
//! `sim-engine/benches/sampler_vs_torch.sh` runs this beside torch.randperm and prints the ratio.

use std::hint::black_box;
use std::time::Instant;

use sim_engine::allreduce::ring_schedule;
use sim_engine::rng::{randperm, Mt19937};
use sim_engine::sampler::DistributedSampler;

fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

fn main() {
    let sampler = DistributedSampler::new(10_000_000, 8, 3, true, 0, false).unwrap();
    let ms = median_ms(7, || {
        black_box(sampler.indices(black_box(1)).unwrap());
    });
    println!("sampler_10m_ms {ms:.1}");
    let ms = median_ms(7, || {
        black_box(randperm(10_000_000, &mut Mt19937::new(black_box(1))));
    });
    println!("randperm_10m_ms {ms:.1}");
    let ms = median_ms(21, || {
        black_box(ring_schedule(black_box(1024)));
    });
    println!("ring_schedule_1024_ms {ms:.2}");
}
