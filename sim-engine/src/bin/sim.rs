//! `sim`: the simulations on the command line, as JSON. See the crate README.
//!
//! This binary is the only part of sim-engine that does IO (arguments in, JSON out).

use std::collections::HashMap;
use std::io::Write;
use std::process::ExitCode;

use serde_json::{json, Value};
use sim_engine::allreduce::{allreduce, Algorithm};
use sim_engine::buckets::{Bucket, BucketCap};
use sim_engine::ddp::{self, DdpConfig, Iteration};
use sim_engine::dp::{self, DpConfig};
use sim_engine::hardware::{self, Hardware};
use sim_engine::model::Mlp;
use sim_engine::sampler::DistributedSampler;
use sim_engine::timeline::{Event, Lane, Timeline};

const USAGE: &str = "usage:
  sim sampler --len L --replicas R --rank K --seed S --epoch E [--shuffle true|false] [--drop-last]
  sim ring --ranks N --values '[[...], [...], ...]'
  sim allreduce --algorithm ring|naive|tree --values '[[...], [...], ...]'
  sim dp  --layers W0,W1,...,WL --gpus N --batch B [--hardware NAME] [HARDWARE OVERRIDES]
  sim ddp --layers W0,W1,...,WL --gpus N --batch B [--hardware NAME] [--bucket-cap-mb MB]
          [--iteration first|rebuilt] [HARDWARE OVERRIDES]
hardware: h100-nvlink (default), h100-pcie, a100-pcie, cpu-gloo
overrides: --flops F --memory-bandwidth B --alpha SECONDS --beta BYTES_PER_S --host-layer SECONDS";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(v) => {
            // A reader that stops early (`sim … | head`) is not an error.
            let _ = writeln!(std::io::stdout().lock(), "{v}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("sim: {e}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// `--key value` pairs and bare `--flag`s.
fn options(args: &[String], flags: &[&str]) -> Result<HashMap<String, String>, String> {
    let mut out = HashMap::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let key = a.strip_prefix("--").ok_or_else(|| format!("unexpected argument `{a}`"))?;
        if flags.contains(&key) {
            out.insert(key.to_string(), "true".to_string());
        } else {
            let value = it.next().ok_or_else(|| format!("--{key} needs a value"))?;
            out.insert(key.to_string(), value.clone());
        }
    }
    Ok(out)
}

fn check_known(o: &HashMap<String, String>, known: &[&str]) -> Result<(), String> {
    match o.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(format!("unknown option --{k}")),
        None => Ok(()),
    }
}

fn get<T: std::str::FromStr>(o: &HashMap<String, String>, key: &str, default: Option<T>) -> Result<T, String> {
    match o.get(key) {
        Some(v) => v.parse().map_err(|_| format!("--{key}: cannot read `{v}`")),
        None => default.ok_or_else(|| format!("--{key} is required")),
    }
}

