//! The checks: what the runs' records, logs and tensors show, against what a correct DDP
//! conversion does. Each check states its evidence with numbers, and on failure a hint and the
//! lesson section that teaches the fix.

use std::collections::BTreeSet;
use std::path::Path;

use crate::launch::Run;
use crate::record::{Event, Params, ParamsSource};
use crate::tensors::{compare, StateDict};
use crate::verdict::{Check, CheckStatus};

/// The lesson sections the checks point to (`/lessons/SLUG#ANCHOR`); a test checks each exists.
pub mod lessons {
    pub const INIT: &str = "/lessons/torchrun#initializing-the-process-group";
    pub const DDP: &str = "/lessons/ddp-allreduce#the-life-of-a-ddp-training-step";
    pub const SAMPLER: &str = "/lessons/distributed-sampler#wiring-it-into-a-dataloader";
    pub const SET_EPOCH: &str = "/lessons/distributed-sampler#set-epoch-do-not-skip-it";
    pub const LOGGING: &str = "/lessons/checkpoints-and-pitfalls#logging-from-one-rank";
    pub const SYNC: &str = "/lessons/ddp-allreduce#backward-bucketed-all-reduce-overlapped-with-computation";
    pub const RANK0_WRITES: &str = "/lessons/checkpoints-and-pitfalls#only-rank-0-writes";
    pub const UNWRAP: &str = "/lessons/checkpoints-and-pitfalls#unwrap-the-model-with-module";
    pub const DEADLOCK: &str = "/lessons/checkpoints-and-pitfalls#the-barrier-deadlock";
    pub const BATCH: &str = "/lessons/distributed-sampler#per-rank-batch-size-vs-global-batch-size";
    pub const ALL: [&str; 10] = [INIT, DDP, SAMPLER, SET_EPOCH, LOGGING, SYNC, RANK0_WRITES, UNWRAP, DEADLOCK, BATCH];
}

/// The ids, in report order.
pub const IDS: [&str; 10] = [
    "launched",
    "ddp_wrapped",
    "sampler_sharding",
    "sampler_set_epoch",
    "rank0_logging",
    "replicas_in_sync",
    "checkpoint_rank0_only",
    "checkpoint_unwrapped",
    "no_deadlock",
    "speedup",
];

fn check(id: &str, status: CheckStatus, message: impl Into<String>, hint: Option<String>, lesson: &str) -> Check {
    Check {
        id: id.into(),
        status,
        required: true,
        message: message.into(),
        hint: if status == CheckStatus::Pass { None } else { hint },
        lesson: lesson.into(),
    }
}

fn pass(id: &str, message: impl Into<String>, lesson: &str) -> Check {
    check(id, CheckStatus::Pass, message, None, lesson)
}

fn fail(id: &str, message: impl Into<String>, hint: impl Into<String>, lesson: &str) -> Check {
    check(id, CheckStatus::Fail, message, Some(hint.into()), lesson)
}

fn skip(id: &str, message: impl Into<String>, lesson: &str) -> Check {
    check(id, CheckStatus::Skip, message, None, lesson)
}

