//! `cargo xtask run` and `cargo xtask test`: the README's two commands.
//!
//! Each does its own set-up first, idempotently, so a fresh machine needs nothing else: Debian
//! packages, the wasm32 target, wasm-bindgen-cli matching the `wasm-bindgen` crate in Cargo.lock,
//! wasm-opt from the npm registry, and the Python environment with the pinned torch. Every step
//! checks before it acts, so a second run costs seconds.
//!
//! Other subcommands: `setup [run|test]`, `build [--dev]`, `serve` (run without building).

mod postgres;
mod setup;
mod site;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

const USAGE: &str = "usage: cargo xtask <run [--dev] | test | build [--dev] | setup [run|test]>";

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = repo_root();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["run", rest @ ..] => {
            let profile = site::Profile::from_flags(rest)?;
            setup::ensure(&root, setup::Purpose::Run)?;
            site::build(&root, profile)?;
            serve(&root, profile)
        }
        ["test"] => test(&root),
        ["build", rest @ ..] => {
            let profile = site::Profile::from_flags(rest)?;
            setup::ensure(&root, setup::Purpose::Run)?;
            site::build(&root, profile)
        }
        ["setup"] | ["setup", "test"] => setup::ensure(&root, setup::Purpose::Test),
        ["setup", "run"] => setup::ensure(&root, setup::Purpose::Run),
        _ => bail!("{USAGE}"),
    }
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the repository").to_path_buf()
}

/// The web app with its defaults: SQLite in `./lockstep.sqlite3`, lessons from `./lessons`,
/// http://127.0.0.1:3000. Environment variables override them (see README).
fn serve(root: &Path, profile: site::Profile) -> Result<()> {
    let mut cmd = cargo();
    cmd.current_dir(root).args(["run", "--package", "lockstep-server", "--bin", "lockstep"]);
    if profile == site::Profile::Release {
        cmd.arg("--release");
    }
    cmd.env("LOCKSTEP_SITE_ROOT", site::site_dir(root));
    cmd.env("LOCKSTEP_VENV", setup::venv_dir());
    run(&mut cmd)
}

fn test(root: &Path) -> Result<()> {
    setup::ensure(root, setup::Purpose::Test)?;
    // The browser tests load the bundle exactly as it ships.
    site::build(root, site::Profile::Release)?;
    // sim-engine must keep building for the browser.
    run(cargo().current_dir(root).args(["build", "--package", "sim-engine", "--target", site::WASM_TARGET]))?;

    let pg = postgres::TestServer::start()?;
    let mut cmd = cargo();
    cmd.current_dir(root)
        .args(["test", "--workspace", "--exclude", "lockstep-hydrate", "--no-fail-fast"])
        .env("LOCKSTEP_TEST_POSTGRES_URL", pg.url())
        .env("LOCKSTEP_SITE_ROOT", site::site_dir(root))
        .env("LOCKSTEP_VENV", setup::venv_dir());
    let result = run_tests(&mut cmd);
    drop(pg);
    result
}

/// Runs `cargo test`, passing its output through, and ends with one line totalling every
/// test binary's `test result:` line, so the last line of the run speaks for all of them.
fn run_tests(cmd: &mut Command) -> Result<()> {
    use std::io::{BufRead, BufReader};

    eprintln!("xtask: {}", format!("{cmd:?}").replace('"', ""));
    let mut child = cmd.stdout(std::process::Stdio::piped()).spawn().context("cannot start cargo test")?;
    let (mut passed, mut failed, mut ignored) = (0u64, 0u64, 0u64);
    for line in BufReader::new(child.stdout.take().context("no stdout")?).lines() {
        let line = line?;
        println!("{line}");
        if let Some(rest) = line.strip_prefix("test result: ") {
            for part in rest.split(';') {
                let mut words = part.split_whitespace().rev();
                let (Some(what), Some(n)) = (words.next(), words.next()) else { continue };
                let n: u64 = n.parse().unwrap_or(0);
                match what {
                    "passed" => passed += n,
                    "failed" => failed += n,
                    "ignored" => ignored += n,
                    _ => {}
                }
            }
        }
    }
    let status = child.wait()?;
    println!("summary: {passed} passed, {failed} failed, {ignored} skipped");
    if !status.success() {
        bail!("cargo test failed: {status}");
    }
    if passed == 0 {
        bail!("cargo test ran no test");
    }
    Ok(())
}

/// Cargo, with the set-up's Python environment active: `tch` (in gpu-runner) builds against the
/// libtorch inside that environment's torch (`LIBTORCH_USE_PYTORCH`), which it finds by running
/// `python`.
pub(crate) fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    let venv = setup::venv_dir();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(venv.join("bin")).chain(std::env::split_paths(&path)))
        .expect("PATH entries without separators");
    cmd.env("VIRTUAL_ENV", &venv).env("PATH", path).env("LIBTORCH_USE_PYTORCH", "1");
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

/// Runs a command and returns its stdout, or `None` if it cannot run or fails.
pub(crate) fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}
