//! An interrupted test command stops the services it started: a SIGINT or SIGTERM sent to
//! xtask alone (a CI timeout; Ctrl-C also reaches the rest of the terminal's group) leaves no
//! PostgreSQL server, Slurm daemon, running command or folder in /tmp behind.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every process whose command line contains `needle`.
fn processes_with(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().filter_map(|e| e.ok()) {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        let line = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if line.contains(needle) {
            found.push(format!("{}: {line}", entry.file_name().to_string_lossy()));
        }
    }
    found
}

fn interrupted_by(signal: &str, code: i32) {
    // The shell and its `sleep` are found by their command lines.
    let marker = format!("lockstep-interrupt-{signal}-{}", std::process::id());
    let sleep = format!("sleep 7{}", std::process::id() % 10_000);
    let mut xtask = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["with-services", "--", "sh", "-c", &format!("echo ready; {sleep}; : {marker}")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = xtask.id();
    let mut stderr = BufReader::new(xtask.stderr.take().unwrap()).lines();
    let mut log = Vec::new();
    for line in stderr.by_ref().map_while(Result::ok) {
        log.push(line);
        if log.last().unwrap().contains("Slurm test cluster up") {
            break;
        }
    }
    // Read on, as a terminal would, so that what xtask says while it stops has somewhere to go.
    let rest = std::thread::spawn(move || stderr.map_while(Result::ok).collect::<Vec<_>>());
    let mut stdout = BufReader::new(xtask.stdout.take().unwrap());
    let mut ready = String::new();
    stdout.read_line(&mut ready).unwrap();
    assert_eq!(ready.trim(), "ready", "the command did not start: {log:#?}");
    let pg_dir = std::env::temp_dir().join(format!("lockstep-pg-{pid}"));
    let slurm_dir = std::env::temp_dir().join(format!("lockstep-slurm-{pid}"));
    assert!(pg_dir.exists() && slurm_dir.exists(), "the services' folders: {log:#?}");
    assert!(!processes_with(&pg_dir.display().to_string()).is_empty(), "PostgreSQL runs");
    assert!(!processes_with(&slurm_dir.display().to_string()).is_empty(), "Slurm runs");

    Command::new("kill").args([&format!("-{signal}"), &pid.to_string()]).status().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = xtask.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "xtask still runs 60 s after {signal}");
        std::thread::sleep(Duration::from_millis(100));
    };
    let said = rest.join().unwrap();
    assert_eq!(status.code(), Some(code), "exits as a shell reports {signal}: {said:#?}");
    let left = |dir: &Path| processes_with(&dir.display().to_string());
    assert_eq!(left(&pg_dir), Vec::<String>::new(), "PostgreSQL stopped");
    assert_eq!(left(&slurm_dir), Vec::<String>::new(), "Slurm stopped");
    assert_eq!(processes_with(&marker), Vec::<String>::new(), "the command stopped");
    assert_eq!(processes_with(&sleep), Vec::<String>::new(), "and what it started");
    let gone = |dir: &PathBuf| !dir.exists();
    assert!(gone(&pg_dir) && gone(&slurm_dir), "the folders are removed");
}

/// One after the other: each starts a Slurm cluster of its own on this one node.
#[test]
fn sigint_and_sigterm_stop_the_services() {
    interrupted_by("INT", 130);
    interrupted_by("TERM", 143);
}
