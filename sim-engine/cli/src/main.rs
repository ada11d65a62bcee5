//! `sim`: the simulations on the command line, as JSON. See `sim-engine/README.md`.
//!
//! A crate of its own so that sim-engine, which the browser runs as WebAssembly, stays free of
//! IO and of the argument parser: this binary is the only IO around it.
//!
//! # What is where
//!
//! The `sim` binary: the simulations on the command line (clap), as JSON. A crate of its own so
//! that sim-engine has no IO and no argument parser.

use std::io::Write;
use std::process::ExitCode;

use clap::{ArgAction, Args, Parser, Subcommand};
use serde_json::{json, Value};
use sim_engine::allreduce::{allreduce, Algorithm};
use sim_engine::buckets::{Bucket, BucketCap};
use sim_engine::ddp::{self, DdpConfig, Iteration};
use sim_engine::dp::{self, DpConfig};
use sim_engine::hardware::{self, Hardware};
use sim_engine::model::Mlp;
use sim_engine::sampler::DistributedSampler;
use sim_engine::timeline::{Event, Lane, Timeline};

#[derive(Parser)]
#[command(
    name = "sim",
    version,
    about = "sim-engine's simulations of PyTorch data-parallel training, printed as JSON.",
    // As before clap: a repeated option takes its last value.
    args_override_self = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The indices DistributedSampler gives one rank in one epoch, exactly as torch does.
    Sampler(SamplerArgs),
    /// Ring all-reduce on real values: every step's sends and the vectors after it.
    Ring(RingArgs),
    /// All-reduce with a chosen algorithm (ring, naive or tree) on real values.
    Allreduce(AllreduceArgs),
    /// One DataParallel iteration as a timeline per GPU.
    Dp(DpArgs),
    /// One DDP iteration as a timeline per process, with its gradient buckets.
    Ddp(DdpArgs),
}

// Numeric options take `allow_negative_numbers`, so `--alpha -1` reaches the value's own check
// ("--alpha must be a non-negative number") instead of failing as an unexpected argument `-1`.
#[derive(Args)]
struct SamplerArgs {
    /// The dataset's length.
    #[arg(long, allow_negative_numbers = true)]
    len: usize,
    /// num_replicas: the world size.
    #[arg(long, allow_negative_numbers = true)]
    replicas: usize,
    #[arg(long, allow_negative_numbers = true)]
    rank: i64,
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    seed: i64,
    /// The epoch passed to set_epoch.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    epoch: u64,
    #[arg(long, default_value_t = true, action = ArgAction::Set, value_name = "true|false")]
    shuffle: bool,
    #[arg(long)]
    drop_last: bool,
}

#[derive(Args)]
struct RingArgs {
    /// How many ranks; must match --values.
    #[arg(long, allow_negative_numbers = true)]
    ranks: Option<usize>,
    /// Each rank's vector, as JSON: '[[1,2,3],[4,5,6]]'.
    #[arg(long)]
    values: String,
}

#[derive(Args)]
struct AllreduceArgs {
    /// ring, naive or tree.
    #[arg(long)]
    algorithm: String,
    /// Each rank's vector, as JSON: '[[1,2,3],[4,5,6]]'.
    #[arg(long)]
    values: String,
    #[arg(long, allow_negative_numbers = true)]
    ranks: Option<usize>,
}

#[derive(Args)]
struct ModelArgs {
    /// Layer widths of the MLP, input first: 784,1024,10.
    #[arg(long)]
    layers: String,
    #[arg(long, allow_negative_numbers = true)]
    gpus: usize,
    /// The global batch.
    #[arg(long, allow_negative_numbers = true)]
    batch: usize,
    /// A hardware preset: h100-nvlink, h100-pcie, a100-pcie, cpu-gloo.
    #[arg(long, default_value = "h100-nvlink")]
    hardware: String,
    /// Achieved FLOP/s, overriding the preset's.
    #[arg(long, allow_negative_numbers = true)]
    flops: Option<f64>,
    /// Memory bandwidth in bytes/s, overriding the preset's.
    #[arg(long, allow_negative_numbers = true)]
    memory_bandwidth: Option<f64>,
    /// Link latency in seconds, overriding the preset's.
    #[arg(long, allow_negative_numbers = true)]
    alpha: Option<f64>,
    /// Link bandwidth in bytes/s, overriding the preset's.
    #[arg(long, allow_negative_numbers = true)]
    beta: Option<f64>,
    /// Host time per layer in seconds, overriding the preset's.
    #[arg(long, allow_negative_numbers = true)]
    host_layer: Option<f64>,
}

