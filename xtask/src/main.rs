//! `cargo xtask run` and `cargo xtask test`: the README's two commands.
//!
//! Each does its own set-up first, idempotently, so a fresh machine needs nothing else: Debian
//! packages, the wasm32 target, rustfmt and clippy, wasm-bindgen-cli matching the
//! `wasm-bindgen` crate in Cargo.lock, wasm-opt from the npm registry, and the Python
//! environment with the pinned torch. Every step checks before it acts, so a second run costs
//! seconds.
//!
//! Other subcommands: `setup [run|test]`, `build [--dev]`, `serve` (run without building),
//! `lint` (what `test` checks first).
//!
//! # What is where
//!
//! The README's two commands: machine set-up, the browser bundle build (`target/site`, with the
//! editor's esbuild bundle), starting the server with one local grading worker, and the test run:
//! the cheap checks first (`cargo fmt --check`, the invariants: each crate's layer, by `cargo tree`
//! (no libtorch in the app, no database under the pages), and raw HTML only where listed), then the
//! release bundle and after it clippy with `-D warnings` for wasm32, built beside the native side
//! (one `cargo test --all-targets --no-run` whose workspace crates are compiled by clippy's driver,
//! so the native clippy is that build's, with `-D warnings`, and no dependency is checked twice),
//! then the tests with a throwaway PostgreSQL server (`postgres.rs`) and single-node Slurm cluster
//! (`slurm.rs`), ending with the time by stage (`stages.rs`). That build makes every test binary,
//! and `test_binaries.rs` runs them two at a time, longest first, and those that time something
//! alone at the end (`sim_steps`, `bundle_budget`, and `grade`, whose gradings judge a solution's
//! speedup against the runner's own threshold; the web path's gradings time it once, against 0.25×,
//! and share the machine); it prints each binary's output whole when it ends (also kept in
//! `target/test-logs/`), and then each binary's time. `cargo xtask lint` runs the lint alone;
//! `cargo xtask with-services -- COMMAND` runs one command with those services.

mod html_sinks;
mod interrupt;
mod postgres;
mod setup;
mod site;
mod slurm;
mod stages;
mod test_binaries;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};

use stages::Stages;

