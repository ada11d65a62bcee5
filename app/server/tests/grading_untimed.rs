//! Grading through the queue with workers that do not time the speedup: a killed app loses no
//! job (SQLite and the real PostgreSQL server), the second exercise is graded as
//! `survive-a-crash`, and broken variants get their verdicts through the web. Real torch
//! (gloo, 2 processes) in the sandbox, as in `grading.rs`; nothing here is timed, so `cargo
//! xtask test` runs this binary beside others. Its gradings still take turns: each is two
//! processes on two cores.
//!
//! Needs the `gpu-runner` binary beside this test's (`cargo test --workspace` builds it; `cargo
//! xtask test` does) and the set-up's Python environment.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::api::*;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use lockstep_store::{Store, TokenKind};
use serde_json::Value;

static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// `kill -9` of the app with jobs queued, and again while a worker grades one: after each
/// restart every job completes, each with exactly one verdict; the worker rides out the
/// outage by retrying its reports.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_app_loses_no_job() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", tmp.path().join("db.sqlite3").display());
    killed_app_loses_no_job(tmp.path(), &url).await;
}

/// The same on the real PostgreSQL server: its queue claims with `FOR UPDATE SKIP LOCKED`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_killed_app_loses_no_job() {
    let tmp = tempfile::tempdir().unwrap();
    let url = common::in_process::postgres_database("killed_app").await;
    killed_app_loses_no_job(tmp.path(), &url).await;
}