#[derive(Args)]
struct DpArgs {
    #[command(flatten)]
    model: ModelArgs,
}

#[derive(Args)]
struct DdpArgs {
    #[command(flatten)]
    model: ModelArgs,
    /// DDP's bucket_cap_mb [default: 25, with torch's small first bucket].
    #[arg(long, allow_negative_numbers = true)]
    bucket_cap_mb: Option<f64>,
    /// The first iteration's buckets, or the rebuilt ones of every later iteration.
    #[arg(long, default_value = "rebuilt", value_name = "first|rebuilt")]
    iteration: String,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(v) => {
            // A reader that stops early (`sim … | head`) is not an error.
            let _ = writeln!(std::io::stdout().lock(), "{v}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("sim: {e}");
            ExitCode::from(2)
        }
    }
}

fn values(json: &str, ranks: Option<usize>) -> Result<Vec<Vec<f32>>, String> {
    let values: Vec<Vec<f32>> = serde_json::from_str(json).map_err(|e| format!("--values: {e}"))?;
    match ranks {
        Some(r) if r != values.len() => {
            Err(format!("--ranks {r} but --values has {} vectors", values.len()))
        }
        _ => Ok(values),
    }
}

fn run(command: Command) -> Result<Value, String> {
    match command {
        Command::Sampler(a) => {
            let sampler =
                DistributedSampler::new(a.len, a.replicas, a.rank, a.shuffle, a.seed, a.drop_last)
                    .map_err(|e| e.to_string())?;
            let indices = sampler.indices(a.epoch).map_err(|e| e.to_string())?;
            Ok(json!({ "indices": indices }))
        }
        Command::Ring(a) => allreduce_json(Algorithm::Ring, &values(&a.values, a.ranks)?),
        Command::Allreduce(a) => {
            let algorithm = Algorithm::from_name(&a.algorithm).ok_or_else(|| {
                format!("--algorithm: unknown `{}` (ring, naive, tree)", a.algorithm)
            })?;
            allreduce_json(algorithm, &values(&a.values, a.ranks)?)
        }
        Command::Dp(a) => {
            let cfg = DpConfig {
                model: model(&a.model)?,
                hardware: hardware(&a.model)?,
                gpus: a.model.gpus,
                batch: a.model.batch,
            };
            let t = dp::simulate(&cfg).map_err(|e| e.to_string())?;
            Ok(json!({
                "mode": "dp",
                "model": model_json(&cfg.model),
                "hardware": hardware_json(&cfg.hardware),
                "gpus": cfg.gpus,
                "gpus_used": t.devices,
                "chunks": dp::torch_chunk_sizes(cfg.batch, cfg.gpus),
                "timeline": timeline_json(&t),
            }))
        }
        Command::Ddp(a) => {
            let iteration = match a.iteration.as_str() {
                "rebuilt" => Iteration::Rebuilt,
                "first" => Iteration::First,
                other => return Err(format!("--iteration: unknown `{other}` (first, rebuilt)")),
            };
            let cfg = DdpConfig {
                model: model(&a.model)?,
                hardware: hardware(&a.model)?,
                world_size: a.model.gpus,
                batch: a.model.batch,
                bucket_cap: BucketCap { bucket_cap_mb: a.bucket_cap_mb },
                iteration,
            };
            let run = ddp::simulate(&cfg).map_err(|e| e.to_string())?;
            let names: Vec<String> = cfg.model.parameters().into_iter().map(|p| p.name).collect();
            let buckets = |bs: &[Bucket]| -> Vec<Value> {
                bs.iter()
                    .map(|b| json!({"params": b.params, "names": b.params.iter().map(|&p| &names[p]).collect::<Vec<_>>(), "bytes": b.bytes, "size_limit": b.size_limit}))
                    .collect()
            };
            Ok(json!({
                "mode": "ddp",
                "model": model_json(&cfg.model),
                "hardware": hardware_json(&cfg.hardware),
                "gpus": cfg.world_size,
                "local_batch": run.local_batch,
                "iteration": match iteration { Iteration::First => "first", Iteration::Rebuilt => "rebuilt" },
                "bucket_cap_bytes": cfg.bucket_cap.bucket_bytes_cap(),
                "first_bucket_cap_bytes": cfg.bucket_cap.first_bucket_bytes_cap(),
                "buckets": buckets(&run.buckets),
                "first_iteration_buckets": buckets(&run.first_iteration_buckets),
                "rebuilt_buckets": buckets(&run.rebuilt_buckets),
                "timeline": timeline_json(&run.timeline),
            }))
        }
    }
}