fn run(args: &[String]) -> Result<Value, String> {
    let (cmd, rest) = args.split_first().ok_or("no command")?;
    match cmd.as_str() {
        "sampler" => {
            let o = options(rest, &["drop-last"])?;
            check_known(&o, &["len", "replicas", "rank", "seed", "epoch", "shuffle", "drop-last"])?;
            let sampler = DistributedSampler::new(
                get(&o, "len", None)?,
                get(&o, "replicas", None)?,
                get(&o, "rank", None)?,
                get(&o, "shuffle", Some(true))?,
                get(&o, "seed", Some(0))?,
                o.contains_key("drop-last"),
            )
            .map_err(|e| e.to_string())?;
            let indices = sampler.indices(get(&o, "epoch", Some(0))?).map_err(|e| e.to_string())?;
            Ok(json!({ "indices": indices }))
        }
        "ring" | "allreduce" => {
            let o = options(rest, &[])?;
            check_known(&o, &["values", "ranks", "algorithm"])?;
            let algorithm = match (cmd.as_str(), o.get("algorithm")) {
                ("ring", None) => Algorithm::Ring,
                ("ring", Some(_)) => return Err("`sim ring` is the ring; use `sim allreduce --algorithm`".into()),
                (_, name) => {
                    let name = name.ok_or("--algorithm is required")?;
                    Algorithm::from_name(name).ok_or_else(|| format!("--algorithm: unknown `{name}` (ring, naive, tree)"))?
                }
            };
            let values: Vec<Vec<f32>> =
                serde_json::from_str(o.get("values").ok_or("--values is required")?).map_err(|e| format!("--values: {e}"))?;
            let ranks: usize = get(&o, "ranks", Some(values.len()))?;
            if ranks != values.len() {
                return Err(format!("--ranks {ranks} but --values has {} vectors", values.len()));
            }
            let r = allreduce(algorithm, &values).map_err(|e| e.to_string())?;
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
            Ok(json!({ "algorithm": algorithm.name(), "chunks": chunks, "steps": steps, "final": r.sum, "mean": r.mean }))
        }
        "dp" => {
            let o = options(rest, &[])?;
            check_known(&o, &[&["layers", "gpus", "batch"][..], HARDWARE_OPTIONS].concat())?;
            let cfg = DpConfig { model: model(&o)?, hardware: hardware(&o)?, gpus: get(&o, "gpus", None)?, batch: get(&o, "batch", None)? };
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
        "ddp" => {
            let o = options(rest, &[])?;
            check_known(&o, &[&["layers", "gpus", "batch", "bucket-cap-mb", "iteration"][..], HARDWARE_OPTIONS].concat())?;
            let iteration = match o.get("iteration").map(String::as_str) {
                None | Some("rebuilt") => Iteration::Rebuilt,
                Some("first") => Iteration::First,
                Some(other) => return Err(format!("--iteration: unknown `{other}` (first, rebuilt)")),
            };
            let bucket_cap_mb = o.get("bucket-cap-mb").map(|_| get::<f64>(&o, "bucket-cap-mb", None)).transpose()?;
            let cfg = DdpConfig {
                model: model(&o)?,
                hardware: hardware(&o)?,
                world_size: get(&o, "gpus", None)?,
                batch: get(&o, "batch", None)?,
                bucket_cap: BucketCap { bucket_cap_mb },
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
        other => Err(format!("unknown command `{other}`")),
    }
}

const HARDWARE_OPTIONS: &[&str] = &["hardware", "flops", "memory-bandwidth", "alpha", "beta", "host-layer"];

fn model(o: &HashMap<String, String>) -> Result<Mlp, String> {
    let widths = o.get("layers").ok_or("--layers is required (e.g. 784,1024,10)")?;
    let widths: Vec<usize> = widths
        .split(',')
        .map(|w| w.trim().parse().map_err(|_| format!("--layers: cannot read `{w}`")))
        .collect::<Result<_, _>>()?;
    Mlp::new(widths).map_err(|e| format!("--layers: {e}"))
}

fn hardware(o: &HashMap<String, String>) -> Result<Hardware, String> {
    let name = o.get("hardware").map_or("h100-nvlink", String::as_str);
    let mut hw = hardware::preset(name).ok_or_else(|| {
        let names: Vec<&str> = hardware::PRESETS.iter().map(|h| h.name).collect();
        format!("--hardware: unknown `{name}` ({})", names.join(", "))
    })?;
    let positive = |key: &str, default: f64| -> Result<f64, String> {
        let v: f64 = get(o, key, Some(default))?;
        if v.is_finite() && v >= 0.0 {
            Ok(v)
        } else {
            Err(format!("--{key} must be a non-negative number"))
        }
    };
    hw.device.flops = positive("flops", hw.device.flops)?;
    hw.device.memory_bandwidth = positive("memory-bandwidth", hw.device.memory_bandwidth)?;
    hw.link.alpha_s = positive("alpha", hw.link.alpha_s)?;
    hw.link.beta_bytes_per_s = positive("beta", hw.link.beta_bytes_per_s)?;
    hw.host_layer_s = positive("host-layer", hw.host_layer_s)?;
    if hw.device.flops == 0.0 || hw.device.memory_bandwidth == 0.0 || hw.link.beta_bytes_per_s == 0.0 {
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
                "label": e.label,
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
