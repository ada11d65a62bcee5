//! Running the course's Python scripts with the set-up's environment, as the lesson and fact
//! tests do.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Longest one script may take: the slowest here takes about 30 s on two cores. A script that
/// hangs (a collective nobody joins) fails instead of holding the suite.
pub const LIMIT: Duration = Duration::from_secs(180);

/// `LOCKSTEP_VENV`, else `~/.cache/lockstep/venv`: the set-up's rule.
pub fn venv() -> PathBuf {
    std::env::var_os("LOCKSTEP_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(&std::env::var("HOME").unwrap()).join(".cache/lockstep/venv"))
}

/// `script` (a path from the folder it runs in) under `torchrun --standalone
/// --nproc_per_node=N` with `torchrun` options, or with plain Python, on CPU with one thread per
/// process. It runs through `run_and_exit.py`, which leaves without the interpreter's teardown,
/// where torch 2.13 with gloo now and then aborts a process that has done its work (the file
/// says why).
pub fn launcher(nproc: Option<u32>, torchrun: &[&str], script: &str) -> Command {
    let bin = venv().join("bin");
    let mut cmd = match nproc {
        Some(n) => {
            let mut c = Command::new(bin.join("torchrun"));
            c.args(["--standalone", &format!("--nproc_per_node={n}")]).args(torchrun);
            c
        }
        None => Command::new(bin.join("python")),
    };
    cmd.arg(helper("run_and_exit.py")).arg(script);
    on_cpu(&mut cmd);
    cmd
}

/// A Python file of this folder.
pub fn helper(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/common").join(name)
}

/// CPU only, one thread per process.
pub fn on_cpu(cmd: &mut Command) -> &mut Command {
    cmd.env("OMP_NUM_THREADS", "1").env("CUDA_VISIBLE_DEVICES", "")
}

/// Runs `cmd` in `dir` until it ends or [`LIMIT`] passes, when its whole process group is
/// killed (the scripts start torchrun and processes of their own): (exit code, `None` when
/// killed; stdout and stderr together).
pub fn run(mut cmd: Command, dir: &Path) -> (Option<i32>, String) {
    // Output to a file, not a pipe: a grandchild still holding a pipe would keep us waiting.
    let log = dir.join("output.log");
    let file = std::fs::File::create(&log).unwrap();
    let mut child = cmd
        .current_dir(dir)
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .process_group(0)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let started = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if started.elapsed() > LIMIT {
            let group = format!("-{}", child.id());
            let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    (code, std::fs::read_to_string(&log).unwrap_or_default())
}

/// How many times a script is run before its failure stands. The facts are deterministic, so a
/// wrong one fails every time. A later attempt is for what the scripts do not control: a
/// process of their own (`mp.spawn`'s children, a torchrun they start) that torch 2.13's gloo
/// aborts in its teardown, as `run_and_exit.py` explains.
pub const ATTEMPTS: u32 = 3;

/// `once()` until `passed` says so or [`ATTEMPTS`] are made: the last result. A failed attempt
/// is written to stderr (its last 2,000 characters), so a flaky script shows in the test's log
/// even when it then passes.
pub fn attempts<T: std::fmt::Debug>(
    what: &str,
    mut once: impl FnMut() -> T,
    passed: impl Fn(&T) -> bool,
) -> T {
    let mut result = once();
    for attempt in 1..ATTEMPTS {
        if passed(&result) {
            break;
        }
        let failed = format!("{result:?}");
        let tail = &failed[failed.floor_char_boundary(failed.len().saturating_sub(2000))..];
        // Straight to stderr: the test harness captures `eprintln!` and shows it only when
        // the test fails.
        let _ = writeln!(
            std::io::stderr(),
            "{what}: attempt {attempt} of {ATTEMPTS} failed, running again: …{tail}"
        );
        result = once();
    }
    result
}