#[derive(Parser)]
#[command(
    version,
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "Set-up, build, run and test Lockstep: the README's two commands and their parts."
)]
struct Cli {
    #[command(subcommand)]
    command: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Set up the machine, build the site and serve it at http://127.0.0.1:3000.
    Run {
        /// Build faster, with a larger browser bundle.
        #[arg(long)]
        dev: bool,
    },
    /// Set up the machine, then lint and run every test (what CI runs).
    Test,
    /// Set up the machine and build the browser bundle into target/site.
    Build {
        #[arg(long)]
        dev: bool,
    },
    /// Only the set-up: for running the app, or (the default) for the tests too.
    Setup {
        #[arg(value_enum, default_value_t = SetupFor::Test)]
        purpose: SetupFor,
    },
    /// Serve the site as last built, without setting up or building.
    Serve {
        #[arg(long)]
        dev: bool,
    },
    /// `cargo fmt --check`, clippy with warnings as errors, and the dependency invariants.
    Lint,
    /// Run COMMAND with the tests' services: a throwaway PostgreSQL server
    /// (LOCKSTEP_TEST_POSTGRES_URL) and single-node Slurm (SLURM_CONF,
    /// LOCKSTEP_TEST_SLURM_PARTITION), removed when it ends. For one test file, or a benchmark.
    WithServices {
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<String>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum SetupFor {
    Run,
    Test,
}

fn main() -> Result<()> {
    let root = repo_root();
    interrupt::install().context("cannot wait for SIGINT and SIGTERM")?;
    match Cli::parse().command {
        Task::Run { dev } => {
            let profile = site::Profile::from_dev_flag(dev);
            setup::ensure(&root, setup::Purpose::Run)?;
            site::build(&root, profile)?;
            serve(&root, profile)
        }
        Task::Test => test(&root),
        Task::Build { dev } => {
            setup::ensure(&root, setup::Purpose::Run)?;
            site::build(&root, site::Profile::from_dev_flag(dev))
        }
        Task::Setup { purpose: SetupFor::Test } => setup::ensure(&root, setup::Purpose::Test),
        Task::Setup { purpose: SetupFor::Run } => setup::ensure(&root, setup::Purpose::Run),
        Task::Serve { dev } => serve(&root, site::Profile::from_dev_flag(dev)),
        Task::WithServices { command } => {
            let pg = postgres::TestServer::start()?;
            let cluster = slurm::TestCluster::start()?;
            let mut cmd = Command::new(&command[0]);
            let status =
                interrupt::spawn_group(with_services(cmd.args(&command[1..]), &pg, &cluster))
                    .and_then(|mut child| child.wait())
                    .with_context(|| format!("cannot run {}", command[0]))?;
            drop(cluster);
            drop(pg);
            if !status.success() {
                bail!("{} failed: {status}", command.join(" "));
            }
            Ok(())
        }
        Task::Lint => {
            let mut stages = Stages::new();
            let result = stages
                .time("set-up (rustfmt, clippy)", setup::lint_tools)
                .and_then(|()| lint(&root, &mut stages));
            stages.print();
            result
        }
    }
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the repository")
        .to_path_buf()
}

/// The web app with its defaults: SQLite in `./lockstep.sqlite3`, lessons from `./lessons`,
/// http://127.0.0.1:3000 (environment variables override them; see README), and one local
/// grading worker: one grade at a time, since the speedup is timed and two grades on the same
/// cores would spoil it. `LOCKSTEP_LOCAL_WORKER=false` starts none.
fn serve(root: &Path, profile: site::Profile) -> Result<()> {
    let mut build = cargo();
    build.current_dir(root).args([
        "build",
        "--package",
        "lockstep-server",
        "--bin",
        "lockstep",
        "--package",
        "gpu-runner",
        "--bin",
        "gpu-runner",
    ]);
    let dir = if profile == site::Profile::Release {
        build.arg("--release");
        "release"
    } else {
        "debug"
    };
    run(&mut build)?;
    let bin = root.join("target").join(dir);
    let mut server = Command::new(bin.join("lockstep"));
    server.current_dir(root);
    server.env("LOCKSTEP_SITE_ROOT", site::site_dir(root));
    let local_worker = std::env::var("LOCKSTEP_LOCAL_WORKER").map_or(true, |v| v != "false");
    let worker = if local_worker { Some(local_worker_token(root, &bin)?) } else { None };
    eprintln!("xtask: {server:?}");
    let mut server = ChildGuard(server.spawn().context("cannot start the server")?);
    let _worker = match worker {
        Some(token) => {
            let addr = std::env::var("LOCKSTEP_ADDR").unwrap_or_else(|_| "127.0.0.1:3000".into());
            let addr = addr.replace("0.0.0.0", "127.0.0.1");
            let mut worker = Command::new(bin.join("gpu-runner"));
            worker
                .current_dir(root)
                .args(["worker", "--name", "local", "--server", &format!("http://{addr}")])
                .env("LOCKSTEP_WORKER_TOKEN", token)
                .env("LOCKSTEP_VENV", setup::venv_dir());
            eprintln!("xtask: starting a local grading worker");
            Some(ChildGuard(worker.spawn().context("cannot start the local worker")?))
        }
        None => None,
    };
    let status = server.0.wait()?;
    if !status.success() {
        bail!("the server stopped: {status}");
    }
    Ok(())
}

/// A fresh token for the local worker, named `local` (the last one is revoked).
fn local_worker_token(root: &Path, bin: &Path) -> Result<String> {
    let admin = |args: &[&str]| {
        let mut cmd = Command::new(bin.join("lockstep"));
        cmd.current_dir(root).arg("admin").arg("worker-token").args(args);
        cmd
    };
    let _ = admin(&["revoke", "local"]).output();
    let token = output(&mut admin(&["create", "local"]))
        .context("cannot make a worker token for the local worker (lockstep admin worker-token)")?;
    Ok(token.trim().to_string())
}

/// Kills the child when dropped: the worker goes when the server does.
struct ChildGuard(std::process::Child);

impl Drop for ChildGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn test(root: &Path) -> Result<()> {
    let mut stages = Stages::new();
    let result = test_stages(root, &mut stages);
    stages.print();
    // The test summary stays the very last line: CI reads it.
    if let Some(summary) = stages.summary() {
        println!("{summary}");
    }
    result
}

fn test_stages(root: &Path, stages: &mut Stages) -> Result<()> {
    stages.time("set-up", || setup::ensure(root, setup::Purpose::Test))?;
    // Cheap checks first: a formatting slip should not cost a 30-minute run.
    rustfmt(root, stages)?;
    invariants(root, stages)?;
    // The bundle's build often leaves a core idle (each of its crates is one LLVM unit, then
    // fat LTO and wasm-opt), and cargo locks only its own profile's folders for it, so the
    // native side builds beside it: from an empty `target/`, both sides took 587 s together
    // with the cores 99% busy, against 757 s one after the other (clippy's check included).
    //
    // Clippy for wasm32 follows the bundle, on its side. Placed before the native build, it
    // made that side the longer: from an empty `target/`, 948 s (216 s of it clippy's)
    // against the bundle's 593 s.
    let (_, jobs) = stages.beside(
        "browser bundle beside the tests' build",
        // The browser tests load the bundle exactly as it ships.
        |stages| {
            stages
                .time("browser bundle (release)", || site::build(root, site::Profile::Release))?;
            clippy_wasm32(root, stages)
        },
        |stages| {
            // sim-engine must keep building for the browser.
            stages.time("sim-engine for wasm32", || {
                run(cargo().current_dir(root).args([
                    "build",
                    "--package",
                    "sim-engine",
                    "--target",
                    site::WASM_TARGET,
                ]))
            })?;
            stages.time("cargo test --no-run, with clippy", || {
                let mut doc = cargo_test(root);
                doc.arg("--doc");
                // Every target, as `cargo clippy --all-targets` checks them: the benches and
                // examples are built for their lints and not run.
                let mut build = cargo_test(root);
                build.arg("--all-targets");
                test_binaries::build(&mut build, doc)
            })
        },
    )?;
    let pg = stages.time("PostgreSQL start", postgres::TestServer::start)?;
    let cluster = stages.time("Slurm start", slurm::TestCluster::start)?;
    let site = site::site_dir(root);
    let outcome = stages.time("tests", || {
        let logs = root.join("target/test-logs");
        let outcome = test_binaries::run(jobs, 2, &logs, |cmd| {
            with_services(cmd.env("LOCKSTEP_SITE_ROOT", &site), &pg, &cluster);
        });
        if outcome.failed.is_empty() {
            return Ok(outcome.summary);
        }
        Err(TestsFailed {
            reason: format!("failed: {}", outcome.failed.join(", ")),
            summary: outcome.summary,
        })
    });
    drop(cluster);
    drop(pg);
    let (summary, result) = match outcome {
        Ok(summary) => (summary, Ok(())),
        Err(e) => (e.summary.clone(), Err(e.into())),
    };
    stages.set_summary(summary);
    result
}

/// `cargo test` on the workspace, its own crates compiled by clippy's driver (see
/// `clippy_while_building`). The doc-tests' run must use it too: a build without the driver
/// would compile every library of the workspace again.
fn cargo_test(root: &Path) -> Command {
    let mut cmd = cargo();
    cmd.current_dir(root).args(["test", "--workspace"]).args(BROWSER_ONLY);
    clippy_while_building(&mut cmd);
    cmd
}

/// Excludes the crates built only for wasm32 (the browser's entry points) from a native build.
const BROWSER_ONLY: [&str; 6] = [
    "--exclude",
    "lockstep-hydrate",
    "--exclude",
    "lockstep-islands",
    "--exclude",
    "lockstep-lesson",
];

/// Clippy's verdict: any warning fails.
const CLIPPY_DENY: [&str; 2] = ["-D", "warnings"];

/// Makes `cargo` compile the workspace's own crates with clippy's driver, which lints each
/// crate (with [`CLIPPY_DENY`]) and then compiles it as rustc would: `cargo clippy`'s lints,
/// in a build instead of a check. A separate `cargo clippy` checks every dependency once more,
/// in a mode the build cannot reuse (214 s of the test command from an empty `target/`).
/// Dependencies are compiled by plain rustc either way.
///
/// The driver turns MIR optimisations off in the crates it lints (its MIR lints read the
/// unoptimised MIR), so the test binaries differ a little from `cargo test`'s; the browser
/// bundle, which the tests measure, is never built this way.
fn clippy_while_building(cmd: &mut Command) {
    // The driver beside the cargo running xtask is the same toolchain's; rustup's proxies sit
    // side by side as well.
    let driver = std::env::var_os("CARGO")
        .map(PathBuf::from)
        .and_then(|cargo| Some(cargo.parent()?.join("clippy-driver")))
        .filter(|driver| driver.is_file())
        .unwrap_or_else(|| "clippy-driver".into());
    // `cargo clippy -- ARGS` hands ARGS to the driver in this variable, in this form.
    let args: String = CLIPPY_DENY.iter().map(|a| format!("{a}__CLIPPY_HACKERY__")).collect();
    cmd.env("RUSTC_WORKSPACE_WRAPPER", driver).env("CLIPPY_ARGS", args);
}

/// Formatting, clippy (warnings are errors) on the native workspace and on the browser crate
/// for wasm32, and the invariants. The test command runs the same checks, the native clippy
/// within its build.
fn lint(root: &Path, stages: &mut Stages) -> Result<()> {
    rustfmt(root, stages)?;
    stages.time("clippy (native)", || {
        run(cargo()
            .current_dir(root)
            .args(["clippy", "--workspace", "--all-targets"])
            .args(BROWSER_ONLY)
            .arg("--")
            .args(CLIPPY_DENY))
    })?;
    clippy_wasm32(root, stages)?;
    invariants(root, stages)
}

fn rustfmt(root: &Path, stages: &mut Stages) -> Result<()> {
    stages.time("rustfmt --check", || {
        run(cargo().current_dir(root).args(["fmt", "--all", "--check"]))
    })
}

fn clippy_wasm32(root: &Path, stages: &mut Stages) -> Result<()> {
    stages.time("clippy (wasm32)", || {
        run(cargo()
            .current_dir(root)
            .args(["clippy", "--package", "lockstep-hydrate", "--package", "lockstep-islands"])
            .args(["--package", "lockstep-lesson"])
            .args(["--target", site::WASM_TARGET, "--"])
            .args(CLIPPY_DENY))
    })
}

/// The crates keep to their layers, and raw HTML is written only where `html_sinks` lists it.
fn invariants(root: &Path, stages: &mut Stages) -> Result<()> {
    stages.time("invariants", || {
        for layer in LAYERS {
            layer.check(root)?;
        }
        html_sinks::check(root)
    })
}

/// A crate, built with some features, that must have no path to some others (ARCHITECTURE.md,
/// Invariants). Checked on the resolved dependency graph, so a new path fails here whichever
/// crate brings it.
struct Layer {
    package: &'static str,
    features: &'static str,
    never: &'static [&'static str],
    why: &'static str,
}

const LIBTORCH: &[&str] = &["tch", "torch-sys"];

const LAYERS: &[Layer] = &[
    Layer {
        package: "lockstep-server",
        features: "",
        never: LIBTORCH,
        why: "only gpu-runner may link libtorch",
    },
    Layer {
        package: "grading-protocol",
        features: "words",
        never: LIBTORCH,
        why: "only gpu-runner may link libtorch",
    },
    Layer {
        package: "grading-checks",
        features: "",
        never: LIBTORCH,
        why: "only gpu-runner may link libtorch",
    },
    Layer {
        package: "lockstep-web",
        features: "ssr",
        never: &[
            "tch",
            "torch-sys",
            "sqlx",
            "lockstep-store",
            "lockstep-rules",
            "lockstep-comments",
            "grading-checks",
            "lockstep-course",
        ],
        why: "the pages reach the server only through lockstep_web::ssr::Backend",
    },
];

impl Layer {
    fn check(&self, root: &Path) -> Result<()> {
        let package = self.package;
        let mut cmd = cargo();
        cmd.current_dir(root).args(["tree", "--package", package, "--edges", "normal"]);
        if !self.features.is_empty() {
            cmd.args(["--features", self.features]);
        }
        let tree = output(cmd.args(["--prefix", "none", "--format", "{p}"]))
            .with_context(|| format!("cargo tree --package {package} failed"))?;
        let found = tree.lines().find(|l| {
            let name = l.split(' ').next().unwrap_or_default();
            self.never.contains(&name)
        });
        if let Some(line) = found {
            let shown = format!("{package} (features: {})", self.features);
            bail!("{shown} depends on {line}: {} (ARCHITECTURE.md, Invariants)", self.why);
        }
        Ok(())
    }
}

/// A failed `cargo test`, with the totals it got to.
#[derive(Debug)]
struct TestsFailed {
    summary: String,
    reason: String,
}

impl std::fmt::Display for TestsFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for TestsFailed {}

/// Cargo, with the set-up's Python environment active: `tch` (in gpu-runner) builds against the
/// libtorch inside that environment's torch (`LIBTORCH_USE_PYTORCH`), which it finds by running
/// `python`.
pub(crate) fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    let venv = setup::venv_dir();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path =
        std::env::join_paths(std::iter::once(venv.join("bin")).chain(std::env::split_paths(&path)))
            .expect("PATH entries without separators");
    cmd.env("VIRTUAL_ENV", &venv).env("PATH", path).env("LIBTORCH_USE_PYTORCH", "1");
    // CI builds once in a fresh clone: incremental state (3 GB for the test command) would only
    // fill its disk. An explicit CARGO_INCREMENTAL still wins.
    if std::env::var_os("CI").is_some() && std::env::var_os("CARGO_INCREMENTAL").is_none() {
        cmd.env("CARGO_INCREMENTAL", "0");
    }
    cmd
}

