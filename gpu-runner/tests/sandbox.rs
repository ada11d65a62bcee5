//! The sandbox holds against hostile scripts, run the way submissions are (torchrun and the
//! harness inside bubblewrap), and leaves the machine as it found it.

use std::path::{Path, PathBuf};
use std::process::Command;

use gpu_runner::launch::{self, Run};
use gpu_runner::protocol::{Limits, Settings};

fn hostile(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile").join(name)
}

/// One job at a time, so each test can tell that its own cgroups are gone.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs a hostile script; the directory returned holds its records and logs.
fn run(name: &str, limits: Limits) -> (tempfile::TempDir, Run) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let before = our_cgroups();
    let venv = gpu_runner::default_venv();
    let env = gpu_runner::probe(&venv).unwrap();
    let work = tempfile::tempdir().unwrap();
    let harness = work.path().join("harness");
    launch::write_harness(&harness).unwrap();
    let settings = Settings { nproc: 1, threads: 1, pg_timeout_s: 10.0, limits };
    let run = launch::run(
        &env,
        &venv,
        &harness,
        &hostile(name),
        &settings,
        Default::default(),
        &work.path().join("run"),
    )
    .unwrap();
    // Nothing of the job may outlive it.
    let left = Command::new("pgrep").args(["-f", &format!("/job/{name}")]).output().unwrap();
    assert!(
        left.stdout.is_empty(),
        "processes of {name} survived: {}",
        String::from_utf8_lossy(&left.stdout)
    );
    let left: Vec<_> = our_cgroups().difference(&before).cloned().collect();
    assert!(left.is_empty(), "the job's cgroups were not removed: {left:?}");
    (work, run)
}

/// The cgroups this test process's jobs have now, so a test sees only what its own job left.
fn our_cgroups() -> std::collections::BTreeSet<PathBuf> {
    let ours = format!("lockstep-{}-", std::process::id());
    ["/sys/fs/cgroup/memory", "/sys/fs/cgroup/pids", "/sys/fs/cgroup/cpuacct", "/sys/fs/cgroup"]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).into_iter().flatten().flatten())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&ours))
        .map(|e| e.path())
        .collect()
}

fn small() -> Limits {
    Limits { memory_bytes: 1 << 30, pids: 64, file_bytes: 1 << 20, wall_s: 60.0 }
}

#[test]
fn no_network_beyond_loopback() {
    let (_dir, r) = run("network.py", small());
    let out = &r.stdout[0];
    assert!(
        out.contains("blocked 1.1.1.1")
            && out.contains("blocked 8.8.8.8")
            && out.contains("blocked dns"),
        "{out}"
    );
    assert!(!out.contains("REACHED"), "{out}");
}

#[test]
fn host_files_are_invisible_and_the_system_read_only() {
    let secret = std::env::temp_dir().join(format!("lockstep-secret-{}", std::process::id()));
    std::fs::write(&secret, "the platform's secret").unwrap();
    let (_dir, r) = run("files.py", small());
    std::fs::remove_file(&secret).unwrap();
    let out = &r.stdout[0];
    assert!(!out.contains("VISIBLE"), "{out}");
    assert!(!out.contains("WROTE"), "{out}");
    assert!(
        out.contains("hidden /root/.bashrc")
            && out.contains("hidden /etc/shadow")
            && out.contains("hidden /tmp/lockstep-secret-*"),
        "{out}"
    );
    assert!(out.contains("job dir writable"), "{out}");
}

#[test]
fn a_memory_hog_is_stopped_at_the_limit() {
    let (_dir, r) = run("memory_hog.py", Limits { memory_bytes: 512 << 20, ..small() });
    assert!(!r.finished.timed_out);
    if r.finished.enforced.memory {
        assert!(r.finished.out_of_memory, "{:?}", r.finished);
        assert_eq!(r.ranks[0].exit_code, None, "killed, not exited: {:?}", r.ranks[0]);
    }
}

#[test]
fn a_fork_bomb_is_contained() {
    let (_dir, r) = run("fork_bomb.py", small());
    assert!(!r.finished.timed_out);
    if r.finished.enforced.pids {
        let out = &r.stdout[0];
        let n: u32 = out
            .split("fork refused after ")
            .nth(1)
            .and_then(|s| s.split(':').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{out}"));
        assert!(n < 64, "{n} children under a limit of 64");
    }
}

#[test]
fn an_infinite_loop_is_killed_at_the_wall_clock_with_its_children() {
    let (_dir, r) = run("forever.py", Limits { wall_s: 8.0, ..small() });
    assert!(r.finished.timed_out, "{:?}", r.finished);
    assert!(r.finished.wall_s < 20.0, "{:?}", r.finished);
}

#[test]
fn a_flood_of_output_is_capped() {
    let (_dir, r) = run("flood.py", small());
    assert!(!r.finished.timed_out);
    let log = std::fs::metadata(r.records_dir.join("logs/rank0.out")).unwrap().len();
    assert!(log <= 1 << 20, "log is {log} bytes");
    // Python ignores SIGXFSZ, so the write past the limit fails (EFBIG) and the script stops.
    assert_ne!(r.ranks[0].exit_code, Some(0), "{:?}", r.ranks[0]);
    assert!(r.ranks[0].stdout_tail.len() <= launch::TAIL_BYTES + 8);
}

/// The speedup check trusts these figures to tell a busy machine from a slow script.
#[test]
fn cpu_time_is_told_apart_from_other_work_on_the_machine() {
    // Other work: a thread spinning in this process, outside the job, on the same CPUs.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let spinner = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut n = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                n = std::hint::black_box(n.wrapping_add(1));
            }
        })
    };
    let (_dir, r) = run("spin.py", small());
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    spinner.join().unwrap();
    assert!(r.stdout[0].contains("spun"), "{}", r.stdout[0]);
    let Some(cpu) = r.finished.cpu else {
        assert!(r.finished.enforced.cgroup.is_none(), "a host with cgroups accounts for CPU time");
        return;
    };
    // The script burns 1.5 s; torchrun, the interpreter and torch's import add a few seconds.
    assert!(
        cpu.job_s >= 1.5 && cpu.job_s < 1.5 + r.finished.wall_s,
        "{cpu:?}, wall {:.1} s",
        r.finished.wall_s
    );
    // The spinner had a core to itself for most of the run.
    assert!(cpu.others_s > 0.5 * r.finished.wall_s, "{cpu:?}, wall {:.1} s", r.finished.wall_s);
}
