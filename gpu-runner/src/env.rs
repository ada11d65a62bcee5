//! The Python environment jobs run in: found where the set-up made it, and probed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::RunnerError;

/// The virtual environment with torch. Same rule as the set-up in `xtask/src/setup.rs`:
/// `LOCKSTEP_VENV`, else `$XDG_CACHE_HOME/lockstep/venv`, else `~/.cache/lockstep/venv`.
pub fn default_venv() -> PathBuf {
    if let Ok(dir) = std::env::var("LOCKSTEP_VENV") {
        return dir.into();
    }
    let cache = std::env::var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|_| std::env::var("HOME").map(|h| Path::new(&h).join(".cache")))
        .unwrap_or_else(|_| PathBuf::from("/tmp"));
    cache.join("lockstep").join("venv")
}

/// What the environment offers, as torch itself reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Environment {
    pub python: String,
    pub torch: String,
    pub cuda_devices: u32,
    pub gloo: bool,
    pub nccl: bool,
    /// The environment's `sys.prefix` and `sys.base_prefix`: what a sandbox must show for its
    /// Python to run (a venv's interpreter lives in the base installation).
    pub prefix: PathBuf,
    pub base_prefix: PathBuf,
}

impl Environment {
    /// The backend `torchrun` jobs use here: NCCL when there are GPUs, gloo on CPU.
    pub fn backend(&self) -> &'static str {
        if self.cuda_devices > 0 && self.nccl {
            "nccl"
        } else {
            "gloo"
        }
    }
}

const PROBE: &str = r#"
import json, platform, sys, warnings
warnings.filterwarnings("ignore")
import torch, torch.distributed as dist
print(json.dumps({
    "prefix": sys.prefix,
    "base_prefix": sys.base_prefix,
    "python": platform.python_version(),
    "torch": torch.__version__,
    "cuda_devices": torch.cuda.device_count(),
    "gloo": dist.is_gloo_available(),
    "nccl": dist.is_nccl_available(),
}))
"#;

/// What `venv` offers, probed once per process: the probe is a Python that imports torch, some
/// 2.5 s of a core, and what it reports does not change while the process runs. A failed probe
/// is not kept, so the next asks again.
pub fn probe_once(venv: &Path) -> Result<Environment, RunnerError> {
    static PROBED: Mutex<Vec<(PathBuf, Environment)>> = Mutex::new(Vec::new());
    let known = |probed: &[(PathBuf, Environment)]| {
        probed.iter().find(|(dir, _)| dir == venv).map(|(_, env)| env.clone())
    };
    if let Some(env) = known(&PROBED.lock().unwrap_or_else(|e| e.into_inner())) {
        return Ok(env);
    }
    // Probed without the lock held: two first gradings at once may both probe, which is
    // harmless, where holding it would make every other venv's probe wait.
    let env = probe(venv)?;
    let mut probed = PROBED.lock().unwrap_or_else(|e| e.into_inner());
    if known(&probed).is_none() {
        probed.push((venv.to_path_buf(), env.clone()));
    }
    Ok(env)
}

/// What `venv` offers, as a Python of it reports now.
pub fn probe(venv: &Path) -> Result<Environment, RunnerError> {
    let python = venv.join("bin/python");
    if !python.exists() {
        return Err(RunnerError::NoEnvironment(venv.to_path_buf()));
    }
    let out = Command::new(&python)
        .args(["-c", PROBE])
        .output()
        .map_err(|source| RunnerError::Spawn { path: python.clone(), source })?;
    if !out.status.success() {
        return Err(RunnerError::Probe(String::from_utf8_lossy(&out.stderr).trim().to_string()));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(line).map_err(|e| RunnerError::Probe(format!("{e}: {line}")))
}
