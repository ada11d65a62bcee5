//! Grading through the queue, for real: the server on a socket, `gpu-runner worker` processes
//! claiming over HTTP with a worker token, real torch (gloo, 2 processes) in the sandbox, and a
//! learner's terminal token. The reference solution passes and earns the exercise's XP once; a
//! broken script gets its verdict; the live events arrive as server-sent events and replay from
//! `Last-Event-ID`; a worker killed with SIGKILL mid-grade loses its lease and another worker
//! completes the job, with exactly one verdict stored.
//!
//! Needs the `gpu-runner` binary beside this test's (`cargo test --workspace` builds it; `cargo
//! xtask test` does) and the set-up's Python environment.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::api::*;
use grading_protocol::{CheckId, Verdict};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use lockstep_routes::Lang;
use lockstep_store::{Store, TokenKind};
use serde_json::Value;

/// The tests in this file take turns: each grades for real, and the speedup a grading times is
/// spoilt by another grading on the same cores (a reference solution then fails `speedup`).
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graded_live_by_real_workers_and_a_killed_worker_loses_nothing() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let tmp = tempfile::tempdir().unwrap();
    let (base, store, worker_token, token) = start(tmp.path()).await;
    let http: Http = Client::builder(TokioExecutor::new()).build_http();

    // Bad input is refused with a reason, and nothing is queued.
    let api = format!("{base}/api/submissions");
    let cases = [
        (serde_json::json!({ "exercise": "ddp-conversion", "script": "  \n" }), "empty"),
        (serde_json::json!({ "exercise": "ddp-conversion", "script": "a\u{0}b" }), "binary"),
        (
            serde_json::json!({ "exercise": "ddp-conversion", "script": "#".repeat(300_000) }),
            "256 KiB",
        ),
        (serde_json::json!({ "exercise": "nope", "script": "print(1)" }), "no exercise"),
    ];
    for (body, why) in cases {
        let (status, json) = call(&http, "POST", &api, Some(&token), Some(body)).await;
        assert!(status == 400 || status == 404, "{status} {json}");
        assert!(json["error"].as_str().unwrap().contains(why), "{json}");
    }
    let (status, _) = call(
        &http,
        "POST",
        &api,
        None,
        Some(serde_json::json!({ "exercise": "ddp-conversion", "script": "x" })),
    )
    .await;
    assert_eq!(status, 401, "anonymous learners do not submit");
    let (status, _) = call(
        &http,
        "POST",
        &api,
        Some(&worker_token),
        Some(serde_json::json!({ "exercise": "ddp-conversion", "script": "x" })),
    )
    .await;
    assert_eq!(status, 401, "a worker token is no learner");
    assert_eq!(store.queue_depth(0).await.unwrap().0, 0);
    // And the workers' API wants a worker token, before it reads the body.
    let claim = format!("{base}/api/worker/claim");
    let asks = serde_json::json!({ "worker": "intruder" });
    for (bearer, body) in
        [(None, Some(asks.clone())), (Some(token.as_str()), Some(asks)), (None, None)]
    {
        let (status, _) = call(&http, "POST", &claim, bearer, body).await;
        assert_eq!(status, 401, "claiming without a worker token");
    }

    // The reference solution, graded by a worker that is killed mid-grade: its lease runs out,
    // the server queues the job again, and a second worker completes it.
    let solution = submit(&http, &base, &token, &exercise("solution.py")).await;
    // A worker from before a change of the conversion's checks, or one that grades only the
    // other exercise, is not handed it.
    let version = grading_checks::exercises::DDP_CONVERSION.version;
    for exercises in [
        serde_json::json!([{ "exercise": "ddp-conversion", "version": version + 1 }]),
        serde_json::json!([{ "exercise": "survive-a-crash", "version": 1 }]),
        serde_json::json!([]),
    ] {
        let asks = serde_json::json!({ "worker": "old", "exercises": exercises });
        let (status, _) = call(&http, "POST", &claim, Some(&worker_token), Some(asks)).await;
        assert_eq!(status, 204, "{exercises} takes no conversion");
    }
    let mut first = worker(&base, &worker_token, "first", false);
    let started = Instant::now();
    loop {
        let events = store.submission_events(solution, 0).await.unwrap();
        if events.iter().any(|e| e.event.kind() == "run_started") {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no run started: {events:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    first.0.kill().unwrap(); // SIGKILL
    first.0.wait().unwrap();
    let _second = worker(&base, &worker_token, "second", true);
    let events = sse(&http, &format!("{api}/{solution}/events"), &token, None).await;
    let names: Vec<&str> = events.iter().map(|(_, e, _)| e.as_str()).collect();
    assert_eq!(names.first(), Some(&"queued"), "{names:?}");
    assert!(names.contains(&"requeued"), "the dead worker's job went back: {names:?}");
    assert_eq!(names.iter().filter(|n| **n == "verdict").count(), 1, "{names:?}");
    assert_eq!(names.last(), Some(&"verdict"));
    assert_eq!(names.iter().filter(|n| **n == "check").count(), 10, "every check, live: {names:?}");
    let second_start = events.iter().rposition(|(_, e, _)| e == "started").unwrap();
    assert!(events[second_start].2["worker"].as_str().unwrap().ends_with("/second"));

    // Replay after an event id gets only what came after it; after the verdict, nothing.
    let (third_id, _, _) = &events[2];
    let replay = sse(&http, &format!("{api}/{solution}/events"), &token, Some(third_id)).await;
    assert_eq!(replay, events[3..]);
    let last = &events.last().unwrap().0;
    assert!(sse(&http, &format!("{api}/{solution}/events"), &token, Some(last)).await.is_empty());
    // The page's own stream, in its language: the same events, worded, without sentences.
    let korean = sse(&http, &format!("{api}/{solution}/events?lang=ko"), &token, None).await;
    assert_eq!(korean.len(), events.len());
    for ((_, kind, data), (_, _, stored)) in korean.iter().zip(&events) {
        if kind == "check" {
            assert!(data["check"].get("words").is_none() && stored["check"].get("words").is_some());
            let message = data["check"]["message"].as_str().unwrap();
            assert!(message.chars().any(|c| ('가'..='힣').contains(&c)), "{message}");
        }
    }
    let (_, _, verdict_event) = korean.last().unwrap();
    assert_eq!(verdict_event["summary"], "검사 10개를 모두 통과했습니다");

    let (status, json) = call(&http, "GET", &format!("{api}/{solution}"), Some(&token), None).await;
    assert_eq!(status, 200);
    assert_eq!(json["status"], "graded");
    let verdict = &json["verdict"];
    assert_eq!(verdict["status"], "pass", "{verdict}");
    let speedup = verdict["checks"].as_array().unwrap().iter().find(|c| c["id"] == "speedup");
    let evidence = speedup.unwrap()["message"].as_str().unwrap_or_default();
    assert!(evidence.contains("threshold 0.25×"), "the worker's threshold was used: {evidence}");
    // In Korean: the same evidence worded from its numbers, and each check's section at its
    // Korean heading, which only the course knows.
    let graded: Verdict = serde_json::from_value(verdict.clone()).unwrap();
    let ko = graded.checks.iter().find(|c| c.id == CheckId::Speedup).unwrap().message_in(Lang::Ko);
    assert!(ko.contains("(기준 0.25×;"), "{ko}");
    assert_eq!(graded.summary_in(Lang::Ko), "검사 10개를 모두 통과했습니다");
    for check in verdict["checks"].as_array().unwrap() {
        let id = check["id"].as_str().unwrap();
        let (en, ko) = (&json["sections"]["en"][id], &json["sections"]["ko"][id]);
        let en = en.as_str().unwrap_or_else(|| panic!("{id}: {json}"));
        let ko = ko.as_str().unwrap();
        assert!(en.starts_with("/lessons/") && ko.starts_with("/ko/lessons/"), "{en} {ko}");
        let (page, anchor) = ko.split_once('#').unwrap();
        let (_, page) = get_text(&http, &format!("{base}{page}")).await;
        assert!(page.contains(&format!(r#"id="{anchor}""#)), "{id}: {ko} is a Korean heading");
    }
    // The pass earned the exercise, first try, once.
    let kinds: Vec<String> = store
        .events("acct-ada")
        .await
        .unwrap()
        .iter()
        .map(|e| e.action.kind().to_string())
        .collect();
    assert_eq!(kinds, ["exercise", "exercise-first-try"]);

    // A broken script from the terminal client: it follows the grading live and prints the
    // verdict; the exit code says `error`.
    let broken_file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../gpu-runner/exercise/broken/syntax_error.py");
    let out = tokio::task::spawn_blocking({
        let (base, token) = (base.clone(), token.clone());
        move || {
            Command::new(env!("CARGO_BIN_EXE_lockstep"))
                .args(["submit", "--wait", "--json", &format!("--server={base}")])
                .arg(&broken_file)
                .env("LOCKSTEP_TOKEN", token)
                .env("LANG", "ko_KR.UTF-8")
                .output()
                .unwrap()
        }
    })
    .await
    .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "an error verdict: {stderr}");
    // Told by the terminal's locale: the live steps in Korean.
    assert!(stderr.contains("제출함: #"), "{stderr}");
    assert!(stderr.contains("채점 시작: worker test-workers/second"), "live steps: {stderr}");
    let verdict: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["status"], "error");
    assert!(verdict["error"]["message"].as_str().unwrap().contains("SyntaxError"), "{verdict}");
    let error: Verdict = serde_json::from_value(verdict.clone()).unwrap();
    assert!(error.summary_in(Lang::Ko).starts_with("채점할 수 없었습니다: syntax_error.py:"));
    let (_, mine) = call(&http, "GET", &api, Some(&token), None).await;
    let broken = mine[0]["id"].as_i64().unwrap();
    assert_ne!(broken, solution, "newest first");
    let (_, json) = call(&http, "GET", &format!("{api}/{broken}"), Some(&token), None).await;
    assert_eq!(json["verdict"], verdict, "the client printed the stored verdict");
    let (status, _) = call(&http, "GET", &format!("{api}/{broken}"), Some("lsl_wrong"), None).await;
    assert_eq!(status, 404);
    assert_eq!(call(&http, "GET", &format!("{api}/{broken}"), None, None).await.0, 404);
    assert_eq!(
        call(&http, "GET", &format!("{api}/{broken}"), Some(&worker_token), None).await.0,
        404
    );
    let (_, mine) = call(&http, "GET", &api, Some(&token), None).await;
    assert_eq!(mine.as_array().unwrap().len(), 2);
    assert_eq!(store.events("acct-ada").await.unwrap().len(), 2, "a failure takes nothing");
}

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
    let checks: serde_json::Value = serde_json::from_str(&solution.verdict.unwrap()).unwrap();
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

/// Every broken variant through the web path, graded by a worker: each fails exactly the check
/// it fails under `gpu-runner grade` (`gpu-runner/tests/grade.rs`), or is the same `error`.
/// The worker does not time the speedup (so `speedup` is skipped everywhere); `small_batch.py`,
/// which fails only the speedup, is left to the runner's own tests.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_broken_variant_gets_its_verdict_through_the_web() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let tmp = tempfile::tempdir().unwrap();
    let (base, _store, worker_token, token) = start(tmp.path()).await;
    let http: Http = Client::builder(TokioExecutor::new()).build_http();
    let _worker = worker(&base, &worker_token, "held-out", false);
    let expected: &[(&str, &[&str])] = &[
        ("own_world.py", &["launched"]),
        ("manual_allreduce.py", &["ddp_wrapped"]),
        ("no_set_epoch.py", &["sampler_set_epoch"]),
        ("all_ranks_log.py", &["rank0_logging"]),
        ("same_shard.py", &["sampler_sharding"]),
        ("ckpt_every_rank.py", &["checkpoint_rank0_only"]),
        ("ckpt_wrapped.py", &["checkpoint_unwrapped"]),
        ("module_forward.py", &["replicas_in_sync"]),
        ("barrier_rank0.py", &["no_deadlock"]),
        ("syntax_error.py", &[]),
        ("nccl_on_cpu.py", &[]),
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
