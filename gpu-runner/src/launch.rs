//! One run of a script under `torchrun` in the sandbox, with the harness in front of it.
//!
//! Each rank runs `rank.sh`, which starts the harness on the script and writes the rank's exit
//! status to `/records/rank{R}.exit`; a rank killed by the launcher leaves none. The harness
//! writes the rank's stdout and stderr to `/records/logs/rank{R}.out|err` and its records to
//! `/records/rank{R}.jsonl`.

use std::path::{Path, PathBuf};

use grading_checks::record::RankRecord;
use grading_checks::resume::CrashPlan;
use grading_protocol::{RankRun, Settings};

use crate::env::Environment;
use crate::sandbox::{self, Finished, Layout};
use crate::RunnerError;

pub const HARNESS: &str = include_str!("../harness/lockstep_harness.py");

const RANK_SH: &str = r#"#!/bin/sh
"$LOCKSTEP_PYTHON" /opt/lockstep/lockstep_harness.py "$@"
status=$?
echo "$status" > "/records/rank${RANK}.exit"
exit "$status"
"#;

/// What torchrun may do after a worker fails (`--max-restarts`), and the failure the runner
/// plans for the first attempt, if any.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Restarts {
    pub max: u32,
    pub crash: Option<CrashPlan>,
}

/// How much of each log the result keeps: the end, where the errors are.
pub const TAIL_BYTES: usize = 4096;

/// One torchrun, finished.
#[derive(Debug, Clone)]
pub struct Run {
    pub nproc: u32,
    pub command: Vec<String>,
    pub finished: Finished,
    pub ranks: Vec<RankRun>,
    pub launcher_tail: String,
    pub records: Vec<RankRecord>,
    pub records_dir: PathBuf,
    /// Each rank's whole stdout (up to the file-size limit), for the logging check.
    pub stdout: Vec<String>,
}

impl Run {
    pub fn backend(&self) -> Option<&str> {
        self.records.iter().find_map(|r| r.init().map(|(b, _, _)| b))
    }
}

/// Prepares the read-only part every run shares: the harness, `rank.sh` and the sandbox's
/// `/etc`.
pub fn write_harness(dir: &Path) -> Result<(), RunnerError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).map_err(RunnerError::io("creating the harness directory"))?;
    std::fs::write(dir.join("lockstep_harness.py"), HARNESS)
        .map_err(RunnerError::io("writing the harness"))?;
    let sh = dir.join("rank.sh");
    std::fs::write(&sh, RANK_SH).map_err(RunnerError::io("writing rank.sh"))?;
    std::fs::set_permissions(&sh, std::fs::Permissions::from_mode(0o755))
        .map_err(RunnerError::io("chmod rank.sh"))?;
    sandbox::write_etc(dir)
}

/// Runs `script` (its file name is kept, so tracebacks and call sites name it) with
/// `settings.nproc` processes. `work` is this run's own directory.
pub fn run(
    env: &Environment,
    venv: &Path,
    harness: &Path,
    script: &Path,
    settings: &Settings,
    restarts: Restarts,
    work: &Path,
) -> Result<Run, RunnerError> {
    run_watched(env, venv, harness, script, settings, restarts, work, &mut |_| false)
}

