//! A throwaway PostgreSQL server for the database tests: its own data directory, port and
//! password, started before `cargo test` and removed after, whatever the tests did.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use anyhow::{bail, Context, Result};

use crate::run;

pub struct TestServer {
    instance: Arc<Instance>,
    /// Stops it on SIGINT or SIGTERM, when no drop runs.
    _on_signal: crate::interrupt::Registered,
}

struct Instance {
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
    password: String,
    as_postgres: bool,
}

/// The newest installed server, e.g. /usr/lib/postgresql/15/bin.
fn server_bin_dir() -> Result<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .context("PostgreSQL is not installed (/usr/lib/postgresql is missing)")?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse().ok()?;
            Some((v, e.path().join("bin")))
        })
        .filter(|(_, bin)| bin.join("initdb").exists())
        .collect();
    versions.sort();
    versions
        .pop()
        .map(|(_, b)| b)
        .context("no PostgreSQL server binaries under /usr/lib/postgresql")
}

impl TestServer {
    pub fn start() -> Result<TestServer> {
        let bin = server_bin_dir()?;
        // initdb and postgres refuse to run as root; the Debian package's `postgres` user does.
        let as_postgres = crate::setup::is_root();
        let dir = std::env::temp_dir().join(format!("lockstep-pg-{}", std::process::id()));
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        std::fs::create_dir_all(&dir)?;
        let password = format!(
            "pw{:x}",
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_nanos()
        );
        std::fs::write(dir.join("pwfile"), &password)?;
        if as_postgres {
            // The directory must be reachable and owned by the server's user.
            run(Command::new("chown").args(["-R", "postgres:postgres"]).arg(&dir))?;
            run(Command::new("chmod").arg("0755").arg(&dir))?;
        }
        let instance = Arc::new(Instance {
            dir,
            bin,
            port: crate::free_ports::<1>()?[0],
            password,
            as_postgres,
        });
        let on_signal = {
            let instance = instance.clone();
            crate::interrupt::on_signal(move || instance.stop())
        };
        // Owned from here: a failed start is stopped and removed too.
        let owner = TestServer { instance, _on_signal: on_signal };
        let server = &owner.instance;
        server.pg("initdb", |c| {
            c.arg("-D").arg(server.data()).arg("--pwfile").arg(server.dir.join("pwfile")).args([
                "--username=lockstep",
                "--auth-host=scram-sha-256",
                "--auth-local=scram-sha-256",
                "-E",
                "UTF8",
                "--no-locale",
                "--no-sync",
                "--no-instructions",
            ]);
        })?;
        let opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200",
            server.port,
            server.dir.display()
        );
        server.pg("pg_ctl", |c| {
            c.arg("-D")
                .arg(server.data())
                .args(["-o", &opts, "-l"])
                .arg(server.dir.join("log"))
                .args(["-w", "start"]);
        })?;
        eprintln!("xtask: PostgreSQL test server on 127.0.0.1:{}", server.port);
        Ok(owner)
    }

    pub fn url(&self) -> String {
        let i = &self.instance;
        format!("postgres://lockstep:{}@127.0.0.1:{}/postgres", i.password, i.port)
    }
}

impl Instance {
    /// Stops the server, if it started, and removes its folder.
    fn stop(&self) {
        let data = self.data();
        if data.join("postmaster.pid").exists() {
            let _ = self.pg("pg_ctl", |c| {
                c.arg("-D").arg(&data).args(["-m", "immediate", "-w", "stop"]);
            });
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    fn pg(&self, program: &str, args: impl FnOnce(&mut Command)) -> Result<()> {
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(self.bin.join(program));
            c
        } else {
            Command::new(self.bin.join(program))
        };
        args(&mut cmd);
        let out = cmd.output().with_context(|| format!("cannot start {program}"))?;
        if !out.status.success() {
            let log = std::fs::read_to_string(self.dir.join("log")).unwrap_or_default();
            bail!(
                "{program} failed: {}\n{}{}\n{log}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Ok(())
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.instance.stop();
    }
}
