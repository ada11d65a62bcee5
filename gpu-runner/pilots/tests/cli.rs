//! The `lockstep-pilots` command line: help, the batch script it would submit, and a broken
//! configuration refused with its field and exit code 2, before anything reaches Slurm.

use std::process::Command;

fn pilots(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_lockstep-pilots"))
        .args(args)
        .env("LOCKSTEP_WORKER_TOKEN", "lsw_not-a-real-token")
        .output()
        .unwrap()
}

#[test]
fn help_names_the_configuration() {
    let out = pilots(&["--help"]);
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("--config <FILE>"), "{help}");
    assert!(help.contains("--print-script"), "{help}");
}

#[test]
fn the_batch_script_of_a_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pilots.toml");
    std::fs::write(
        &path,
        "server = \"http://10.0.0.1:3000\"\nrunner = \"/shared/gpu-runner\"\n\
         [slurm]\npartition = \"gpu\"\ngpus_per_job = 8\ntime_limit = \"4:00:00\"\n",
    )
    .unwrap();
    let out = pilots(&[&format!("--config={}", path.display()), "--print-script"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let script = String::from_utf8(out.stdout).unwrap();
    assert!(script.starts_with("#!/bin/bash\n#SBATCH --job-name=lockstep-pilot\n"), "{script}");
    assert!(script.contains("#SBATCH --gres=gpu:8\n"), "{script}");
    assert!(script.contains("--claim-for=12600"), "4 h less half an hour: {script}");
}

#[test]
fn a_broken_configuration_exits_2_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pilots.toml");
    std::fs::write(
        &path,
        "server = \"http://10.0.0.1:3000\"\nrunner = \"/x\"\n[slurm]\npartition = \"gpu\"\ntime_limit = \"soon\"\n",
    )
    .unwrap();
    let out = pilots(&["--config", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("pilots.toml: `slurm.time_limit`"), "{err}");
    let out = pilots(&["--config=/nonexistent/pilots.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("cannot read /nonexistent"));
    let out = pilots(&["--frobnicate"]);
    assert_eq!(out.status.code(), Some(2), "clap's usage error");
}