fn allreduce_json(algorithm: Algorithm, values: &[Vec<f32>]) -> Result<Value, String> {
    let r = allreduce(algorithm, values).map_err(|e| e.to_string())?;
    let steps: Vec<Value> = r
        .steps
        .iter()
        .map(|s| {
            json!({
                "phase": s.phase.name(),
                "sends": s.transfers.iter().map(|t| json!({"from": t.from, "to": t.to, "chunk": t.chunk, "values": t.values})).collect::<Vec<_>>(),
                "after": s.after,
            })
        })
        .collect();
    let chunks: Vec<[usize; 2]> = r.chunks.iter().map(|c| [c.start, c.end]).collect();
    Ok(
        json!({ "algorithm": algorithm.name(), "chunks": chunks, "steps": steps, "final": r.sum, "mean": r.mean }),
    )
}

fn model(a: &ModelArgs) -> Result<Mlp, String> {
    let widths: Vec<usize> = a
        .layers
        .split(',')
        .map(|w| w.trim().parse().map_err(|_| format!("--layers: cannot read `{w}`")))
        .collect::<Result<_, _>>()?;
    Mlp::new(widths).map_err(|e| format!("--layers: {e}"))
}

fn hardware(a: &ModelArgs) -> Result<Hardware, String> {
    let mut hw = hardware::preset(&a.hardware).ok_or_else(|| {
        let names: Vec<&str> = hardware::PRESETS.iter().map(|h| h.name).collect();
        format!("--hardware: unknown `{}` ({})", a.hardware, names.join(", "))
    })?;
    let non_negative = |flag: &str, value: Option<f64>, preset: f64| -> Result<f64, String> {
        match value {
            None => Ok(preset),
            Some(v) if v.is_finite() && v >= 0.0 => Ok(v),
            Some(_) => Err(format!("--{flag} must be a non-negative number")),
        }
    };
    hw.device.flops = non_negative("flops", a.flops, hw.device.flops)?;
    hw.device.memory_bandwidth =
        non_negative("memory-bandwidth", a.memory_bandwidth, hw.device.memory_bandwidth)?;
    hw.link.alpha_s = non_negative("alpha", a.alpha, hw.link.alpha_s)?;
    hw.link.beta_bytes_per_s = non_negative("beta", a.beta, hw.link.beta_bytes_per_s)?;
    hw.host_layer_s = non_negative("host-layer", a.host_layer, hw.host_layer_s)?;
    if hw.device.flops == 0.0
        || hw.device.memory_bandwidth == 0.0
        || hw.link.beta_bytes_per_s == 0.0
    {
        return Err("--flops, --memory-bandwidth and --beta must be above zero".into());
    }
    Ok(hw)
}

fn model_json(m: &Mlp) -> Value {
    json!({ "layers": m.widths(), "parameters": m.parameter_count(), "parameter_bytes": m.parameter_bytes() })
}

fn hardware_json(h: &Hardware) -> Value {
    json!({
        "name": h.name, "device": h.device.name, "flops": h.device.flops,
        "memory_bandwidth": h.device.memory_bandwidth, "memory_bytes": h.device.memory_bytes,
        "link": h.link.name, "alpha_s": h.link.alpha_s, "beta_bytes_per_s": h.link.beta_bytes_per_s,
        "host_layer_s": h.host_layer_s,
    })
}

fn events_json(events: &[Event]) -> Vec<Value> {
    events
        .iter()
        .map(|e| {
            json!({
                "device": e.device,
                "lane": match e.lane { Lane::Compute => "compute", Lane::Comm => "comm", Lane::Host => "host" },
                "activity": e.activity.name(),
                "index": e.index,
                "start_s": e.start_s,
                "end_s": e.end_s,
                "bytes": e.bytes,
                "label": e.label.english(),
            })
        })
        .collect()
}

fn timeline_json(t: &Timeline) -> Value {
    let s = &t.summary;
    json!({
        "summary": {
            "iteration_s": s.iteration_s,
            "single_device_s": s.single_device_s,
            "speedup": s.speedup,
            "samples_per_s": s.samples_per_s,
            "busiest_device": s.busiest_device,
            "busiest_load": s.busiest_load,
            "devices": s.devices.iter().map(|d| json!({"busy_s": d.busy_s, "memory_bytes": d.memory_bytes, "samples": d.samples})).collect::<Vec<_>>(),
        },
        "setup": events_json(&t.setup),
        "events": events_json(&t.events),
    })
}