async fn killed_app_loses_no_job(dir: &Path, url: &str) {
    let _turn = ONE_AT_A_TIME.lock().await;
    let (tmp, url) = (dir, url.to_string());
    let port = common::free_port();
    let base = format!("http://127.0.0.1:{port}");
    let http: Http = Client::builder(TokioExecutor::new()).build_http();
    let mut app = common::server_process(&tmp.join("site"), &url, port).await;

    let store = Store::connect(&url).await.unwrap();
    store.create_account("ada@example.org", "not-a-real-hash", "acct-ada", 0).await.unwrap();
    let token = "lsl_token-of-ada-for-the-crash-test";
    let hash = lockstep_rules::tokens::hash(token);
    store.create_token(TokenKind::Learner, "cli", Some("acct-ada"), &hash, 0).await.unwrap();
    let worker_token = worker_token(&url, "crash-test");

    let ids = [
        submit(&http, &base, token, &exercise("solution.py")).await,
        submit(&http, &base, token, &exercise("broken/syntax_error.py")).await,
        submit(&http, &base, token, &exercise("broken/syntax_error.py")).await,
    ];
    // Acknowledged, then the machine dies with all three queued.
    app.0.kill().unwrap();
    app.0.wait().unwrap();
    app = common::server_process(&tmp.join("site"), &url, port).await;
    let _worker = worker(&base, &worker_token, "survivor", false);

    // Once the worker is grading the solution, the app dies again, for a few seconds.
    let started = Instant::now();
    while !store
        .submission_events(ids[0], 0)
        .await
        .unwrap()
        .iter()
        .any(|e| e.event.kind() == "run_started")
    {
        assert!(started.elapsed() < Duration::from_secs(120), "the solution was never started");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    app.0.kill().unwrap();
    app.0.wait().unwrap();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let _app = common::server_process(&tmp.join("site"), &url, port).await;

    for id in ids {
        let started = Instant::now();
        loop {
            let s = store.submission(id).await.unwrap().unwrap();
            if s.status.is_final() {
                assert_eq!(s.status, lockstep_store::SubmissionStatus::Graded, "submission {id}");
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(300), "submission {id} never ended");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let events = store.submission_events(id, 0).await.unwrap();
        let verdicts = events.iter().filter(|e| e.event.kind() == "verdict").count();
        assert_eq!(verdicts, 1, "submission {id}: {events:?}");
    }
    let solution = store.submission(ids[0]).await.unwrap().unwrap();
    assert_eq!(solution.verdict_status, Some(grading_protocol::Status::Fail), "speedup not timed");
    let checks: serde_json::Value = serde_json::from_str(&solution.verdict_json.unwrap()).unwrap();
    let failed: Vec<&Value> =
        checks["checks"].as_array().unwrap().iter().filter(|c| c["status"] == "fail").collect();
    assert!(failed.is_empty(), "nothing failed; only the speedup was skipped: {failed:?}");
}

/// The second exercise through the same queue: the worker grades it as `survive-a-crash` (its
/// run left alone, then the run with a rank killed), its five checks arrive live, and the pass
/// earns that exercise's XP.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_crash_exercise_is_graded_through_the_queue() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let tmp = tempfile::tempdir().unwrap();
    let (base, store, worker_token, token) = start(tmp.path()).await;
    let http = http();
    let script = exercise("crash/solution.py");
    let id = submit_to(&http, &base, &token, "survive-a-crash", &script).await;
    let _worker = worker(&base, &worker_token, "crash", false);
    let api = format!("{base}/api/submissions");
    let events = sse(&http, &format!("{api}/{id}/events"), &token, None).await;
    let roles: Vec<&str> = events
        .iter()
        .filter(|(_, e, _)| e == "run_started")
        .map(|(_, _, data)| data["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["uninterrupted", "interrupted"], "{events:?}");
    let checks: Vec<&str> = events
        .iter()
        .filter(|(_, e, _)| e == "check")
        .map(|(_, _, data)| data["check"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        checks,
        [
            "restarted_and_finished",
            "resumed_from_snapshot",
            "sampler_order_resumed",
            "snapshot_rank0_only",
            "final_params_match"
        ]
    );
    let (status, json) = call(&http, "GET", &format!("{api}/{id}"), Some(&token), None).await;
    assert_eq!(status, 200);
    assert_eq!(json["verdict"]["status"], "pass", "{json}");
    let subjects: Vec<String> =
        store.events("acct-ada").await.unwrap().iter().map(|e| e.action.subject()).collect();
    assert!(subjects.iter().any(|s| s == "survive-a-crash"), "{subjects:?}");
}

/// Broken variants through the web path, graded by a worker: each fails exactly the check it
/// fails under `gpu-runner grade`, or is the same `error`. One of each kind of verdict: the
/// processes never forming one group, a check read from what the ranks iterated, a deadlock
/// the watchdog ends, a script that does not parse. The worker runs each grade as a child
/// `gpu-runner grade`, which `gpu-runner/tests/grade_untimed.rs` runs on every variant: graded
/// here too, the other variants took the cores' time and proved no more of the path. The
/// worker does not time the speedup (so `speedup` is skipped everywhere).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_variants_get_their_verdicts_through_the_web() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let tmp = tempfile::tempdir().unwrap();
    let (base, _store, worker_token, token) = start(tmp.path()).await;
    let http: Http = Client::builder(TokioExecutor::new()).build_http();
    let _worker = worker(&base, &worker_token, "held-out", false);
    let expected: &[(&str, &[&str])] = &[
        ("own_world.py", &["launched"]),
        ("same_shard.py", &["sampler_sharding"]),
        ("barrier_rank0.py", &["no_deadlock"]),
        ("syntax_error.py", &[]),
    ];
    let mut ids = Vec::new();
    for (file, _) in expected {
        ids.push(submit(&http, &base, &token, &exercise(&format!("broken/{file}"))).await);
    }
    let api = format!("{base}/api/submissions");
    for ((file, failing), id) in expected.iter().zip(ids) {
        let events = sse(&http, &format!("{api}/{id}/events"), &token, None).await;
        assert_eq!(events.last().unwrap().1, "verdict", "{file}: {events:?}");
        let (_, json) = call(&http, "GET", &format!("{api}/{id}"), Some(&token), None).await;
        let v = &json["verdict"];
        let failed: Vec<&str> = v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["status"] == "fail")
            .map(|c| c["id"].as_str().unwrap())
            .collect();
        if failing.is_empty() {
            assert_eq!(v["status"], "error", "{file}: {v}");
        } else {
            assert_eq!(v["status"], "fail", "{file}");
            assert_eq!(failed, *failing, "{file}: {}", v["summary"]);
        }
    }
}
