//! `gpu-runner worker`: grades submissions for a Lockstep server, over HTTP, with a worker
//! token. It never sees the database.
//!
//! One job at a time (a grade times the speedup; two on the same cores spoil it). Each grade
//! runs as a child `gpu-runner grade --json --events`, so the worker can stop it the moment it
//! loses the job's lease, and a crash of a grade is only a failed job. The child dies with the
//! worker (`PR_SET_PDEATHSIG`), and the sandbox dies with the child (`bwrap --die-with-parent`),
//! so a killed worker leaves nothing running; its lease expires and the server queues the job
//! again.
//!
//! While it grades, a heartbeat renews the lease every third of its length. A worker that
//! cannot renew it before it runs out stops grading: by then the server may have given the job
//! to another worker, and a job is never graded twice at once. Reports that fail on the network
//! are retried until they get through or the server answers that the lease is gone.
//!
//! SIGTERM (how Slurm ends a pilot job: `scancel`, preemption, its time limit) stops the grade
//! and gives the job back as `stopped`, which the server queues again at once.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use grading_protocol::live::{ClaimRequest, Event, Failure, Finish, Job, Lease, Report};
use grading_protocol::Verdict;
use lockstep_client::routes;

#[derive(Debug, clap::Args)]
pub struct WorkerArgs {
    /// The Lockstep server, e.g. https://lockstep.example.org
    #[arg(long)]
    pub server: String,
    /// The worker token (`lockstep admin worker-token create NAME`); or set LOCKSTEP_WORKER_TOKEN.
    #[arg(long, env = "LOCKSTEP_WORKER_TOKEN", hide_env_values = true)]
    pub token: String,
    /// How this worker names itself in the learner's status and the logs [default: host name].
    #[arg(long)]
    pub name: Option<String>,
    /// The batch system's node this worker runs on, shown to the learner ("running on node
    /// NODE"); a pilot job passes $SLURMD_NODENAME.
    #[arg(long)]
    pub node: Option<String>,
    /// Seconds between asking for work while the queue is empty.
    #[arg(long, default_value_t = 1.0)]
    pub poll: f64,
    /// Exit after this many seconds without work (a pilot job on a batch system).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub idle_exit: Option<f64>,
    /// Exit after this many jobs.
    #[arg(long)]
    pub max_jobs: Option<u64>,
    /// Take no new job after this many seconds (a pilot job stops claiming while a grade still
    /// fits in its time limit).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub claim_for: Option<f64>,
    /// Processes in the graded run [default: one per GPU, or 2 on CPU].
    #[arg(long)]
    pub nproc: Option<u32>,
    /// Do not time the speedup (the `speedup` check is skipped): for machines that are busy
    /// anyway.
    #[arg(long)]
    pub skip_speedup: bool,
    /// The speedup a graded run must reach [default: `gpu-runner grade`'s, 1 + 0.05 per extra
    /// process]: a site whose nodes scale worse or better sets its own.
    #[arg(long, value_name = "RATIO")]
    pub min_speedup: Option<f64>,
    /// How many times each of the N-process and 1-process runs is made for the speedup
    /// [default: `gpu-runner grade`'s, 2]: 1 halves the timing on a node that has nothing else
    /// to do.
    #[arg(long, value_name = "N")]
    pub repeats: Option<u32>,
}

#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    #[error("the server refused the worker token: {0}")]
    Refused(String),
    #[error("cannot start a grade: {0}")]
    Spawn(std::io::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("the grading environment does not work")]
    Environment(#[source] crate::RunnerError),
}

/// What the server said to a message about a job.
enum Answer {
    Done,
    /// 409: the lease is gone; drop the job.
    Lost,
}

struct Client(lockstep_client::Server);

impl Client {
    fn new(server: &str, token: &str) -> Client {
        let timeout = lockstep_client::Timeout::Whole(Duration::from_secs(30));
        Client(lockstep_client::Server::new(server, token, timeout))
    }

    /// A job, `None` when the queue is empty.
    fn claim(&self, worker: &str, node: Option<&str>) -> Result<Option<Job>, ClaimError> {
        let request = ClaimRequest {
            worker: worker.into(),
            node: node.map(Into::into),
            exercises: crate::exercises::gradable(),
        };
        let path = routes::WORKER_CLAIM_API;
        let response =
            self.0.post(path, &request).map_err(|e| ClaimError::Network(e.to_string()))?;
        if response.status().as_u16() == 204 {
            return Ok(None);
        }
        lockstep_client::json::<Job>(response).map(Some).map_err(|e| match e {
            lockstep_client::ClientError::Refused { body, .. } => ClaimError::Refused(body),
            e => ClaimError::Network(e.to_string()),
        })
    }

