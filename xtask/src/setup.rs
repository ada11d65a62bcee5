//! Idempotent machine set-up. Each step looks before it installs.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::{cargo, output, run};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Run,
    Test,
}

/// Debian packages. bubblewrap sandboxes the runner; the rest serve the tests (a real browser
/// with a font that has Hangul, a real PostgreSQL server, and a real single-node Slurm with
/// munge).
fn debian_packages(purpose: Purpose) -> &'static [&'static str] {
    match purpose {
        Purpose::Run => &["bubblewrap", "gzip", "python3-venv"],
        Purpose::Test => &[
            "bubblewrap",
            "gzip",
            "python3-venv",
            "chromium",
            "chromium-driver",
            // Without a CJK font headless Chromium draws Hangul as boxes.
            "fonts-noto-cjk",
            "postgresql",
            "slurm-wlm",
            "munge",
        ],
    }
}

pub fn ensure(root: &Path, purpose: Purpose) -> Result<()> {
    apt_packages(debian_packages(purpose))?;
    wasm_target()?;
    if purpose == Purpose::Test {
        rust_components()?;
    }
    wasm_bindgen_cli(root)?;
    node_tools(root)?;
    python_env(root)?;
    Ok(())
}

pub(crate) fn is_root() -> bool {
    output(Command::new("id").arg("-u")).is_some_and(|s| s.trim() == "0")
}

fn privileged(program: &str) -> Command {
    if is_root() {
        Command::new(program)
    } else {
        let mut c = Command::new("sudo");
        c.arg(program);
        c
    }
}

fn apt_packages(packages: &[&str]) -> Result<()> {
    let missing: Vec<&str> = packages
        .iter()
        .copied()
        .filter(|p| {
            !output(Command::new("dpkg-query").args(["-W", "-f=${Status}", p]))
                .is_some_and(|s| s.contains("install ok installed"))
        })
        .collect();
    // python3-venv only matters for a Debian python3; a python3 that already has venv is fine.
    let missing: Vec<&str> =
        missing.into_iter().filter(|p| *p != "python3-venv" || !python_has_venv()).collect();
    if missing.is_empty() {
        return Ok(());
    }
    eprintln!("xtask: installing Debian packages: {}", missing.join(" "));
    run(privileged("apt-get").args(["update", "-qq"]))?;
    // The tests start their own PostgreSQL, munge and Slurm; the packages' services must not
    // start on install (a policy-rc.d that answers 101 tells invoke-rc.d so), and one we put
    // there is taken away again.
    let policy = Path::new("/usr/sbin/policy-rc.d");
    let ours = !policy.exists();
    if ours {
        run(privileged("sh").args(["-c", "printf '#!/bin/sh\\nexit 101\\n' > /usr/sbin/policy-rc.d && chmod 0755 /usr/sbin/policy-rc.d"]))?;
    }
    let installed = run(privileged("apt-get")
        .env("DEBIAN_FRONTEND", "noninteractive")
        .args(["install", "-y", "-qq", "--no-install-recommends"])
        .args(&missing));
    if ours {
        run(privileged("rm").args(["-f", "/usr/sbin/policy-rc.d"]))?;
    }
    installed
}

