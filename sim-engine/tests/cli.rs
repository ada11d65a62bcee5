//! The `sim` binary as the README documents it.

use std::process::Command;

use serde_json::Value;

fn sim(args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sim")).args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json = if stdout.trim().is_empty() { Value::Null } else { serde_json::from_str(&stdout).unwrap() };
    (out.status.code().unwrap_or(-1), json, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn sampler_prints_indices() {
    // torch: DistributedSampler(range(10), num_replicas=4, rank=2, seed=0) after set_epoch(1)
    let (code, v, _) = sim(&["sampler", "--len", "10", "--replicas", "4", "--rank", "2", "--seed", "0", "--epoch", "1"]);
    assert_eq!(code, 0);
    assert_eq!(v, serde_json::json!({"indices": [1, 9, 5]}));
    let (_, v, _) = sim(&["sampler", "--len", "10", "--replicas", "4", "--rank", "3", "--shuffle", "false", "--drop-last"]);
    assert_eq!(v, serde_json::json!({"indices": [3, 7]}));
}

#[test]
fn ring_prints_steps_and_final_vectors() {
    let (code, v, _) = sim(&["ring", "--ranks", "3", "--values", "[[1,2,3],[4,5,6],[7,8,9]]"]);
    assert_eq!(code, 0);
    assert_eq!(v["steps"].as_array().unwrap().len(), 4);
    assert_eq!(v["steps"][0]["phase"], "reduce-scatter");
    assert_eq!(v["steps"][3]["phase"], "all-gather");
    assert_eq!(v["steps"][0]["sends"][2], serde_json::json!({"from": 2, "to": 0, "chunk": 2, "values": [9.0]}));
    assert_eq!(v["final"], serde_json::json!([[12.0, 15.0, 18.0], [12.0, 15.0, 18.0], [12.0, 15.0, 18.0]]));
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
    let (code, _, err) = sim(&["sampler", "--len", "10", "--replicas", "4", "--rank", "0", "--bogus", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown option --bogus"), "{err}");
}