    /// Sends a message about `job`, retrying network failures and server errors for up to
    /// `patience`; `Err` when it could not get through.
    fn tell<T: serde::Serialize>(
        &self,
        path: String,
        body: &T,
        patience: Duration,
    ) -> Result<Answer, String> {
        let started = Instant::now();
        let mut wait = Duration::from_millis(250);
        loop {
            let last = match self.0.post(&path, body).map_err(|e| e.to_string()) {
                Ok(r) if r.status().is_success() => return Ok(Answer::Done),
                Ok(r) if r.status().as_u16() == 409 => return Ok(Answer::Lost),
                Ok(r) if r.status().is_client_error() => {
                    let status = r.status();
                    return Err(format!("{path}: {status}: {}", lockstep_client::text(r)));
                }
                Ok(r) => format!("{}: {}", r.status(), lockstep_client::text(r)),
                Err(e) => e,
            };
            if started.elapsed() + wait > patience {
                return Err(format!("{path}: {last}"));
            }
            eprintln!("gpu-runner worker: {path}: {last}; trying again in {wait:?}");
            std::thread::sleep(wait);
            wait = (wait * 2).min(Duration::from_secs(5));
        }
    }
}

enum ClaimError {
    Network(String),
    Refused(String),
}

/// Set by SIGTERM: the batch system (or an operator) is stopping this worker.
static TERMINATED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigterm(_: libc::c_int) {
    TERMINATED.store(true, Ordering::SeqCst);
}

fn terminated() -> bool {
    TERMINATED.load(Ordering::SeqCst)
}

/// Claims and grades jobs until stopped (SIGTERM), `--idle-exit`, `--claim-for` or
/// `--max-jobs`.
pub fn run(args: &WorkerArgs) -> Result<(), WorkerError> {
    // SIGTERM is how Slurm ends a job (scancel, its time limit): a job being graded then goes
    // back to the queue at once instead of waiting for its lease to run out.
    // SAFETY: the handler only stores to an atomic.
    unsafe { libc::signal(libc::SIGTERM, on_sigterm as *const () as libc::sighandler_t) };
    let client = Client::new(&args.server, &args.token);
    let name = args.name.clone().unwrap_or_else(host_name);
    // Probed once, here, and handed to every grade: a machine whose Python or torch is broken
    // claims nothing (each job would only fail on it), and no grade pays for a probe.
    let env = crate::probe(&crate::default_venv()).map_err(WorkerError::Environment)?;
    eprintln!(
        "gpu-runner worker {name}: python {}, torch {}, {} CUDA device(s), {}",
        env.python,
        env.torch,
        env.cuda_devices,
        env.backend()
    );
    let env = serde_json::to_string(&env).expect("an environment serializes");
    let poll = Duration::from_secs_f64(args.poll.max(0.05));
    let started = Instant::now();
    let mut idle_since = Instant::now();
    let mut done = 0;
    let mut backoff = poll;
    eprintln!("gpu-runner worker {name}: asking {} for work", client.0.url(""));
    loop {
        if terminated() {
            eprintln!("gpu-runner worker {name}: stopped (SIGTERM)");
            return Ok(());
        }
        if args.max_jobs.is_some_and(|max| done >= max) {
            return Ok(());
        }
        if args.claim_for.is_some_and(|s| started.elapsed().as_secs_f64() >= s) {
            eprintln!(
                "gpu-runner worker {name}: no new job after {:?}; exiting",
                started.elapsed()
            );
            return Ok(());
        }
        match client.claim(&name, args.node.as_deref()) {
            Ok(Some(job)) => {
                grade_job(&client, args, &env, &job)?;
                done += 1;
                idle_since = Instant::now();
                backoff = poll;
            }
            Ok(None) => {
                if args.idle_exit.is_some_and(|s| idle_since.elapsed().as_secs_f64() >= s) {
                    eprintln!(
                        "gpu-runner worker {name}: no work for {:?}; exiting",
                        idle_since.elapsed()
                    );
                    return Ok(());
                }
                sleep_unless(&TERMINATED, poll);
            }
            Err(ClaimError::Refused(why)) => return Err(WorkerError::Refused(why)),
            Err(ClaimError::Network(why)) => {
                eprintln!("gpu-runner worker {name}: cannot reach the server ({why}); trying again in {backoff:?}");
                sleep_unless(&TERMINATED, backoff);
                backoff = (backoff * 2).min(Duration::from_secs(30));
            }
        }
    }
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "worker".into())
}