/// [`run`], showing `watch` the ranks' records as they are written, a few times a second,
/// until it answers `false`: for checks that a run settles before it ends.
#[allow(clippy::too_many_arguments)]
pub fn run_watched(
    env: &Environment,
    venv: &Path,
    harness: &Path,
    script: &Path,
    settings: &Settings,
    restarts: Restarts,
    work: &Path,
    watch: &mut dyn FnMut(&[RankRecord]) -> bool,
) -> Result<Run, RunnerError> {
    use std::os::unix::fs::PermissionsExt;
    let job = work.join("job");
    let records = work.join("records");
    for d in [&job, &records, &records.join("logs")] {
        std::fs::create_dir_all(d).map_err(RunnerError::io(format!("creating {}", d.display())))?;
        // The sandbox's uid 1000 must be able to write here.
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o777))
            .map_err(RunnerError::io("chmod"))?;
    }
    let name = script.file_name().and_then(|n| n.to_str()).unwrap_or("train.py").to_string();
    std::fs::copy(script, job.join(&name))
        .map_err(RunnerError::io(format!("copying {}", script.display())))?;

    let python = venv.join("bin/python");
    let mut vars: Vec<(String, String)> = vec![
        ("PATH".into(), format!("{}:/usr/bin:/bin", venv.join("bin").display())),
        ("HOME".into(), "/job".into()),
        ("TMPDIR".into(), "/tmp".into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("PYTHONUNBUFFERED".into(), "1".into()),
        ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
        ("OMP_NUM_THREADS".into(), settings.threads.to_string()),
        ("MKL_NUM_THREADS".into(), settings.threads.to_string()),
        ("LOCKSTEP_PYTHON".into(), python.display().to_string()),
        ("LOCKSTEP_THREADS".into(), settings.threads.to_string()),
        ("LOCKSTEP_RECORDS".into(), "/records".into()),
        ("LOCKSTEP_LOGS".into(), "/records/logs".into()),
        ("LOCKSTEP_PG_TIMEOUT_S".into(), settings.pg_timeout_s.to_string()),
    ];
    if let Ok(v) = std::env::var("CUDA_VISIBLE_DEVICES") {
        vars.push(("CUDA_VISIBLE_DEVICES".into(), v));
    }
    if restarts.max > 0 {
        // torch 2.13's torchrun shares its rendezvous store with the workers and keeps it
        // across restarts, dead workers' addresses included: a restarted gloo group then often
        // connects to a rank that is gone ("Connection refused") or waits for one until its
        // timeout. With the store not shared, every restart here succeeded
        // (torch/distributed/elastic/rendezvous/dynamic_rendezvous.py; lesson 9 explains it).
        vars.push(("TORCH_DISABLE_SHARE_RDZV_TCP_STORE".into(), "1".into()));
    }
    if let Some(crash) = restarts.crash {
        vars.push(("LOCKSTEP_CRASH".into(), crash.to_env()));
    }
    let command: Vec<String> = vec![
        venv.join("bin/torchrun").display().to_string(),
        "--standalone".into(),
        format!("--nproc_per_node={}", settings.nproc),
        format!("--max-restarts={}", restarts.max),
        "--no-python".into(),
        "/opt/lockstep/rank.sh".into(),
        format!("/job/{name}"),
    ];
    let layout = Layout {
        job: job.clone(),
        records: records.clone(),
        harness: harness.to_path_buf(),
        python: vec![env.prefix.clone(), env.base_prefix.clone()],
        gpus: env.cuda_devices > 0,
    };
    let launcher_log = work.join("launcher.log");
    let mut watching = true;
    let mut tick = || {
        if !watching {
            return;
        }
        // A line being written reads as unreadable and is read again next time.
        let so_far: Vec<RankRecord> =
            (0..settings.nproc).map(|rank| rank_record(&records, rank)).collect();
        watching = watch(&so_far);
    };
    let finished =
        sandbox::run(&layout, &settings.limits, &vars, &command, &launcher_log, &mut tick)?;

    let mut ranks = Vec::new();
    let mut stdout = Vec::new();
    let mut recs = Vec::new();
    for rank in 0..settings.nproc {
        let exit = std::fs::read_to_string(records.join(format!("rank{rank}.exit")))
            .ok()
            .and_then(|s| s.trim().parse::<i32>().ok());
        let (exit_code, signal) = match exit {
            Some(s) if s > 128 => (None, Some(s - 128)),
            Some(s) => (Some(s), None),
            None => (None, None),
        };
        let out_path = records.join(format!("logs/rank{rank}.out"));
        let err_path = records.join(format!("logs/rank{rank}.err"));
        ranks.push(RankRun {
            rank,
            exit_code,
            signal,
            killed: exit.is_none(),
            stdout_tail: tail(&out_path),
            stderr_tail: tail(&err_path),
        });
        stdout.push(
            String::from_utf8_lossy(&std::fs::read(&out_path).unwrap_or_default()).into_owned(),
        );
        recs.push(rank_record(&records, rank));
    }
    Ok(Run {
        nproc: settings.nproc,
        command,
        finished,
        ranks,
        launcher_tail: tail(&launcher_log),
        records: recs,
        records_dir: records,
        stdout,
    })
}

/// What rank `rank` has recorded so far in `records` (nothing, if it wrote no file).
fn rank_record(records: &Path, rank: u32) -> RankRecord {
    let path = records.join(format!("rank{rank}.jsonl"));
    RankRecord::parse(rank, &std::fs::read_to_string(path).unwrap_or_default())
}

/// The last [`TAIL_BYTES`] of a file, from a line start when one is near.
pub fn tail(path: &Path) -> String {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut f) = std::fs::File::open(path) else { return String::new() };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let start = len.saturating_sub(TAIL_BYTES as u64);
    let _ = f.seek(SeekFrom::Start(start));
    let mut buf = Vec::new();
    let _ = f.take(TAIL_BYTES as u64).read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf).into_owned();
    if start > 0 {
        if let Some(i) = text.find('\n') {
            return format!("[…]{}", &text[i..]);
        }
    }
    text
}
