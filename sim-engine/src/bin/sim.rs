//! `sim`: the simulations on the command line, as JSON. See the crate README.
//!
//! This binary is the only part of sim-engine that does IO (arguments in, JSON out).

use std::collections::HashMap;
use std::process::ExitCode;

use serde_json::{json, Value};
use sim_engine::ring::{ring_allreduce, Phase};
use sim_engine::sampler::DistributedSampler;

const USAGE: &str = "usage:
  sim sampler --len L --replicas R --rank K --seed S --epoch E [--shuffle true|false] [--drop-last]
  sim ring --ranks N --values '[[...], [...], ...]'";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(v) => {
            println!("{v}");
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
            let known = ["len", "replicas", "rank", "seed", "epoch", "shuffle", "drop-last"];
            if let Some(k) = o.keys().find(|k| !known.contains(&k.as_str())) {
                return Err(format!("unknown option --{k}"));
            }
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
        "ring" => {
            let o = options(rest, &[])?;
            let values: Vec<Vec<f32>> =
                serde_json::from_str(o.get("values").ok_or("--values is required")?).map_err(|e| format!("--values: {e}"))?;
            let ranks: usize = get(&o, "ranks", Some(values.len()))?;
            if ranks != values.len() {
                return Err(format!("--ranks {ranks} but --values has {} vectors", values.len()));
            }
            let r = ring_allreduce(&values).map_err(|e| e.to_string())?;
            let steps: Vec<Value> = r
                .steps
                .iter()
                .map(|s| {
                    json!({
                        "phase": match s.phase { Phase::ReduceScatter => "reduce-scatter", Phase::AllGather => "all-gather" },
                        "sends": s.transfers.iter().map(|t| json!({"from": t.from, "to": t.to, "chunk": t.chunk, "values": t.values})).collect::<Vec<_>>(),
                        "after": s.after,
                    })
                })
                .collect();
            let chunks: Vec<[usize; 2]> = r.chunks.iter().map(|c| [c.start, c.end]).collect();
            Ok(json!({ "chunks": chunks, "steps": steps, "final": r.sum, "mean": r.mean }))
        }
        other => Err(format!("unknown command `{other}`")),
    }
}
