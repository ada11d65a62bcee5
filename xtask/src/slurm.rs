//! A throwaway single-node Slurm cluster for the grading tests: munge (shared with the machine,
//! started if it is not running), and `slurmctld` and `slurmd` in the foreground with their own
//! configuration, ports, state and spool in a temporary folder, stopped and removed after the
//! tests whatever they did. The node claims 8 CPUs (`config_overrides`), so that 4 pilot jobs
//! of 2 CPUs run at once on a small machine, as the benchmark needs.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::output;

pub const PARTITION: &str = "grading";

pub struct TestCluster {
    instance: Arc<Instance>,
    /// Stops it on SIGINT or SIGTERM, when no drop runs.
    _on_signal: crate::interrupt::Registered,
}

struct Instance {
    dir: PathBuf,
    daemons: Mutex<Vec<Child>>,
}

fn host() -> Result<String> {
    let name = output(Command::new("hostname").arg("-s")).context("hostname -s failed")?;
    Ok(name.trim().to_string())
}

fn munge_works() -> bool {
    Command::new("sh")
        .args(["-c", "munge -n | unmunge"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// munged as the `munge` user; the Debian package makes the key but, without systemd, not the
/// run folder.
fn ensure_munge() -> Result<()> {
    if munge_works() {
        return Ok(());
    }
    for (dir, mode) in
        [("/run/munge", "0755"), ("/var/log/munge", "0700"), ("/var/lib/munge", "0700")]
    {
        std::fs::create_dir_all(dir)?;
        crate::run(Command::new("chown").args(["munge:munge", dir]))?;
        crate::run(Command::new("chmod").args([mode, dir]))?;
    }
    crate::run(Command::new("runuser").args(["-u", "munge", "--", "/usr/sbin/munged"]))?;
    let deadline = Instant::now() + Duration::from_secs(10);
    while !munge_works() {
        if Instant::now() > deadline {
            bail!("munged started but `munge -n | unmunge` still fails");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(())
}

impl TestCluster {
    pub fn start() -> Result<TestCluster> {
        if !crate::setup::is_root() {
            bail!("the Slurm test cluster needs root: slurmd starts jobs as their users");
        }
        ensure_munge()?;
        let dir = std::env::temp_dir().join(format!("lockstep-slurm-{}", std::process::id()));
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        for sub in ["state", "spool", "log"] {
            std::fs::create_dir_all(dir.join(sub))?;
        }
        let host = host()?;
        let d = dir.display();
        let [ctld, slurmd] = crate::free_ports()?;
        let conf = format!(
            "ClusterName=lockstep-test
SlurmctldHost={host}(127.0.0.1)
SlurmUser=root
SlurmctldPort={ctld}
SlurmdPort={slurmd}
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
ReturnToService=2
SchedulerParameters=sched_min_interval=0,batch_sched_delay=0
SlurmdParameters=config_overrides
KillWait=5
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/log/slurmctld.log
SlurmdLogFile={d}/log/slurmd.log
NodeName={host} CPUs=8 NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName={PARTITION} Nodes={host} Default=YES MaxTime=INFINITE State=UP
",
        );
        let conf_path = dir.join("slurm.conf");
        std::fs::write(&conf_path, conf)?;
        let instance = Arc::new(Instance { dir, daemons: Mutex::new(Vec::new()) });
        let on_signal = {
            let instance = instance.clone();
            crate::interrupt::on_signal(move || instance.stop())
        };
        let cluster = TestCluster { instance, _on_signal: on_signal };
        for daemon in ["slurmctld", "slurmd"] {
            let child = Command::new(daemon)
                .arg("-D")
                .arg("-f")
                .arg(&conf_path)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .with_context(|| format!("cannot start {daemon}"))?;
            cluster.instance.lock().push(child);
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let state = output(
                Command::new("sinfo").env("SLURM_CONF", &conf_path).args(["-h", "-o", "%T"]),
            );
            if state.as_deref().map(str::trim) == Some("idle") {
                break;
            }
            if Instant::now() > deadline {
                let log =
                    |f: &str| std::fs::read_to_string(cluster.instance.dir.join("log").join(f));
                bail!(
                    "the Slurm node is not idle after 60 s (sinfo: {state:?})\n{}\n{}",
                    log("slurmctld.log").unwrap_or_default(),
                    log("slurmd.log").unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        eprintln!("xtask: Slurm test cluster up, partition {PARTITION} on node {host}");
        Ok(cluster)
    }

    /// For `SLURM_CONF`: Slurm's commands in the tests talk to this cluster.
    pub fn conf(&self) -> PathBuf {
        self.instance.dir.join("slurm.conf")
    }
}

impl Drop for TestCluster {
    fn drop(&mut self) {
        self.instance.stop();
    }
}

impl Instance {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Child>> {
        self.daemons.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn stop(&self) {
        // Jobs first, so that no pilot outlives the cluster; then the daemons, slurmd first.
        let _ = Command::new("scancel")
            .env("SLURM_CONF", self.dir.join("slurm.conf"))
            .arg("--user=root")
            .stderr(Stdio::null())
            .status();
        for child in std::mem::take(&mut *self.lock()).iter_mut().rev() {
            let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
            let deadline = Instant::now() + Duration::from_secs(10);
            while child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(100));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
