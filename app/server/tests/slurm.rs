//! Grading through a real single-node Slurm, which `cargo xtask test` starts (`SLURM_CONF`,
//! `LOCKSTEP_TEST_SLURM_PARTITION`): `lockstep-pilots` submits `gpu-runner worker` pilot jobs
//! with `sbatch`, and they grade with real torch (gloo, 2 processes) in the sandbox.
//!
//! - A submission through the web API is graded on the Slurm node, and its status names it.
//! - A pilot cancelled mid-grade with `scancel`, or whose worker alone gets SIGTERM, stops the
//!   grade and gives its job back; a new pilot completes it.
//! - A pilot whose worker stops answering loses its lease; the supervisor cancels its Slurm job
//!   and the submission is graded by the next one.
//! - A pilot waiting for a busy node: the queued submission says where it waits; when the
//!   learner cancels, the pending pilot is cancelled in Slurm.
//!
//! Every submission ends with exactly one verdict.

mod common;

use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use common::api::*;
use lockstep_store::Store;
use serde_json::Value;

/// Both tests use the one Slurm node and its cores; they take turns.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn partition() -> String {
    std::env::var("LOCKSTEP_TEST_SLURM_PARTITION").expect(
        "LOCKSTEP_TEST_SLURM_PARTITION and SLURM_CONF name the test's Slurm cluster; \
         `cargo xtask test` starts one and sets them",
    )
}

