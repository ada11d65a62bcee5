//! The `sim` binary as the README documents it.

use std::process::Command;

use serde_json::Value;

fn sim(args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sim")).args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json =
        if stdout.trim().is_empty() { Value::Null } else { serde_json::from_str(&stdout).unwrap() };
    (out.status.code().unwrap_or(-1), json, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn sampler_prints_indices() {
    // torch: DistributedSampler(range(10), num_replicas=4, rank=2, seed=0) after set_epoch(1)
    let (code, v, _) = sim(&[
        "sampler",
        "--len",
        "10",
        "--replicas",
        "4",
        "--rank",
        "2",
        "--seed",
        "0",
        "--epoch",
        "1",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v, serde_json::json!({"indices": [1, 9, 5]}));
    let (_, v, _) = sim(&[
        "sampler",
        "--len",
        "10",
        "--replicas",
        "4",
        "--rank",
        "3",
        "--shuffle",
        "false",
        "--drop-last",
    ]);
    assert_eq!(v, serde_json::json!({"indices": [3, 7]}));
}

#[test]
fn ring_prints_steps_and_final_vectors() {
    let (code, v, _) = sim(&["ring", "--ranks", "3", "--values", "[[1,2,3],[4,5,6],[7,8,9]]"]);
    assert_eq!(code, 0);
    assert_eq!(v["steps"].as_array().unwrap().len(), 4);
    assert_eq!(v["steps"][0]["phase"], "reduce-scatter");
    assert_eq!(v["steps"][3]["phase"], "all-gather");
    assert_eq!(
        v["steps"][0]["sends"][2],
        serde_json::json!({"from": 2, "to": 0, "chunk": 2, "values": [9.0]})
    );
    assert_eq!(
        v["final"],
        serde_json::json!([[12.0, 15.0, 18.0], [12.0, 15.0, 18.0], [12.0, 15.0, 18.0]])
    );
    assert_eq!(v["mean"][0], serde_json::json!([4.0, 5.0, 6.0]));
}

#[test]
fn errors_exit_2_with_a_message() {
    let (code, _, err) = sim(&["sampler", "--len", "10", "--replicas", "4", "--rank", "4"]);
    assert_eq!(code, 2);
    assert!(err.contains("Invalid rank 4, rank should be in the interval [0, 3]"), "{err}");
    let (code, _, err) = sim(&["ring", "--ranks", "3", "--values", "[[1],[2]]"]);
    assert_eq!(code, 2);
    assert!(err.contains("--ranks 3 but --values has 2 vectors"), "{err}");
    let (code, _, err) =
        sim(&["sampler", "--len", "10", "--replicas", "4", "--rank", "0", "--bogus", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("unexpected argument '--bogus'"), "{err}");
    let (code, _, err) = sim(&["sampler", "--len", "ten", "--replicas", "4", "--rank", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'ten' for '--len <LEN>'"), "{err}");
    let (code, _, err) = sim(&["sampler", "--len", "-1", "--replicas", "4", "--rank", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value '-1' for '--len <LEN>'"), "{err}");
    let (code, _, err) =
        sim(&["ddp", "--layers", "4,4", "--gpus", "2", "--batch", "8", "--alpha", "-1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--alpha must be a non-negative number"), "{err}");
}

#[test]
fn flag_equals_value_is_the_same_as_flag_space_value() {
    // torch: DistributedSampler(range(10), num_replicas=4, rank=2, seed=0) in epoch 0
    let (code, v, err) =
        sim(&["sampler", "--len=10", "--replicas=4", "--rank=2", "--seed=0", "--epoch=0"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v, serde_json::json!({"indices": [7, 0, 4]}));
    let (_, v, _) =
        sim(&["sampler", "--len=10", "--replicas=4", "--rank=3", "--shuffle=false", "--drop-last"]);
    assert_eq!(v, serde_json::json!({"indices": [3, 7]}));
}

#[test]
fn a_repeated_option_takes_its_last_value() {
    let (code, v, err) = sim(&[
        "sampler",
        "--len=10",
        "--replicas=4",
        "--rank=0",
        "--rank",
        "2",
        "--seed=-1",
        "--seed",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v, serde_json::json!({"indices": [7, 0, 4]}));
}

#[test]
fn help_and_version() {
    let out = Command::new(env!("CARGO_BIN_EXE_sim")).arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    for command in ["sampler", "ring", "allreduce", "dp", "ddp"] {
        assert!(help.contains(command), "{help}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_sim")).args(["sampler", "--help"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("--drop-last"));
    let out = Command::new(env!("CARGO_BIN_EXE_sim")).arg("--version").output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("sim {}", env!("CARGO_PKG_VERSION"))
    );
    let out = Command::new(env!("CARGO_BIN_EXE_sim")).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "no command is a usage error");
}

#[test]
fn allreduce_runs_naive_and_tree() {
    let (code, v, _) =
        sim(&["allreduce", "--algorithm", "naive", "--values", "[[1,2],[3,4],[5,6]]"]);
    assert_eq!(code, 0);
    assert_eq!(v["algorithm"], "naive");
    let phases: Vec<&str> =
        v["steps"].as_array().unwrap().iter().map(|s| s["phase"].as_str().unwrap()).collect();
    assert_eq!(phases, ["reduce", "reduce", "broadcast", "broadcast"]);
    assert_eq!(v["final"][2], serde_json::json!([9.0, 12.0]));
    let (_, v, _) = sim(&["allreduce", "--algorithm", "tree", "--values", "[[1],[2],[3],[4],[5]]"]);
    assert_eq!(v["steps"].as_array().unwrap().len(), 6, "2⌈log₂5⌉ steps");
    assert_eq!(v["final"][4], serde_json::json!([15.0]));
    let (code, _, err) = sim(&["allreduce", "--algorithm", "butterfly", "--values", "[[1]]"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown `butterfly`"), "{err}");
}

#[test]
fn dp_prints_a_timeline_with_torch_chunks() {
    let (code, v, err) = sim(&["dp", "--layers", "784,1024,10", "--gpus", "4", "--batch", "6"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["chunks"], serde_json::json!([2, 2, 2]));
    assert_eq!(v["gpus_used"], 3);
    let s = &v["timeline"]["summary"];
    assert!(s["iteration_s"].as_f64().unwrap() > 0.0);
    assert_eq!(s["devices"].as_array().unwrap().len(), 3);
    let events = v["timeline"]["events"].as_array().unwrap();
    assert!(events.iter().any(|e| e["activity"] == "replicate"));
    assert!(events.iter().any(|e| e["activity"] == "gather"));
    let (code, _, err) =
        sim(&["dp", "--layers", "4,4", "--gpus", "2", "--batch", "8", "--hardware", "cpu-gloo"]);
    assert_eq!(code, 2);
    assert!(err.contains("DataParallel only runs on CUDA devices"), "{err}");
}

#[test]
fn ddp_prints_buckets_and_a_timeline() {
    let (code, v, err) =
        sim(&["ddp", "--layers", "784,1024,1024,10", "--gpus", "2", "--batch", "256"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["local_batch"], 128);
    assert_eq!(v["iteration"], "rebuilt");
    // torch 2.13: rebuilt_per_bucket_param_indices "5 4 3 2, 1 0", sizes "4239400, 3215360".
    assert_eq!(v["buckets"][0]["params"], serde_json::json!([5, 4, 3, 2]));
    assert_eq!(v["buckets"][0]["names"][0], "4.bias");
    assert_eq!(v["buckets"][1]["bytes"], 3_215_360);
    assert_eq!(v["first_iteration_buckets"].as_array().unwrap().len(), 1);
    assert!(!v["timeline"]["setup"].as_array().unwrap().is_empty());
    let (_, first, _) = sim(&[
        "ddp",
        "--layers",
        "784,1024,1024,10",
        "--gpus",
        "2",
        "--batch",
        "256",
        "--iteration",
        "first",
    ]);
    assert_eq!(first["buckets"].as_array().unwrap().len(), 1);
    let (_, cpu, _) = sim(&[
        "ddp",
        "--layers",
        "784,256,256,10",
        "--gpus",
        "2",
        "--batch",
        "512",
        "--hardware",
        "cpu-gloo",
        "--beta",
        "1e12",
    ]);
    assert_eq!(cpu["hardware"]["beta_bytes_per_s"], 1e12);
    let (code, _, err) = sim(&["ddp", "--layers", "784", "--gpus", "2", "--batch", "8"]);
    assert_eq!(code, 2);
    assert!(err.contains("at least two layer widths"), "{err}");
}