/// Thousands separators, for the evidence.
pub fn count(n: impl Into<u64>) -> String {
    let s = n.into().to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub fn launched(run: &Run) -> Check {
    const ID: &str = "launched";
    let n = run.nproc;
    let inits: Vec<(u32, &str, u32, u32)> =
        run.records.iter().filter_map(|r| r.init().map(|(b, rank, world)| (r.rank, b, rank, world))).collect();
    if inits.is_empty() {
        return fail(
            ID,
            format!("no rank called init_process_group (of {n} started)"),
            "call dist.init_process_group() before anything distributed; torchrun supplies the rank, world size and address",
            lessons::INIT,
        );
    }
    let worlds: BTreeSet<u32> = inits.iter().map(|i| i.3).collect();
    if inits.len() as u32 == n && worlds.len() == 1 && worlds.contains(&n) {
        let backend = inits[0].1;
        return pass(ID, format!("all {n} ranks joined one process group ({backend}, world size {n})"), lessons::INIT);
    }
    let joined: Vec<String> = inits.iter().map(|i| format!("rank {} (world size {})", i.2, i.3)).collect();
    fail(
        ID,
        format!("{} of {n} processes joined a process group: {}", inits.len(), joined.join(", ")),
        "let init_process_group read RANK, WORLD_SIZE and MASTER_ADDR from torchrun's environment instead of setting them yourself",
        lessons::INIT,
    )
}

pub fn ddp_wrapped(run: &Run) -> Check {
    const ID: &str = "ddp_wrapped";
    let with: Vec<u32> = run.records.iter().filter(|r| !r.ddp().is_empty()).map(|r| r.rank).collect();
    if with.len() as u32 == run.nproc {
        let numel = run.records[0].ddp().first().map(|d| d.2).unwrap_or(0);
        let site = run.records[0].events.iter().find_map(|e| match e {
            Event::Ddp { site, .. } => site.clone(),
            _ => None,
        });
        return pass(
            ID,
            format!(
                "every rank wrapped its model in DistributedDataParallel ({} trainable values{})",
                count(numel),
                site.map(|s| format!(", at {s}")).unwrap_or_default()
            ),
            lessons::DDP,
        );
    }
    let by_hand = run.records[0].collectives().iter().filter(|(op, _)| *op == "all_reduce").count();
    let msg = if with.is_empty() && by_hand > run.records[0].training_passes().len() {
        format!("no rank constructed DistributedDataParallel; rank 0 called all_reduce {} times itself, averaging the gradients by hand", count(by_hand as u64))
    } else if with.is_empty() {
        "no rank constructed DistributedDataParallel".to_string()
    } else {
        format!("only ranks {with:?} of {} constructed DistributedDataParallel", run.nproc)
    };
    let hint = if by_hand > 0 && with.is_empty() {
        "wrap the model with DDP(model, device_ids=[local_rank]) and drop the hand-written all_reduce: DDP averages the gradients in buckets, overlapped with the backward pass"
    } else {
        "wrap the model with DDP(model, device_ids=[local_rank]) after moving it to the rank's device"
    };
    fail(ID, msg, hint, lessons::DDP)
}

/// The indices of each rank's training pass number `k`.
fn pass_indices(run: &Run, k: usize) -> Option<Vec<Vec<i64>>> {
    run.records.iter().map(|r| r.training_passes().get(k).map(|p| p.indices.clone())).collect()
}

pub fn sampler_sharding(run: &Run) -> Check {
    const ID: &str = "sampler_sharding";
    let Some(shards) = pass_indices(run, 0) else {
        return skip(ID, "not every rank completed a pass over a DataLoader", lessons::SAMPLER);
    };
    let Some(len) = run.records[0].training_passes()[0].dataset_len else {
        return skip(ID, "the DataLoader's dataset has no length", lessons::SAMPLER);
    };
    let n = shards.len() as u64;
    let total: u64 = shards.iter().map(|s| s.len() as u64).sum();
    let union: BTreeSet<i64> = shards.iter().flatten().copied().collect();
    let unique = union.len() as u64;
    let duplicates = total - unique;
    let padding = (n - len % n) % n;
    let drop_last = run.records[0].training_passes()[0].sampler.drop_last.unwrap_or(false);
    let (allowed_dup, allowed_missing) = if drop_last { (0, len % n) } else { (padding, 0) };
    let missing = len.saturating_sub(unique);
    let sizes: Vec<String> = shards.iter().enumerate().map(|(r, s)| format!("rank {r} read {}", count(s.len() as u64))).collect();
    let evidence = format!(
        "first epoch: {}; {} read by more than one rank; together {} of {} samples",
        sizes.join(", "),
        count(duplicates),
        count(unique),
        count(len)
    );
    if duplicates <= allowed_dup && missing <= allowed_missing {
        return pass(ID, format!("{evidence} (padding allows {allowed_dup})"), lessons::SAMPLER);
    }
    let whole = shards.iter().all(|s| s.len() as u64 >= len);
    let hint = if whole {
        "every rank iterated the whole dataset: give the DataLoader a DistributedSampler (and no shuffle=True) so each rank reads its own shard"
    } else {
        "the ranks' shards overlap: let DistributedSampler read the rank and world size from the process group, or pass dist.get_rank() and dist.get_world_size()"
    };
    fail(ID, evidence, hint, lessons::SAMPLER)
}

pub fn sampler_set_epoch(run: &Run) -> Check {
    const ID: &str = "sampler_set_epoch";
    let passes = run.records[0].training_passes();
    if passes.len() < 2 {
        return skip(ID, format!("rank 0 completed {} pass(es) over its DataLoader; two are needed to compare", passes.len()), lessons::SET_EPOCH);
    }
    let same: Vec<usize> = (1..passes.len()).filter(|&k| passes[k].indices == passes[k - 1].indices).collect();
    let epochs: Vec<String> = passes.iter().map(|p| p.sampler.epoch.map_or("-".into(), |e| e.to_string())).collect();
    let head = |k: usize| passes[k].indices.iter().take(4).map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
    if same.is_empty() {
        return pass(
            ID,
            format!("rank 0's order changed every epoch over {} epochs (first indices [{}…] then [{}…])", passes.len(), head(0), head(1)),
            lessons::SET_EPOCH,
        );
    }
    let distributed = passes[0].sampler.kind == "DistributedSampler";
    let hint = if distributed && passes.iter().all(|p| p.sampler.epoch == passes[0].sampler.epoch) {
        "call sampler.set_epoch(epoch) at the start of every epoch: the shuffle is seeded with seed + epoch, so without it every epoch replays the first"
    } else if passes[0].sampler.shuffle == Some(false) || passes[0].sampler.kind == "SequentialSampler" {
        "the sampler does not shuffle: construct DistributedSampler with shuffle=True (the default)"
    } else {
        "the order must change between epochs: call sampler.set_epoch(epoch) with the epoch number"
    };
    fail(
        ID,
        format!(
            "rank 0 read the same order in {} of {} epochs (first indices [{}…]; sampler epoch per pass: {})",
            same.len() + 1,
            passes.len(),
            head(0),
            epochs.join(", ")
        ),
        hint,
        lessons::SET_EPOCH,
    )
}

/// Lines that report a loss: the exercise prints `epoch N: loss …`.
fn loss_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.to_lowercase().contains("loss")).collect()
}

