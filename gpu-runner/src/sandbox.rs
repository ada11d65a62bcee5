//! Confines an untrusted command: bubblewrap for what it can see and reach, cgroups for memory
//! and processes, rlimits for file sizes, and a wall clock that kills the whole tree.
//!
//! Inside, the command runs as uid 1000 in new user, PID, network, IPC and UTS namespaces. It
//! sees a read-only `/usr`, the Python installation and environment (read-only, at their own
//! paths), the harness at `/opt/lockstep`, the job directory at `/job` and the records
//! directory at `/records` (both writable), a private `/tmp`, and nothing else of the host: not
//! its home, not other jobs, not the platform's database. The only network is loopback, which
//! torchrun's rendezvous and gloo need.

use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use grading_protocol::{CpuTime, Enforced, Limits};

use crate::cpu::{self, CgroupUsage};
use crate::RunnerError;

/// Where the sandbox's writable and read-only parts come from on the host.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Writable at `/job`; the command starts there.
    pub job: PathBuf,
    /// Writable at `/records`.
    pub records: PathBuf,
    /// Read-only at `/opt/lockstep`.
    pub harness: PathBuf,
    /// Read-only at their own paths: the Python environment and its base installation.
    pub python: Vec<PathBuf>,
    /// Whether to pass the host's GPUs through (`/dev/nvidia*`, `/sys`).
    pub gpus: bool,
}

/// How the command ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub wall_s: f64,
    /// Whether the memory limit was hit (an OOM kill inside the job's cgroup).
    pub out_of_memory: bool,
    /// What was enforced by cgroups, and what could not be on this host.
    pub enforced: Enforced,
    /// CPU time during the run, when the host accounts for it.
    pub cpu: Option<CpuTime>,
}

/// How long a dropped [`Cgroup`] keeps killing what is left in it before giving up.
const CGROUP_TEARDOWN: Duration = Duration::from_secs(30);

/// A cgroup for one job, v2 or v1, removed when dropped.
struct Cgroup {
    /// The `cgroup.procs` files the job's first process joins.
    procs: Vec<PathBuf>,
    dirs: Vec<PathBuf>,
    memory: bool,
    pids: bool,
    oom_events: Option<PathBuf>,
    cpu_usage: Option<(PathBuf, CgroupUsage)>,
    v2: bool,
}

impl Cgroup {
    fn create(name: &str, limits: &Limits) -> Option<Cgroup> {
        let root = Path::new("/sys/fs/cgroup");
        if root.join("cgroup.controllers").exists() {
            // cgroup v2: one directory, if this process may create it.
            let dir = root.join(name);
            std::fs::create_dir(&dir).ok()?;
            let memory =
                std::fs::write(dir.join("memory.max"), limits.memory_bytes.to_string()).is_ok();
            let _ = std::fs::write(dir.join("memory.swap.max"), "0");
            let pids = std::fs::write(dir.join("pids.max"), limits.pids.to_string()).is_ok();
            return Some(Cgroup {
                procs: vec![dir.join("cgroup.procs")],
                oom_events: Some(dir.join("memory.events")),
                cpu_usage: Some((dir.join("cpu.stat"), CgroupUsage::V2CpuStat)),
                dirs: vec![dir],
                memory,
                pids,
                v2: true,
            });
        }
        // cgroup v1: one directory per controller.
        let mut cg = Cgroup {
            procs: vec![],
            dirs: vec![],
            memory: false,
            pids: false,
            oom_events: None,
            cpu_usage: None,
            v2: false,
        };
        let mem = root.join("memory").join(name);
        if std::fs::create_dir(&mem).is_ok() {
            cg.memory =
                std::fs::write(mem.join("memory.limit_in_bytes"), limits.memory_bytes.to_string())
                    .is_ok();
            // Without swap accounting a job could page out instead of stopping.
            let _ = std::fs::write(
                mem.join("memory.memsw.limit_in_bytes"),
                limits.memory_bytes.to_string(),
            );
            cg.procs.push(mem.join("cgroup.procs"));
            cg.oom_events = Some(mem.join("memory.oom_control"));
            cg.dirs.push(mem);
        }
        let pids = root.join("pids").join(name);
        if std::fs::create_dir(&pids).is_ok() {
            cg.pids = std::fs::write(pids.join("pids.max"), limits.pids.to_string()).is_ok();
            cg.procs.push(pids.join("cgroup.procs"));
            cg.dirs.push(pids);
        }
        let cpu = root.join("cpuacct").join(name);
        if std::fs::create_dir(&cpu).is_ok() {
            cg.procs.push(cpu.join("cgroup.procs"));
            cg.cpu_usage = Some((cpu.join("cpuacct.usage"), CgroupUsage::V1CpuacctUsage));
            cg.dirs.push(cpu);
        }
        (!cg.dirs.is_empty()).then_some(cg)
    }