fn slurm(program: &str, args: &[&str]) -> String {
    let out = Command::new(program).args(args).output().unwrap();
    assert!(out.status.success(), "{program} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The Slurm job ids called `name`, with their state.
fn jobs_named(name: &str) -> Vec<(String, String)> {
    slurm("squeue", &["--noheader", "--format=%i %T", &format!("--name={name}")])
        .lines()
        .filter_map(|l| l.split_once(' ').map(|(a, b)| (a.to_string(), b.to_string())))
        .collect()
}

struct Supervisor {
    child: Child,
    job_name: String,
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // No pilot outlives its test.
        let _ = Command::new("scancel").arg(format!("--name={}", self.job_name)).status();
    }
}

/// `lockstep-pilots` for the server at `base`: pilots of 2 CPUs that grade without timing the
/// speedup and exit after 5 s without work.
fn supervisor(dir: &Path, base: &str, token: &str, job_name: &str, max: u32) -> Supervisor {
    let config = format!(
        r#"server = "{base}"
runner = "{runner}"
max_pilots = {max}
poll_seconds = 0.5

[slurm]
partition = "{partition}"
cpus_per_job = 2
time_limit = "10"
job_name = "{job_name}"
log_dir = "{logs}"

[worker]
idle_exit_seconds = 5
args = ["--skip-speedup", "--poll=0.2"]
"#,
        runner = gpu_runner().display(),
        partition = partition(),
        logs = dir.display(),
    );
    let path = dir.join(format!("{job_name}.toml"));
    std::fs::write(&path, config).unwrap();
    let child = Command::new(sibling_binary("lockstep-pilots"))
        .arg(format!("--config={}", path.display()))
        .env("LOCKSTEP_WORKER_TOKEN", token)
        .spawn()
        .unwrap();
    Supervisor { child, job_name: job_name.into() }
}

async fn events_until(
    store: &Store,
    id: i64,
    what: &str,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let started = Instant::now();
    loop {
        let events: Vec<Value> = store
            .submission_events(id, 0)
            .await
            .unwrap()
            .iter()
            .map(|e| serde_json::to_value(&e.event).unwrap())
            .collect();
        if done(&events) {
            return events;
        }
        assert!(started.elapsed() < Duration::from_secs(300), "{what}: {events:#?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn kinds(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["kind"].as_str().unwrap()).collect()
}

fn has_verdict(events: &[Value]) -> bool {
    kinds(events).contains(&"verdict")
}

/// The Slurm job of the worker that started the latest attempt (its name ends `/slurm-ID`).
fn last_pilot(events: &[Value]) -> String {
    let started = events.iter().rfind(|e| e["kind"] == "started").unwrap();
    let worker = started["worker"].as_str().unwrap();
    worker.rsplit_once("/slurm-").unwrap().1.to_string()
}

fn one_verdict_nothing_failed(events: &[Value], verdict: &Value) {
    assert_eq!(kinds(events).iter().filter(|k| **k == "verdict").count(), 1, "{events:#?}");
    let failed: Vec<&Value> =
        verdict["checks"].as_array().unwrap().iter().filter(|c| c["status"] == "fail").collect();
    assert!(failed.is_empty(), "the reference solution failed {failed:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graded_on_the_slurm_node_through_cancelled_and_hung_pilots() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let tmp = tempfile::tempdir().unwrap();
    let (base, store, worker_token, token) = start(tmp.path()).await;
    let http = http();
    let node = slurm("sinfo", &["--noheader", "--format=%N"]).trim().to_string();
    let _pilots = supervisor(tmp.path(), &base, &worker_token, "lockstep-test-graded", 2);
    let api = format!("{base}/api/submissions");
    let solution = exercise("solution.py");

    // Submitted through the web API, graded by a pilot on the Slurm node.
    let first = submit(&http, &base, &token, &solution).await;
    let events = sse(&http, &format!("{api}/{first}/events"), &token, None).await;
    let events: Vec<Value> = events.into_iter().map(|(_, _, data)| data).collect();
    let started = events.iter().find(|e| e["kind"] == "started").unwrap();
    assert_eq!(started["node"], node.as_str(), "{started}");
    assert!(started["worker"].as_str().unwrap().contains(&format!("{node}/slurm-")), "{started}");
    let (_, json) = call(&http, "GET", &format!("{api}/{first}"), Some(&token), None).await;
    one_verdict_nothing_failed(&events, &json["verdict"]);

    // The pilot stopped mid-grade, by `scancel` (Slurm signals every process of the job) and
    // by SIGTERM to the worker alone (`--batch`, as an operator's `kill` would): either way the
    // worker stops the grade before its run ends, gives the job back at once, and a new pilot
    // completes it.
    for stop in [&[][..], &["--batch", "--signal=TERM"][..]] {
        let id = submit(&http, &base, &token, &solution).await;
        let events =
            events_until(&store, id, "a run", |es| kinds(es).contains(&"run_started")).await;
        let stopped = last_pilot(&events);
        slurm("scancel", &[stop, &[stopped.as_str()]].concat());
        let events = events_until(&store, id, "the verdict", has_verdict).await;
        let requeued = events.iter().position(|e| e["kind"] == "requeued").expect("given back");
        let reason = events[requeued]["reason"].as_str().unwrap();
        assert!(reason.contains("stopped"), "{stop:?}: {reason}");
        assert!(
            !kinds(&events[..requeued]).contains(&"run_finished"),
            "{stop:?}: the grade was stopped mid-run: {events:#?}"
        );
        assert_ne!(last_pilot(&events), stopped, "graded by another pilot");
        let last_start = events.iter().rfind(|e| e["kind"] == "started").unwrap();
        assert_eq!(last_start["attempt"], 2);
        let (_, json) = call(&http, "GET", &format!("{api}/{id}"), Some(&token), None).await;
        one_verdict_nothing_failed(&events, &json["verdict"]);
    }

    // A pilot whose worker hangs (SIGSTOP): its lease runs out, the server takes the job back,
    // and the supervisor cancels that Slurm job; the next pilot grades it.
    let hanging = submit(&http, &base, &token, &solution).await;
    let events = events_until(&store, hanging, "a run of the hanging one", |es| {
        kinds(es).contains(&"run_started")
    })
    .await;
    let hung = last_pilot(&events);
    let pattern = format!("gpu-runner worker .*--name=[^ ]*/slurm-{hung} ");
    let pids = Command::new("pgrep").args(["-f", &pattern]).output().unwrap();
    let pids = String::from_utf8(pids.stdout).unwrap();
    assert!(!pids.trim().is_empty(), "the pilot's worker process ({pattern})");
    for pid in pids.split_whitespace() {
        slurm("kill", &["-STOP", pid]);
    }
    let started = Instant::now();
    while jobs_named("lockstep-test-graded").iter().any(|(id, _)| *id == hung) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the hung pilot {hung} was not cancelled"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let events = events_until(&store, hanging, "the hanging one's verdict", has_verdict).await;
    let requeued = events.iter().find(|e| e["kind"] == "requeued").expect("taken back");
    assert!(requeued["reason"].as_str().unwrap().contains("stopped answering"), "{requeued}");
    assert_ne!(last_pilot(&events), hung);
    let (_, json) = call(&http, "GET", &format!("{api}/{hanging}"), Some(&token), None).await;
    one_verdict_nothing_failed(&events, &json["verdict"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_pilot_says_where_it_waits_and_goes_when_the_learner_cancels() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let tmp = tempfile::tempdir().unwrap();
    let (base, store, worker_token, token) = start(tmp.path()).await;
    let http = http();
    // The node is taken by one job, and another waits for it.
    let blocker = |name: &str| {
        slurm(
            "sbatch",
            &[
                "--parsable",
                "--exclusive",
                &format!("--job-name={name}"),
                "--output=/dev/null",
                "--wrap=sleep 600",
            ],
        )
        .trim()
        .to_string()
    };
    let running = blocker("lockstep-test-blocker");
    let _cleanup = Blockers(vec![running.clone()]);
    // A previous test's pilots may still be ending on the node: the first blocker must hold
    // it before the second queues behind it.
    let started = Instant::now();
    while !jobs_named("lockstep-test-blocker").contains(&(running.clone(), "RUNNING".into())) {
        assert!(started.elapsed() < Duration::from_secs(60), "the blocker {running} never ran");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let waiting = blocker("lockstep-test-blocker");
    let _cleanup_too = Blockers(vec![waiting.clone()]);
    let _pilots = supervisor(tmp.path(), &base, &worker_token, "lockstep-test-waiting", 2);

    let id = submit(&http, &base, &token, &exercise("solution.py")).await;
    let events =
        events_until(&store, id, "a wait for a node", |es| kinds(es).contains(&"waiting_for_node"))
            .await;
    let wait = events.iter().find(|e| e["kind"] == "waiting_for_node").unwrap();
    assert_eq!(wait["partition"], partition().as_str(), "{wait}");
    assert_eq!(wait["ahead"], 1, "the other waiting job is ahead: {wait}");
    assert_eq!(wait["gpus"], 0);
    let pilot = jobs_named("lockstep-test-waiting");
    assert_eq!(pilot.len(), 1, "one pilot for one submission: {pilot:?}");
    assert_eq!(pilot[0].1, "PENDING");

    // The learner cancels: the pending pilot is cancelled in Slurm, and nothing is graded.
    let (status, _) =
        call(&http, "POST", &format!("{base}/api/submissions/{id}/cancel"), Some(&token), None)
            .await;
    assert!(status < 400, "cancel: {status}");
    let started = Instant::now();
    while !jobs_named("lockstep-test-waiting").is_empty() {
        assert!(started.elapsed() < Duration::from_secs(30), "the pending pilot stayed");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let events = store.submission_events(id, 0).await.unwrap();
    assert_eq!(events.last().unwrap().event.kind(), "cancelled");
    assert!(!events.iter().any(|e| e.event.kind() == "started"), "{events:?}");
}

struct Blockers(Vec<String>);

impl Drop for Blockers {
    fn drop(&mut self) {
        let _ = Command::new("scancel").args(&self.0).status();
    }
}