pub fn rank0_logging(run: &Run) -> Check {
    const ID: &str = "rank0_logging";
    let epochs = run.records[0].training_passes().len();
    let counts: Vec<usize> = run.stdout.iter().map(|o| loss_lines(o).len()).collect();
    let others: Vec<String> =
        counts.iter().enumerate().skip(1).filter(|(_, &c)| c > 0).map(|(r, c)| format!("rank {r} printed {c}")).collect();
    if !others.is_empty() {
        let example = run.stdout.iter().skip(1).flat_map(|o| loss_lines(o)).next().unwrap_or("").trim();
        return fail(
            ID,
            format!("loss lines: rank 0 printed {}, {} (for example \"{}\")", counts[0], others.join(", "), example.chars().take(80).collect::<String>()),
            "print from rank 0 only (if dist.get_rank() == 0), after averaging the loss across ranks with all_reduce",
            lessons::LOGGING,
        );
    }
    if counts.first().copied().unwrap_or(0) == 0 {
        return fail(
            ID,
            format!("no rank printed a loss line ({epochs} epochs ran)"),
            "print the epoch's loss on rank 0 once per epoch, as the single-GPU script did",
            lessons::LOGGING,
        );
    }
    if epochs > 0 && counts[0] < epochs {
        return fail(
            ID,
            format!("rank 0 printed {} loss lines for {epochs} epochs", counts[0]),
            "print the loss once per epoch, on rank 0",
            lessons::LOGGING,
        );
    }
    pass(ID, format!("only rank 0 printed loss lines: {} for {epochs} epochs", counts[0]), lessons::LOGGING)
}

