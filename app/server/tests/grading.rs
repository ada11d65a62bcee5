//! Grading through the queue, for real: the server on a socket, `gpu-runner worker` processes
//! claiming over HTTP with a worker token, real torch (gloo, 2 processes) in the sandbox, and a
//! learner's terminal token. The reference solution passes and earns the exercise's XP once; a
//! broken script gets its verdict; the live events arrive as server-sent events and replay from
//! `Last-Event-ID`; a worker killed with SIGKILL mid-grade loses its lease and another worker
//! completes the job, with exactly one verdict stored.
//!
//! The solution's grading times the speedup, as a grading machine does, so `cargo xtask test`
//! runs this binary alone on the machine. The queue's gradings that time nothing are in
//! `grading_untimed.rs`.
//!
//! Needs the `gpu-runner` binary beside this test's (`cargo test --workspace` builds it; `cargo
//! xtask test` does) and the set-up's Python environment.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::api::*;
use grading_protocol::{CheckId, Verdict};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use lockstep_routes::Lang;
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graded_live_by_real_workers_and_a_killed_worker_loses_nothing() {
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
    let broken_file = exercise_file("broken/syntax_error.py");
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