    /// The CPU time the job's processes used, in seconds.
    fn cpu_s(&self) -> Option<f64> {
        let (path, kind) = self.cpu_usage.as_ref()?;
        cpu::cgroup_usage_s(*kind, &std::fs::read_to_string(path).ok()?)
    }

    /// Whether the kernel killed a process for reaching the memory limit: `oom_kill N` in
    /// `memory.events` (v2) or `memory.oom_control` (v1, kernels since 4.13).
    fn oom_killed(&self) -> bool {
        let Some(path) = &self.oom_events else { return false };
        std::fs::read_to_string(path).unwrap_or_default().lines().any(|l| {
            let mut w = l.split_whitespace();
            w.next() == Some("oom_kill")
                && w.next().and_then(|n| n.parse::<u64>().ok()).is_some_and(|n| n > 0)
        })
    }

    /// Kills everything still in the cgroup.
    fn kill_all(&self) {
        for procs in &self.procs {
            for pid in std::fs::read_to_string(procs)
                .unwrap_or_default()
                .lines()
                .filter_map(|l| l.trim().parse::<i32>().ok())
            {
                // SAFETY: kill(2) with a pid read from our own cgroup; no memory is touched.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        // The kernel takes its time to tear down a killed job: a fork bomb's 64 processes took
        // 0.2 s on an idle machine here and over a second on a busy one. The deadline is
        // generous because a cgroup left behind is never cleaned up by anyone else.
        let deadline = Instant::now() + CGROUP_TEARDOWN;
        loop {
            self.kill_all();
            if self.dirs.iter().all(|d| std::fs::remove_dir(d).is_ok() || !d.exists()) {
                return;
            }
            if Instant::now() >= deadline {
                let left: Vec<_> = self.dirs.iter().filter(|d| d.exists()).collect();
                eprintln!("gpu-runner: could not remove the job's cgroups {left:?}");
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The bubblewrap command line for `argv` inside the layout.
fn bwrap_args(layout: &Layout, env: &[(String, String)], argv: &[String]) -> Vec<String> {
    let mut a: Vec<String> = Vec::new();
    let mut push = |xs: &[&str]| a.extend(xs.iter().map(|s| s.to_string()));
    push(&["--unshare-user", "--uid", "1000", "--gid", "1000"]);
    push(&[
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
    ]);
    push(&["--hostname", "lockstep", "--die-with-parent", "--new-session"]);
    push(&[
        "--ro-bind",
        "/usr",
        "/usr",
        "--symlink",
        "usr/bin",
        "/bin",
        "--symlink",
        "usr/lib",
        "/lib",
    ]);
    push(&["--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin"]);
    push(&["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"]);
    for p in &layout.python {
        let p = p.display().to_string();
        push(&["--ro-bind", &p, &p]);
    }
    push(&["--ro-bind", &layout.harness.display().to_string(), "/opt/lockstep"]);
    push(&["--ro-bind", &layout.harness.join("etc/hosts").display().to_string(), "/etc/hosts"]);
    push(&["--ro-bind", &layout.harness.join("etc/passwd").display().to_string(), "/etc/passwd"]);
    push(&["--bind", &layout.job.display().to_string(), "/job"]);
    push(&["--bind", &layout.records.display().to_string(), "/records"]);
    push(&["--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/dev/shm"]);
    if layout.gpus {
        // NCCL and CUDA need the device nodes and read the topology from /sys.
        push(&["--ro-bind", "/sys", "/sys"]);
        if let Ok(dir) = std::fs::read_dir("/dev") {
            for e in dir.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                if name.starts_with("nvidia") {
                    push(&["--dev-bind", &format!("/dev/{name}"), &format!("/dev/{name}")]);
                }
            }
        }
        // The driver's libraries: under /usr (/usr/local/nvidia included) they are bound
        // already; elsewhere (/opt, a cluster's software tree) at their own paths, where the
        // linker's cache, bound above, finds them.
        for dir in installed_driver_lib_dirs() {
            let dir = dir.display().to_string();
            push(&["--ro-bind", &dir, &dir]);
        }
    }
    // The sandbox's own root (a tmpfs holding the mount points) read-only too: only /job,
    // /records and /tmp can be written.
    push(&["--remount-ro", "/", "--chdir", "/job", "--clearenv"]);
    for (k, v) in env {
        push(&["--setenv", k, v]);
    }
    push(&["--"]);
    a.extend(argv.iter().cloned());
    a
}

/// [`driver_lib_dirs`] of this machine, read once: a worker makes many runs, and the driver
/// does not change under it. `ldconfig` lives in /sbin, which a user's `PATH` may lack.
fn installed_driver_lib_dirs() -> &'static [PathBuf] {
    static DIRS: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();
    DIRS.get_or_init(|| {
        let listing = ["ldconfig", "/sbin/ldconfig"]
            .iter()
            .find_map(|bin| Command::new(bin).arg("-p").output().ok())
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
        driver_lib_dirs(&listing.unwrap_or_default())
    })
}

/// Folders outside `/usr` holding the NVIDIA driver's user-space libraries (`libcuda`, NVML and
/// the rest of `libnvidia-*`), from `ldconfig -p`'s listing.
fn driver_lib_dirs(ldconfig_p: &str) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for line in ldconfig_p.lines() {
        let Some((name, path)) = line.trim().split_once(" => ") else { continue };
        if !(name.starts_with("libcuda.so") || name.starts_with("libnvidia-")) {
            continue;
        }
        let Some(dir) = Path::new(path.trim()).parent() else { continue };
        if !dir.starts_with("/usr") && dir.is_absolute() && !dirs.iter().any(|d| d == dir) {
            dirs.push(dir.to_path_buf());
        }
    }
    dirs
}

/// Writes the few files the sandbox's `/etc` needs into the harness directory.
pub fn write_etc(harness: &Path) -> Result<(), RunnerError> {
    let etc = harness.join("etc");
    std::fs::create_dir_all(&etc).map_err(RunnerError::io("creating the sandbox's /etc"))?;
    std::fs::write(etc.join("hosts"), "127.0.0.1 localhost lockstep\n::1 localhost\n")
        .map_err(RunnerError::io("writing the sandbox's /etc/hosts"))?;
    std::fs::write(etc.join("passwd"), "lockstep:x:1000:1000:lockstep:/job:/bin/sh\n")
        .map_err(RunnerError::io("writing the sandbox's /etc/passwd"))?;
    Ok(())
}

/// Whether bubblewrap is installed.
pub fn available() -> bool {
    Command::new("bwrap").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// How often [`run`] calls its `tick` while the job runs.
pub const TICK: Duration = Duration::from_millis(250);

/// Runs `argv` in the sandbox with `env` as its whole environment. Its stdout and stderr (the
/// launcher's own; the ranks write their own files) go to `output`. `tick` is called every
/// [`TICK`] while the job runs, for watching what it writes.
pub fn run(
    layout: &Layout,
    limits: &Limits,
    env: &[(String, String)],
    argv: &[String],
    output: &Path,
    tick: &mut dyn FnMut(),
) -> Result<Finished, RunnerError> {
    if !available() {
        return Err(RunnerError::Sandbox(
            "bubblewrap (`bwrap`) is not installed: run `cargo xtask run` once".into(),
        ));
    }
    let name = format!("lockstep-{}-{}", std::process::id(), unique());
    let cgroup = Cgroup::create(&name, limits);
    let out =
        File::create(output).map_err(RunnerError::io(format!("creating {}", output.display())))?;
    let err = out.try_clone().map_err(RunnerError::io("duplicating the output file"))?;

    // The first process joins the cgroups and then becomes bubblewrap, so nothing the job
    // starts is ever outside them.
    let mut script = String::new();
    for procs in cgroup.iter().flat_map(|c| c.procs.iter()) {
        script.push_str(&format!("echo $$ > '{}' || exit 125; ", procs.display()));
    }
    script.push_str("exec bwrap \"$@\"");
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c").arg(script).arg("bwrap").args(bwrap_args(layout, env, argv));
    cmd.stdin(Stdio::null()).stdout(out).stderr(err);
    let file_bytes = limits.file_bytes;
    // SAFETY: only async-signal-safe calls (setsid, setrlimit) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            libc::setsid();
            let fsize = libc::rlimit { rlim_cur: file_bytes, rlim_max: file_bytes };
            libc::setrlimit(libc::RLIMIT_FSIZE, &fsize);
            let none = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            libc::setrlimit(libc::RLIMIT_CORE, &none);
            Ok(())
        });
    }
    let meter = cpu::Meter::start();
    let started = Instant::now();
    let mut child =
        cmd.spawn().map_err(|source| RunnerError::Spawn { path: "bwrap".into(), source })?;
    let deadline = started + Duration::from_secs_f64(limits.wall_s);
    let mut timed_out = false;
    let mut ticked = Instant::now();
    let status: ExitStatus = loop {
        if let Some(status) =
            child.try_wait().map_err(RunnerError::io("waiting for the sandbox"))?
        {
            break status;
        }
        if Instant::now() >= deadline {
            timed_out = true;
            // SAFETY: kill(2) on the process group this child leads (setsid above).
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            if let Some(cg) = &cgroup {
                cg.kill_all();
            }
            break child.wait().map_err(RunnerError::io("waiting for the killed sandbox"))?;
        }
        if ticked.elapsed() >= TICK {
            tick();
            ticked = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(25));
    };
    use std::os::unix::process::ExitStatusExt;
    let cpu = meter.finish(cgroup.as_ref().and_then(Cgroup::cpu_s));
    let finished = Finished {
        exit_code: status.code(),
        signal: status.signal(),
        timed_out,
        wall_s: started.elapsed().as_secs_f64(),
        out_of_memory: cgroup.as_ref().is_some_and(Cgroup::oom_killed),
        enforced: Enforced {
            memory: cgroup.as_ref().is_some_and(|c| c.memory),
            pids: cgroup.as_ref().is_some_and(|c| c.pids),
            cgroup: cgroup.as_ref().map(|c| if c.v2 { "v2".into() } else { "v1".into() }),
        },
        cpu,
    };
    if finished.exit_code == Some(125) && cgroup.is_some() {
        return Err(RunnerError::Sandbox("could not move the job into its cgroup".into()));
    }
    drop(cgroup);
    Ok(finished)
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    (u64::from(t) << 16) | NEXT.fetch_add(1, Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn driver_libraries_outside_usr_are_found() {
        let listed = "\
1234 libs found in cache `/etc/ld.so.cache'
\tlibnvidia-ml.so.1 (libc6,x86-64) => /usr/local/nvidia/lib64/libnvidia-ml.so.1
\tlibcuda.so.1 (libc6,x86-64) => /usr/local/nvidia/lib64/libcuda.so.1
\tlibcuda.so (libc6,x86-64) => /opt/driver/lib/libcuda.so
\tlibnvidia-ptxjitcompiler.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libnvidia-ptxjitcompiler.so.1
\tlibc.so.6 (libc6,x86-64) => /opt/other/libc.so.6
";
        // /usr (with /usr/local) is in the sandbox already.
        assert_eq!(driver_lib_dirs(listed), [PathBuf::from("/opt/driver/lib")]);
        assert!(driver_lib_dirs("").is_empty());
    }
}