fn load(dir: &Path, file: &str) -> Option<StateDict> {
    StateDict::load(&dir.join(file)).ok()
}

pub fn replicas_in_sync(run: &Run) -> Check {
    const ID: &str = "replicas_in_sync";
    let files: Vec<Option<Params>> = run.records.iter().map(|r| r.params().first().copied()).collect();
    if files.iter().any(Option::is_none) {
        return skip(ID, "not every rank ended with a model whose parameters could be saved (a DDP model, or an optimizer's parameters)", lessons::SYNC);
    }
    let files: Vec<Params> = files.into_iter().flatten().collect();
    let by_hand = files[0].source == ParamsSource::Optimizer;
    let Some(reference) = load(&run.records_dir, files[0].file) else {
        return skip(ID, "rank 0's final parameters could not be read", lessons::SYNC);
    };
    let mut worst: Option<(usize, String, f64)> = None;
    for (r, params) in files.iter().enumerate().skip(1) {
        let Some(other) = load(&run.records_dir, params.file) else {
            return skip(ID, format!("rank {r}'s final parameters could not be read"), lessons::SYNC);
        };
        let d = compare(&reference, &other, str::to_string);
        if !d.identical() {
            let (name, by) = d.worst.unwrap_or_default();
            if worst.as_ref().is_none_or(|w| by > w.2) {
                worst = Some((r, name, by));
            }
        }
    }
    let tensors = reference.0.len();
    let whose = if by_hand { "; no DDP model, so these are the parameters the optimizer updates" } else { "" };
    match worst {
        None => pass(
            ID,
            format!("all {} ranks ended with identical parameters, bit for bit ({tensors} tensors, {} values{whose})", files.len(), count(reference.numel() as u64)),
            lessons::SYNC,
        ),
        Some((r, name, by)) => {
            let bypassed = !by_hand && files.iter().any(|p| p.forwards == 0);
            let hint = if by_hand {
                "without DDP nothing averages the gradients between ranks: wrap the model in DistributedDataParallel, which all-reduces them during backward"
            } else if bypassed {
                "a rank never called the DDP model itself (forward through .module skips DDP's gradient all-reduce): call model(x), not model.module(x), when training"
            } else {
                "every rank must apply the same averaged gradients: train through the DDP model and change parameters only with the optimizer, on every rank"
            };
            fail(ID, format!("rank {r}'s {name} differs from rank 0's by up to {by:.3e}{whose}"), hint, lessons::SYNC)
        }
    }
}

/// Saves that carried a state dict, per rank: (rank, path, keys, tensors file).
fn checkpoint_saves(run: &Run) -> Vec<(u32, String, Vec<String>, Option<String>)> {
    let mut out = Vec::new();
    for r in &run.records {
        for e in r.saves() {
            if let Event::Save { path, keys: Some(keys), tensors, .. } = e {
                out.push((r.rank, path.clone(), keys.clone(), tensors.clone()));
            }
        }
    }
    out
}

pub fn checkpoint_rank0_only(run: &Run) -> Check {
    const ID: &str = "checkpoint_rank0_only";
    let saves = checkpoint_saves(run);
    if saves.is_empty() {
        return fail(
            ID,
            "no rank saved a checkpoint with torch.save",
            "save the trained model's state_dict on rank 0 at the end, as the exercise asks",
            lessons::RANK0_WRITES,
        );
    }
    let ranks: BTreeSet<u32> = saves.iter().map(|s| s.0).collect();
    let paths: BTreeSet<&str> = saves.iter().map(|s| s.1.as_str()).collect();
    let paths = paths.into_iter().collect::<Vec<_>>().join(", ");
    if ranks.len() == 1 && ranks.contains(&0) {
        return pass(ID, format!("only rank 0 wrote the checkpoint ({paths})"), lessons::RANK0_WRITES);
    }
    fail(
        ID,
        format!("ranks {:?} wrote checkpoints ({paths})", ranks),
        "guard torch.save with if dist.get_rank() == 0: every rank holds the same weights, and N ranks writing one file race",
        lessons::RANK0_WRITES,
    )
}

