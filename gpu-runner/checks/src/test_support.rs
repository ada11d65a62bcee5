//! Synthetic evidence for the checks' unit tests: [`correct_run`] is what a correct conversion
//! of the exercise records, small; each test breaks it in one place.

use grading_protocol::{CpuTime, RankRun};

use crate::evidence::{Difference, Evidence, FinalParams, ParamsSize, RunEvidence};
use crate::record::{Event, Pass, RankRecord, Sampler};

pub fn sampler(epoch: i64) -> Sampler {
    Sampler {
        kind: "DistributedSampler".into(),
        epoch: Some(epoch),
        num_replicas: None,
        rank: None,
        shuffle: Some(true),
        seed: Some(0),
        drop_last: Some(false),
    }
}

/// One complete pass over loader 0 of a dataset of `len`, taking `start..end` seconds.
pub fn epoch_pass(
    number: u32,
    indices: Vec<i64>,
    len: u64,
    sampler: Sampler,
    start: f64,
    end: f64,
) -> Event {
    Event::Pass(Pass {
        loader: 0,
        number,
        start,
        end,
        batches: indices.len().div_ceil(4) as u64,
        samples: indices.len() as u64,
        complete: true,
        indices,
        dataset_len: Some(len),
        sampler,
        batch_size: Some(4),
        site: Some("train.py:50".into()),
        loss: Some(1.0 / f64::from(number + 1)),
    })
}

/// DistributedSampler's shard for `rank` without shuffling, rotated by `epoch` so the order
/// changes: every `world`-th index of the padded list.
pub fn shard(len: u64, world: u32, rank: u32, epoch: u32) -> Vec<i64> {
    let per_rank = len.div_ceil(u64::from(world));
    let total = per_rank * u64::from(world);
    let order: Vec<i64> =
        (0..total).map(|i| ((i + u64::from(epoch)) % len.max(1)) as i64).collect();
    order.into_iter().skip(rank as usize).step_by(world as usize).collect()
}

pub fn coll(op: &str, seq: u64, site: &str) -> [Event; 2] {
    [
        Event::CollEnter { op: op.into(), seq, site: Some(site.into()), time: 0.0 },
        Event::CollExit { op: op.into(), seq, ok: true, error: None, time: 0.0 },
    ]
}

pub fn save(path: &str, keys: &[&str]) -> Event {
    Event::Save {
        path: path.into(),
        prefix: None,
        keys: Some(keys.iter().map(|k| k.to_string()).collect()),
        site: Some("train.py:60".into()),
        tensors: Some("save0.safetensors".into()),
    }
}

/// A correct run: `world` ranks in one gloo group, DDP, a sharded dataset of `len` read over
/// `epochs` epochs of `epoch_s` seconds, rank 0 logging and saving, identical replicas.
pub fn correct_run(world: u32, len: u64, epochs: u32, epoch_s: f64) -> RunEvidence {
    let mut records = Vec::new();
    let mut stdout = Vec::new();
    for rank in 0..world {
        let mut events = vec![
            Event::Init {
                backend: "gloo".into(),
                rank,
                world,
                site: Some("train.py:20".into()),
                time: 0.0,
            },
            Event::Ddp {
                index: 0,
                params: 4,
                numel: 12_345,
                allreduce_ms: Some(0.5),
                device: None,
                linears: Vec::new(),
                site: Some("train.py:30".into()),
            },
        ];
        let mut out = String::new();
        for e in 0..epochs {
            let start = f64::from(e) * epoch_s;
            events.push(epoch_pass(
                e,
                shard(len, world, rank, e),
                len,
                sampler(i64::from(e)),
                start,
                start + epoch_s,
            ));
            if rank == 0 {
                out.push_str(&format!("epoch {e}: loss 0.{}\n", 9 - e.min(8)));
            }
        }
        events.extend(coll("barrier", 1, "train.py:58"));
        if rank == 0 {
            events.push(save("model.pt", &["0.weight", "0.bias"]));
        }
        events.push(Event::Params {
            index: 0,
            file: format!("params{rank}.safetensors"),
            when: "end".into(),
            forwards: 10,
            source: Default::default(),
        });
        events.push(Event::DestroyEnter { site: None });
        events.push(Event::End { status: "ok".into(), code: 0 });
        records.push(RankRecord { rank, events });
        stdout.push(out);
    }
    RunEvidence {
        nproc: world,
        records,
        stdout,
        ranks: (0..world).map(rank_run).collect(),
        launcher_tail: String::new(),
        wall_s: f64::from(epochs) * epoch_s,
        timed_out: false,
        cpu: Some(CpuTime { job_s: f64::from(world) * f64::from(epochs) * epoch_s, others_s: 0.0 }),
        final_params: Some(FinalParams {
            reference: Some(ParamsSize { tensors: 2, values: 12_345 }),
            others: (1..world)
                .map(|r| (r, Some(Difference { identical: true, worst: None })))
                .collect(),
        }),
        checkpoint_equals_final: Some(true),
    }
}

pub fn rank_run(rank: u32) -> RankRun {
    RankRun {
        rank,
        exit_code: Some(0),
        signal: None,
        killed: false,
        stdout_tail: String::new(),
        stderr_tail: String::new(),
    }
}

/// A correct run's evidence: the 2-process run, and one process taking `single_epoch_s` per
/// epoch of the same data.
pub fn correct(single_epoch_s: f64) -> Evidence {
    Evidence {
        ddp: vec![correct_run(2, 64, 3, 1.0)],
        single: vec![correct_run(1, 64, 3, single_epoch_s)],
        min_speedup: crate::speedup::default_min_speedup(2),
        remeasured: 0,
        not_timed: None,
    }
}

/// Replaces rank `rank`'s events for which `f` returns `Some`.
pub fn edit(run: &mut RunEvidence, rank: usize, f: impl Fn(&Event) -> Option<Event>) {
    for e in &mut run.records[rank].events {
        if let Some(new) = f(e) {
            *e = new;
        }
    }
}