fn python_has_venv() -> bool {
    Command::new("python3")
        .args(["-c", "import venv, ensurepip"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn wasm_target() -> Result<()> {
    let installed =
        output(Command::new("rustup").args(["target", "list", "--installed"])).unwrap_or_default();
    if installed.lines().any(|l| l.trim() == crate::site::WASM_TARGET) {
        return Ok(());
    }
    run(Command::new("rustup").args(["target", "add", crate::site::WASM_TARGET]))
}

/// What `cargo xtask lint` needs on its own: rustfmt, clippy and the wasm32 target (clippy
/// checks the browser crate for wasm32). The native clippy also builds gpu-runner, whose `tch`
/// needs the Python environment that `cargo xtask setup` makes.
pub fn lint_tools() -> Result<()> {
    wasm_target()?;
    rust_components()
}

/// rustfmt and clippy, which the test command runs before the tests.
fn rust_components() -> Result<()> {
    let installed = output(Command::new("rustup").args(["component", "list", "--installed"]))
        .unwrap_or_default();
    let missing: Vec<&str> = ["rustfmt", "clippy"]
        .into_iter()
        .filter(|c| !installed.lines().any(|l| l.trim().starts_with(&format!("{c}-"))))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    run(Command::new("rustup").args(["component", "add"]).args(&missing))
}

/// The version of a package as Cargo.lock pins it.
fn locked_version(root: &Path, package: &str) -> Result<String> {
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).context("reading Cargo.lock")?;
    let needle = format!("name = \"{package}\"\nversion = \"");
    let start = lock.find(&needle).with_context(|| format!("{package} is not in Cargo.lock"))?
        + needle.len();
    let end = lock[start..].find('"').context("malformed Cargo.lock")?;
    Ok(lock[start..start + end].to_string())
}

/// wasm-bindgen-cli refuses a `wasm-bindgen` crate of any other version, so install exactly the
/// locked one. Not `--locked`: its lockfile wants a webpki-roots release the registry here
/// does not serve.
fn wasm_bindgen_cli(root: &Path) -> Result<()> {
    let want = locked_version(root, "wasm-bindgen")?;
    let have = output(Command::new("wasm-bindgen").arg("--version")).unwrap_or_default();
    if have.split_whitespace().nth(1) == Some(want.as_str()) {
        return Ok(());
    }
    run(cargo().args(["install", "wasm-bindgen-cli", "--version", &want, "--force"]))
}

pub fn wasm_opt_path(root: &Path) -> PathBuf {
    root.join("xtask/node/node_modules/.bin/wasm-opt")
}

pub fn esbuild_path(root: &Path) -> PathBuf {
    root.join("xtask/node/node_modules/.bin/esbuild")
}

/// The build's npm tools, pinned in xtask/node/package-lock.json: wasm-opt from binaryen, and
/// esbuild with the CodeMirror packages it bundles into the exercise page's editor.
fn node_tools(root: &Path) -> Result<()> {
    let works = |tool: PathBuf| output(Command::new(tool).arg("--version")).is_some();
    let editor = root.join("xtask/node/node_modules/@codemirror/lang-python/package.json");
    if works(wasm_opt_path(root)) && works(esbuild_path(root)) && editor.exists() {
        return Ok(());
    }
    run(Command::new("npm").current_dir(root.join("xtask/node")).args([
        "ci",
        "--no-audit",
        "--no-fund",
    ]))
}

/// The Python environment the runner uses: `LOCKSTEP_VENV`, or one per user in the cache
/// directory (torch is several GB; every checkout shares it).
pub fn venv_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("LOCKSTEP_VENV") {
        return dir.into();
    }
    let cache = std::env::var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|_| std::env::var("HOME").map(|h| Path::new(&h).join(".cache")))
        .unwrap_or_else(|_| PathBuf::from("/tmp"));
    cache.join("lockstep").join("venv")
}

/// Creates the environment and installs `gpu-runner/requirements.txt` into it. A marker file
/// holding the installed requirements makes the check cheap and notices when they change.
fn python_env(root: &Path) -> Result<()> {
    let requirements = root.join("gpu-runner/requirements.txt");
    let wanted =
        std::fs::read_to_string(&requirements).context("reading gpu-runner/requirements.txt")?;
    let dir = venv_dir();
    let marker = dir.join(".lockstep-requirements");
    let python = dir.join("bin/python");
    if python.exists() && std::fs::read_to_string(&marker).is_ok_and(|m| m == wanted) {
        return Ok(());
    }
    if !python.exists() {
        std::fs::create_dir_all(dir.parent().unwrap_or(&dir))?;
        run(Command::new("python3").arg("-m").arg("venv").arg(&dir))?;
    }
    run(Command::new(&python).args(["-m", "pip", "install", "--quiet", "-r"]).arg(&requirements))?;
    let check =
        output(Command::new(&python).args(["-c", "import torch; print(torch.__version__)"]));
    let Some(version) = check else {
        bail!("torch does not import in {}", dir.display());
    };
    eprintln!("xtask: Python environment ready at {} (torch {})", dir.display(), version.trim());
    std::fs::write(&marker, wanted)?;
    Ok(())
}