pub fn checkpoint_unwrapped(run: &Run) -> Check {
    const ID: &str = "checkpoint_unwrapped";
    let saves = checkpoint_saves(run);
    let Some((rank, path, keys, tensors)) = saves.iter().find(|s| s.0 == 0).or(saves.first()) else {
        return skip(ID, "no checkpoint was saved", lessons::UNWRAP);
    };
    let prefixed: Vec<&String> = keys.iter().filter(|k| k.starts_with("module.")).collect();
    // Does the checkpoint hold the final weights? Compared with the rank's DDP model.
    let matches = (|| {
        let file = tensors.as_ref()?;
        let saved = load(&run.records_dir, file)?;
        let params = *run.records.iter().find(|r| r.rank == *rank)?.params().first()?;
        let fin = load(&run.records_dir, params.file)?;
        Some(compare(&fin, &saved, |k| k.strip_prefix("module.").unwrap_or(k).to_string()).identical())
    })();
    let matches = match matches {
        Some(true) => "; it equals the final parameters",
        Some(false) => "; note: it differs from the final parameters",
        None => "",
    };
    if prefixed.is_empty() {
        return pass(
            ID,
            format!("{path}: {} keys without a module. prefix (first: {}){matches}", keys.len(), keys.first().map_or("", |k| k.as_str())),
            lessons::UNWRAP,
        );
    }
    fail(
        ID,
        format!("{path}: {} of {} keys start with module. (first: {}){matches}", prefixed.len(), keys.len(), prefixed[0]),
        "save model.module.state_dict(), the unwrapped model, so the checkpoint loads into a plain model without DDP",
        lessons::UNWRAP,
    )
}

pub fn no_deadlock(run: &Run) -> Check {
    const ID: &str = "no_deadlock";
    let stuck: Vec<(u32, &str, Option<&str>, Option<&str>)> = run
        .records
        .iter()
        .filter_map(|r| {
            r.failed_collective()
                .map(|(op, site, err)| (r.rank, op, site, Some(err)))
                .or_else(|| r.stuck_in().map(|(op, site)| (r.rank, op, site, None)))
        })
        .collect();
    if stuck.is_empty() {
        let per_rank: Vec<usize> = run.records.iter().map(|r| r.collectives().len()).collect();
        return pass(ID, format!("every rank left every collective it entered ({per_rank:?} collectives per rank)"), lessons::DEADLOCK);
    }
    let (rank, op, site, _) = stuck[0];
    let where_ = site.map(|s| format!(" at {s}")).unwrap_or_default();
    let others: Vec<String> = run
        .records
        .iter()
        .filter(|r| r.rank != rank)
        .map(|r| {
            let calls = r.collectives().iter().filter(|(o, s)| *o == op && *s == site).count();
            let state = if r.in_destroy_or_done() { "finished" } else { "did not finish" };
            format!("rank {} made {calls} such call(s) there and {state}", r.rank)
        })
        .collect();
    fail(
        ID,
        format!("rank {rank} waited in {op}(){where_} that the other ranks never reached ({})", others.join("; ")),
        "every rank must call every collective: move the barrier (or all_reduce) out of the if rank == 0 block",
        lessons::DEADLOCK,
    )
}

