//! The invariants the lessons rely on, over random cases.

use std::collections::HashMap;

use proptest::prelude::*;
use sim_engine::allreduce::{allreduce, ring_allreduce, Algorithm};
use sim_engine::buckets::{assign_by_size, rebuilt_buckets, BucketCap};
use sim_engine::ddp::{self, DdpConfig, Iteration};
use sim_engine::dp::{self, torch_chunk_sizes, DpConfig};
use sim_engine::hardware::PRESETS;
use sim_engine::model::Mlp;
use sim_engine::sampler::DistributedSampler;
use sim_engine::timeline::single_device_s;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Shards are disjoint apart from padding and together cover the dataset; with drop_last
    /// they are disjoint and only the tail is dropped.
    #[test]
    fn sampler_shards_partition_the_dataset(
        len in 0usize..3000,
        replicas in 1usize..12,
        seed in -(1i64 << 62)..(1i64 << 62),
        epoch in 0u64..10,
        shuffle: bool,
        drop_last: bool,
    ) {
        let mut counts: HashMap<u64, usize> = HashMap::new();
        let mut total = 0;
        let mut per_rank = None;
        for rank in 0..replicas {
            let s = DistributedSampler::new(len, replicas, rank as i64, shuffle, seed, drop_last).unwrap();
            let shard = s.indices(epoch).unwrap();
            prop_assert_eq!(*per_rank.get_or_insert(shard.len()), shard.len(), "every rank gets as many samples");
            prop_assert_eq!(shard.len(), s.num_samples());
            total += shard.len();
            for i in shard {
                prop_assert!(i < len as u64);
                *counts.entry(i).or_default() += 1;
            }
        }
        if drop_last {
            prop_assert!(counts.values().all(|&c| c == 1), "no index twice");
            prop_assert!(total <= len && len - total < replicas, "only the ragged tail is dropped");
        } else if len > 0 {
            prop_assert_eq!(counts.len(), len, "every index is seen");
            let padding: usize = counts.values().map(|c| c - 1).sum();
            prop_assert_eq!(padding, total - len);
            prop_assert!(padding < replicas);
        }
    }

    /// All-reduce leaves the element-wise sum on every rank. Small integers sum exactly in f32
    /// whatever the order, so the comparison is exact.
    #[test]
    fn allreduce_is_the_sum(
        inputs in (1usize..10, 0usize..40).prop_flat_map(|(n, len)| {
            proptest::collection::vec(proptest::collection::vec(-1000i32..1000, len), n)
        }),
    ) {
        let inputs: Vec<Vec<f32>> = inputs.into_iter().map(|v| v.into_iter().map(|x| x as f32).collect()).collect();
        let (n, len) = (inputs.len(), inputs[0].len());
        let expected: Vec<f32> = (0..len).map(|i| inputs.iter().map(|v| v[i]).sum()).collect();
        for algorithm in Algorithm::ALL {
            let out = allreduce(algorithm, &inputs).unwrap();
            prop_assert_eq!(out.steps.len(), algorithm.steps(n));
            for v in &out.sum {
                prop_assert_eq!(v, &expected);
            }
        }
    }

    /// With arbitrary floats the ranks still agree bit for bit, and the result is within
    /// rounding of the exact sum.
    #[test]
    fn ranks_agree_on_any_floats(
        inputs in (1usize..9, 1usize..30).prop_flat_map(|(n, len)| {
            proptest::collection::vec(proptest::collection::vec(-1e6f32..1e6, len), n)
        }),
    ) {
        for algorithm in Algorithm::ALL {
            let out = allreduce(algorithm, &inputs).unwrap();
            for v in &out.sum {
                prop_assert_eq!(v.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), out.sum[0].iter().map(|x| x.to_bits()).collect::<Vec<_>>());
            }
            for (i, &x) in out.sum[0].iter().enumerate() {
                let exact: f64 = inputs.iter().map(|v| v[i] as f64).sum();
                let bound: f64 = inputs.iter().map(|v| (v[i] as f64).abs()).sum::<f64>() * inputs.len() as f64 * f32::EPSILON as f64;
                prop_assert!((x as f64 - exact).abs() <= bound);
            }
        }
    }

    /// The ring takes 2(N−1) steps, each rank sending one chunk per step: 2(N−1)/N of the tensor
    /// when N divides it, and never more than 2(N−1) of the largest chunk.
    #[test]
    fn ring_traffic(n in 1usize..12, len in 0usize..100) {
        let inputs: Vec<Vec<f32>> = (0..n).map(|r| vec![r as f32; len]).collect();
        let out = ring_allreduce(&inputs).unwrap();
        prop_assert_eq!(out.steps.len(), 2 * (n - 1));
        for rank in 0..n {
            let sends: Vec<usize> = out.steps.iter().flat_map(|s| &s.transfers).filter(|t| t.from == rank).map(|t| t.values.len()).collect();
            prop_assert_eq!(sends.len(), 2 * (n - 1));
            let bytes: usize = sends.iter().sum::<usize>() * 4;
            if len % n == 0 {
                prop_assert_eq!(bytes * n, 2 * (n - 1) * len * 4);
            }
            prop_assert!(bytes <= 2 * (n - 1) * len.div_ceil(n) * 4);
            prop_assert!(bytes >= 2 * (n - 1) * (len / n) * 4);
        }
    }

    /// Every parameter in exactly one bucket; a bucket closes as soon as it reaches its limit.
    #[test]
    fn buckets_close_at_their_limit(
        sizes in proptest::collection::vec(1u64..5_000_000, 1..40),
        cap_mb in proptest::option::of(0.1f64..8.0),
    ) {
        let order: Vec<usize> = (0..sizes.len()).rev().collect();
        let cap = BucketCap { bucket_cap_mb: cap_mb };
        let buckets = rebuilt_buckets(&sizes, &order, cap);
        let flat: Vec<usize> = buckets.iter().flat_map(|b| b.params.clone()).collect();
        prop_assert_eq!(&flat, &order);
        for (i, b) in buckets.iter().enumerate() {
            prop_assert_eq!(b.bytes, b.params.iter().map(|&p| sizes[p]).sum::<u64>());
            let without_last = b.bytes - sizes[*b.params.last().unwrap()];
            prop_assert!(without_last < b.size_limit, "closed late");
            if i + 1 < buckets.len() {
                prop_assert!(b.bytes >= b.size_limit, "closed early");
            }
            let limit = if i == 0 { cap.first_bucket_bytes_cap() } else { cap.bucket_bytes_cap() };
            prop_assert_eq!(b.size_limit, limit);
        }
        let sorted = assign_by_size(&sizes, None, &[cap.bucket_bytes_cap()]);
        prop_assert!(sorted.windows(2).all(|w| w[0].params[0] < w[1].params[0]));
    }

    /// DataParallel's chunks: the batch, in at most `gpus` chunks of ceil(B/gpus), only the last
    /// one shorter.
    #[test]
    fn chunks_cover_the_batch(batch in 1usize..5000, gpus in 1usize..17) {
        let sizes = torch_chunk_sizes(batch, gpus);
        prop_assert_eq!(sizes.iter().sum::<usize>(), batch);
        prop_assert!(sizes.len() <= gpus);
        let split = batch.div_ceil(gpus);
        prop_assert!(sizes[..sizes.len() - 1].iter().all(|&s| s == split));
        prop_assert!(sizes[sizes.len() - 1] >= 1 && sizes[sizes.len() - 1] <= split);
    }

    /// The timelines: one DDP process is the plain loop; no run beats perfect scaling; DP's
    /// master holds the most memory.
    #[test]
    fn timelines_are_consistent(
        widths in proptest::collection::vec(1usize..2048, 2..6),
        gpus in 1usize..9,
        batch in 1usize..2048,
        preset in 0usize..PRESETS.len(),
    ) {
        let hw = PRESETS[preset];
        let model = Mlp::new(widths).unwrap();
        let single = single_device_s(&model, &hw, batch);
        for iteration in [Iteration::First, Iteration::Rebuilt] {
            let cfg = DdpConfig { model: model.clone(), hardware: hw, world_size: gpus, batch, bucket_cap: BucketCap::default(), iteration };
            let run = ddp::simulate(&cfg).unwrap();
            let s = &run.timeline.summary;
            prop_assert!(s.speedup <= gpus as f64 * (1.0 + 1e-9), "DDP speedup {} on {gpus}", s.speedup);
            if gpus == 1 {
                prop_assert!((s.iteration_s - single).abs() <= 1e-12 * single);
            }
            for e in &run.timeline.events {
                prop_assert!(e.start_s <= e.end_s && e.end_s <= s.iteration_s);
            }
        }
        if hw.device.cuda {
            let t = dp::simulate(&DpConfig { model: model.clone(), hardware: hw, gpus, batch }).unwrap();
            let s = &t.summary;
            prop_assert!(s.speedup <= gpus as f64 * (1.0 + 1e-9), "DP speedup {} on {gpus}", s.speedup);
            prop_assert_eq!(t.devices, torch_chunk_sizes(batch, gpus).len());
            let master = s.devices[0].memory_bytes;
            prop_assert!(s.devices.iter().all(|d| d.memory_bytes <= master));
        }
    }
}