/// Grades one job and hands in the verdict, or a failure of the platform.
fn grade_job(client: &Client, args: &WorkerArgs, env: &str, job: &Job) -> Result<(), WorkerError> {
    let lease_len = Duration::from_secs_f64(job.lease_s.max(1.0));
    eprintln!(
        "gpu-runner worker: grading submission {} (job {}, attempt {})",
        job.submission, job.job, job.attempt
    );
    let dir = tempfile::Builder::new().prefix("lockstep-submission-").tempdir()?;
    // The server checked the name; keep it a plain file name here all the same.
    let file_name = PathBuf::from(&job.file_name)
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "train.py".into());
    let script = dir.path().join(file_name);
    std::fs::write(&script, &job.script)?;

    let mut child = spawn_grade(args, env, &job.exercise, &script)?;
    let child_pid = child.id();
    let lost = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    // Set once the child is reaped: from then on its pid may belong to another process.
    let reaped = Mutex::new(false);
    // Nothing to stop once the grade has ended: its verdict is still handed in.
    let stop_grade = |why: &str| {
        let reaped = reaped.lock().expect("not poisoned");
        if *reaped || lost.swap(true, Ordering::SeqCst) {
            return;
        }
        eprintln!("gpu-runner worker: stopping job: {why}");
        // SAFETY: kill(2) on our own child, not yet reaped (checked under the lock).
        unsafe { libc::kill(child_pid as i32, libc::SIGKILL) };
    };

    let tail = Mutex::new(Vec::<String>::new());
    std::thread::scope(|scope| -> Result<(), WorkerError> {
        // SIGTERM stops the grade at once, whoever sent it: Slurm signals every process of
        // the job, but an operator's `kill` reaches this process alone.
        scope.spawn(|| {
            while !finished.load(Ordering::SeqCst) {
                if terminated() {
                    stop_grade("the worker was stopped (SIGTERM)");
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        // The heartbeat: renew every third of the lease; stop grading if it cannot be renewed
        // before it runs out.
        scope.spawn(|| {
            let lease = Lease { lease: job.lease.clone() };
            let mut renewed = Instant::now();
            while !finished.load(Ordering::SeqCst) && !lost.load(Ordering::SeqCst) {
                sleep_unless(&finished, lease_len / 3);
                if finished.load(Ordering::SeqCst) {
                    break;
                }
                let left = lease_len.saturating_sub(renewed.elapsed());
                match client.tell(
                    routes::worker_renew(job.job),
                    &lease,
                    left.saturating_sub(lease_len / 10),
                ) {
                    Ok(Answer::Done) => renewed = Instant::now(),
                    Ok(Answer::Lost) => stop_grade("the server gave the job to another worker"),
                    Err(e) => stop_grade(&format!("could not renew the lease in time ({e})")),
                }
            }
        });
        // Progress: each event line the grade writes is reported as it comes; anything else
        // it writes is kept to explain a failure.
        let stderr = child.stderr.take().expect("piped");
        let reader = scope.spawn(|| {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                match serde_json::from_str::<Event>(&line) {
                    Ok(event) if !lost.load(Ordering::SeqCst) => {
                        let decided = Instant::now();
                        let kind = event.kind();
                        let report = Report { lease: job.lease.clone(), event };
                        match client.tell(routes::worker_events(job.job), &report, lease_len) {
                            // From the grade's line to the server's answer: how long after a
                            // check is decided the server has stored it.
                            Ok(Answer::Done) => eprintln!(
                                "gpu-runner worker: job {}: {kind} reported in {:.1} ms",
                                job.job,
                                decided.elapsed().as_secs_f64() * 1e3
                            ),
                            Ok(Answer::Lost) => stop_grade("the lease is gone"),
                            Err(e) => {
                                eprintln!("gpu-runner worker: an event was not reported: {e}")
                            }
                        }
                    }
                    Ok(_) => {}
                    Err(_) => {
                        let mut tail = tail.lock().expect("not poisoned");
                        tail.push(line);
                        let excess = tail.len().saturating_sub(20);
                        tail.drain(..excess);
                    }
                }
            }
        });
        let mut stdout = String::new();
        child.stdout.take().expect("piped").read_to_string(&mut stdout)?;
        let status = loop {
            {
                let mut reaped = reaped.lock().expect("not poisoned");
                if let Some(status) = child.try_wait()? {
                    *reaped = true;
                    break status;
                }
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        reader.join().expect("the reader does not panic");
        finished.store(true, Ordering::SeqCst);
        // A job lost to the server is not handed in; one stopped by SIGTERM is given back
        // (should its lease be gone as well, the server answers 409 and nothing changes).
        if lost.load(Ordering::SeqCst) && !terminated() {
            return Ok(());
        }
        let tail = tail.lock().expect("not poisoned").join("\n");
        hand_in(client, job, status.code(), &stdout, &tail, lease_len, terminated());
        Ok(())
    })
}

/// Sends the verdict; or, when the grade could not run, the failure, for the server to retry.
/// `terminated`: SIGTERM came, so a grade without a verdict was cut short (by this worker, or
/// by Slurm signalling every process of the job): not the machine's fault, and given back as
/// `stopped`. A grade that ended with its verdict first is handed in as usual.
fn hand_in(
    client: &Client,
    job: &Job,
    code: Option<i32>,
    stdout: &str,
    tail: &str,
    lease: Duration,
    terminated: bool,
) {
    let verdict = serde_json::from_str::<Verdict>(stdout.trim());
    let (what, answer) = match (code, verdict) {
        (Some(0..=2), Ok(verdict)) => {
            let finish = Finish { lease: job.lease.clone(), verdict };
            ("verdict", client.tell(routes::worker_verdict(job.job), &finish, lease * 3))
        }
        (code, _) => {
            let reason = match code {
                _ if terminated => "the worker was stopped (SIGTERM) while it graded this".into(),
                Some(c) => format!("the grader exited with code {c}: {}", last_lines(tail)),
                None => format!("the grader was killed: {}", last_lines(tail)),
            };
            let failure = Failure { lease: job.lease.clone(), reason, stopped: terminated };
            ("failure", client.tell(routes::worker_failure(job.job), &failure, lease * 3))
        }
    };
    match answer {
        Ok(Answer::Done) => eprintln!("gpu-runner worker: job {}: {what} handed in", job.job),
        Ok(Answer::Lost) => {
            eprintln!("gpu-runner worker: job {}: the lease was gone; dropped", job.job)
        }
        Err(e) => {
            eprintln!("gpu-runner worker: job {}: could not hand in the {what}: {e}", job.job)
        }
    }
}

fn last_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = lines[lines.len().saturating_sub(3)..].join(" | ");
    if tail.is_empty() {
        "no output".into()
    } else {
        tail
    }
}

/// A number of seconds, 0 or more: a NaN would never be reached.
fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a number of seconds (0 or more)")),
    }
}

fn sleep_unless(flag: &AtomicBool, total: Duration) {
    let until = Instant::now() + total;
    while !flag.load(Ordering::SeqCst) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50).min(until - Instant::now()));
    }
}

/// `gpu-runner grade SCRIPT --json --events --exercise=EXERCISE --environment=ENV` (the
/// environment as this worker probed it, JSON), dying with this process.
fn spawn_grade(
    args: &WorkerArgs,
    env: &str,
    exercise: &str,
    script: &std::path::Path,
) -> Result<Child, WorkerError> {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe().map_err(WorkerError::Spawn)?;
    let mut cmd = Command::new(exe);
    cmd.arg("grade").arg(script).arg("--json").arg("--events");
    cmd.arg(format!("--exercise={exercise}"));
    cmd.arg(format!("--environment={env}"));
    if let Some(n) = args.nproc {
        cmd.arg(format!("--nproc={n}"));
    }
    if args.skip_speedup {
        cmd.arg("--skip-speedup");
    }
    if let Some(min) = args.min_speedup {
        cmd.arg(format!("--min-speedup={min}"));
    }
    if let Some(repeats) = args.repeats {
        cmd.arg(format!("--repeats={repeats}"));
    }
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    cmd.spawn().map_err(WorkerError::Spawn)
}