/// Throughput of one run: the unique samples of each steady-state epoch (all ranks together)
/// per second of that epoch (first start to last end across ranks). The first epoch is left
/// out when there are more: it includes warm-up.
pub fn epoch_throughputs(run: &Run) -> Vec<(f64, f64, u64)> {
    let per_rank: Vec<Vec<&crate::record::Pass>> = run.records.iter().map(|r| r.training_passes()).collect();
    let epochs = per_rank.iter().map(Vec::len).min().unwrap_or(0);
    let mut out = Vec::new();
    for k in 0..epochs {
        let start = per_rank.iter().map(|p| p[k].start).fold(f64::INFINITY, f64::min);
        let end = per_rank.iter().map(|p| p[k].end).fold(f64::NEG_INFINITY, f64::max);
        let unique: BTreeSet<i64> = per_rank.iter().flat_map(|p| p[k].indices.iter().copied()).collect();
        let secs = (end - start).max(1e-9);
        out.push((unique.len() as f64 / secs, secs, unique.len() as u64));
    }
    if out.len() > 1 {
        out.remove(0);
    }
    out
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 })
}

/// The default threshold: 1 + 0.05 per extra process (1.05× for 2). Deliberately low: on a
/// shared 2-core CPU runner the reference solution measured between 1.10× and 1.75×, and a
/// correct script must pass every time; scripts that do not divide the work (about 0.9×) or
/// are communication-bound (0.4×) still fail. The evidence always shows the ratio.
pub fn default_min_speedup(nproc: u32) -> f64 {
    1.0 + 0.05 * f64::from(nproc.saturating_sub(1))
}

/// Cores' worth of other work on the machine, on average, while `run` ran (when known).
pub fn others_cores(run: &Run) -> Option<f64> {
    run.finished.cpu.map(|c| c.others_s / run.finished.wall_s.max(1e-9))
}

/// Other work (in cores) above which a timing counts as taken on a busy machine. The job
/// itself fills every core it may use, so anything else slows it.
pub const BUSY_CORES: f64 = 0.25;