/// Runs a command to completion, echoing it first; a non-zero exit is an error naming it.
pub(crate) fn run(cmd: &mut Command) -> Result<()> {
    let shown = format!("{cmd:?}");
    eprintln!("xtask: {}", shown.replace('"', ""));
    let status = cmd.status().with_context(|| format!("cannot start {shown}"))?;
    if !status.success() {
        bail!("{shown} failed: {status}");
    }
    Ok(())
}

/// `N` distinct free ports on 127.0.0.1, for the tests' services. All are held until each is
/// read: a port let go at once could be handed out again by the next call.
pub(crate) fn free_ports<const N: usize>() -> Result<[u16; N]> {
    let listeners = (0..N)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0"))
        .collect::<std::io::Result<Vec<_>>>()?;
    let mut ports = [0; N];
    for (port, listener) in ports.iter_mut().zip(&listeners) {
        *port = listener.local_addr()?.port();
    }
    Ok(ports)
}

/// Points `cmd` at the tests' services and the set-up's Python environment.
fn with_services<'c>(
    cmd: &'c mut Command,
    pg: &postgres::TestServer,
    cluster: &slurm::TestCluster,
) -> &'c mut Command {
    cmd.env("LOCKSTEP_TEST_POSTGRES_URL", pg.url())
        .env("SLURM_CONF", cluster.conf())
        .env("LOCKSTEP_TEST_SLURM_PARTITION", slurm::PARTITION)
        .env("LOCKSTEP_VENV", setup::venv_dir())
}

/// Runs a command and returns its stdout, or `None` if it cannot run or fails.
pub(crate) fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}