/// `remeasured`: how many extra pairs of runs were made because the machine was busy.
pub fn speedup(ddp: &[&Run], single: &[&Run], min: f64, sharded: bool, remeasured: u32) -> Check {
    const ID: &str = "speedup";
    let n = ddp.first().map_or(0, |r| r.nproc);
    let thr = |runs: &[&Run]| -> (Option<f64>, usize, Option<f64>) {
        let all: Vec<(f64, f64, u64)> = runs.iter().flat_map(|r| epoch_throughputs(r)).collect();
        (median(all.iter().map(|t| t.0).collect()), all.len(), median(all.iter().map(|t| t.1).collect()))
    };
    let (Some(tn), epochs_n, Some(secs_n)) = thr(ddp) else {
        return skip(ID, format!("the {n}-process run completed no steady-state epoch"), lessons::BATCH);
    };
    let (Some(t1), epochs_1, Some(secs_1)) = thr(single) else {
        return skip(ID, "the 1-process run completed no steady-state epoch", lessons::BATCH);
    };
    let ratio = tn / t1;
    // What the evidence explains: work per rank, and what the gradient all-reduce costs.
    let first = ddp[0];
    let passes = first.records[0].training_passes();
    let (samples, steps, batch) = passes.last().map_or((0, 0, None), |p| (p.samples, p.batches, p.batch_size));
    let allreduce_ms = first.records[0].ddp().first().and_then(|d| d.1);
    let comm = allreduce_ms.map(|ms| ms * steps as f64 / 1000.0);
    let comm_text = match comm {
        Some(c) => format!(
            "; one all-reduce of the gradients took {:.2} ms, {:.0} ms per epoch ({:.0}% of it)",
            allreduce_ms.unwrap_or(0.0),
            c * 1000.0,
            100.0 * c / secs_n
        ),
        None => String::new(),
    };
    let busiest = |runs: &[&Run]| runs.iter().filter_map(|r| others_cores(r)).reduce(f64::max);
    let (busy_n, busy_1) = (busiest(ddp), busiest(single));
    let load_text = match (busy_n, busy_1) {
        (Some(a), Some(b)) => format!("; other work on the machine meanwhile: up to {a:.2} cores during the {n}-process runs, {b:.2} during the 1-process runs"),
        _ => String::new(),
    };
    let again = if remeasured > 0 { format!("; measured again {remeasured} time(s) because the machine was busy") } else { String::new() };
    let evidence = format!(
        "{n} processes: {:.0} samples/s against {:.0} for 1 process = {ratio:.2}× (threshold {min:.2}×; medians of {epochs_n} and {epochs_1} steady-state epochs, {:.2} s and {:.2} s each); per rank {} samples in {} steps{}{comm_text}{load_text}{again}",
        tn,
        t1,
        secs_n,
        secs_1,
        count(samples),
        count(steps),
        batch.map(|b| format!(" of {b}")).unwrap_or_default(),
    );
    if ratio >= min {
        return pass(ID, evidence, lessons::BATCH);
    }
    // A busy machine slows the N-process side most (the job alone fills every core). Near the
    // threshold that may be the whole story; far below it the script is the cause, and the
    // busy machine only a footnote.
    let busy = busy_n.filter(|b| *b > BUSY_CORES);
    let hint = if !sharded {
        "the processes did not divide the work: with a DistributedSampler each of N ranks reads 1/N of the data per epoch".to_string()
    } else if let Some(b) = busy.filter(|_| ratio >= 0.8 * min) {
        format!("other work was using this machine while it was measured (up to {b:.2} cores), which slows the {n}-process runs most: submit again; if it still fails on a quiet machine, the per-step communication is too large for the work, as the lesson explains")
    } else {
        // The work was divided and still did not pay: per-step synchronisation (the
        // all-reduce, its latency and DDP's bookkeeping) outweighs the computing saved.
        let note = busy.map(|b| format!(" (Other work was also using this machine, up to {b:.2} cores, which lowers the figure somewhat.)")).unwrap_or_default();
        format!("the conversion divides the work but is communication-bound: every step all-reduces every gradient and waits for the other ranks, and with small batches that costs more than the computing saved. Use a larger per-rank batch (fewer steps, the same all-reduce per step), or accumulate gradients over several steps with model.no_sync(); also avoid barriers, .item() or all_reduce calls inside the loop.{note}")
    };
    fail(ID, evidence, hint, lessons::BATCH)
}

/// Every check for a graded job. `single` may be empty when the N-process run could not be
/// timed (then `speedup` is skipped).
pub fn all(ddp: &[&Run], single: &[&Run], min_speedup: f64, remeasured: u32) -> Vec<Check> {
    let run = ddp[0];
    let sharding = sampler_sharding(run);
    let sharded = sharding.status != CheckStatus::Fail;
    let speedup = if single.is_empty() {
        skip("speedup", "not measured: the N-process run did not complete its epochs", lessons::BATCH)
    } else {
        speedup(ddp, single, min_speedup, sharded, remeasured)
    };
    let launched = launched(run);
    let grouped = launched.status == CheckStatus::Pass;
    // Without one process group there is no rank 0, no shard and no all-reduce to judge: the
    // checks that compare ranks within the group would only repeat `launched` in other words,
    // so their failures wait for it (their evidence kept) and the learner sees the cause first.
    let within_group = |c: Check| if grouped || c.status == CheckStatus::Pass { c } else { waits_for_launched(c) };
    vec![
        launched,
        ddp_wrapped(run),
        within_group(sharding),
        sampler_set_epoch(run),
        within_group(rank0_logging(run)),
        within_group(replicas_in_sync(run)),
        within_group(checkpoint_rank0_only(run)),
        checkpoint_unwrapped(run),
        no_deadlock(run),
        within_group(speedup),
    ]
}

fn waits_for_launched(c: Check) -> Check {
    let message = format!("not judged until `launched` passes: the processes did not form one process group (seen: {})", c.message);
    skip(&c.id, message, &c.lesson)
}
