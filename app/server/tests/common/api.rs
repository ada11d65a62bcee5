//! The grading API over a socket, for the tests that grade for real: the server with short
//! leases and a worker token, `gpu-runner worker` processes, a learner's terminal token, and
//! reading a submission's server-sent events.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use lockstep_server::{build_state, router, Config};
use lockstep_store::{Store, TokenKind};
use serde_json::Value;

pub type Http = Client<hyper_util::client::legacy::connect::HttpConnector, Full<Bytes>>;

/// A binary built beside this test's (`cargo test --workspace` builds them; `cargo xtask
/// test` does).
pub fn sibling_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let bin = exe.parent().unwrap().parent().unwrap().join(name);
    assert!(
        bin.exists(),
        "{} is missing: build it first (`cargo build --workspace`; `cargo xtask test` does)",
        bin.display()
    );
    bin
}

pub fn gpu_runner() -> PathBuf {
    sibling_binary("gpu-runner")
}

/// A script of an exercise's folder in the course: `solution.py` and `broken/<name>.py` of
/// `ddp-conversion`, `crash/…` of `survive-a-crash` (a wrong answer is its patch applied to the
/// solution).
pub fn exercise(name: &str) -> String {
    let (id, name) = match name.strip_prefix("crash/") {
        Some(name) => ("survive-a-crash", name),
        None => ("ddp-conversion", name),
    };
    let name = name.strip_prefix("broken/").unwrap_or(name);
    exercise_spec::script(&exercise_dir(id), name).unwrap_or_else(|e| panic!("{id} {name}: {e}"))
}

/// Exercise `id`'s folder in the course.
pub fn exercise_dir(id: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons/ddp/exercises").join(id)
}

/// [`exercise`], written as a file (the grader and the terminal client name a script by its
/// file) under the test binary's temporary folder.
pub fn exercise_file(name: &str) -> PathBuf {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("exercises");
    let name = name.strip_prefix("broken/").unwrap_or(name);
    exercise_spec::write_script(&exercise_dir("ddp-conversion"), name, &out)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

pub struct Worker(pub Child);

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A worker; `timed`: it times the speedup, as a real grading machine does, against a low
/// threshold. These tests are about the queue, the events and the XP a pass earns, and a CI
/// machine shared with other jobs can halve a 2-process run's speed with nothing on it to
/// show: the threshold itself is the runner's tests' subject (`gpu-runner/tests/grade.rs`).
pub fn worker(base: &str, token: &str, name: &str, timed: bool) -> Worker {
    let mut cmd = Command::new(gpu_runner());
    cmd.args(["worker", "--server", base, "--name", name, "--poll=0.2"]);
    // Timed once: what these tests time is that the web path carries a timed speedup, not
    // how steady it is (`gpu-runner`'s `grade` tests time that alone).
    if timed {
        cmd.args(["--min-speedup=0.25", "--repeats=1"]);
    } else {
        cmd.arg("--skip-speedup");
    }
    Worker(cmd.env("LOCKSTEP_WORKER_TOKEN", token).spawn().unwrap())
}

/// A worker token called `name`, made as an operator makes one: `lockstep admin worker-token
/// create` against the database.
pub fn worker_token(database_url: &str, name: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(["admin", "worker-token", "create", name])
        .env("DATABASE_URL", database_url)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert!(token.starts_with("lsw_"), "{token}");
    token
}

/// The server on a free port with short leases, its store, and tokens for a worker and a
/// learner.
pub async fn start(db: &Path) -> (String, Store, String, String) {
    let url = format!("sqlite://{}?mode=rwc", db.join("db.sqlite3").display());
    let mut config = Config::local(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons"),
        db.join("site"), // no browser here: pages are not what this test reads
        url.clone(),
    );
    config.lease_seconds = 3;
    let state = build_state(&config).await.unwrap();
    state.spawn_reaper();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { lockstep_server::serve(listener, router(state)).await.unwrap() });

    let worker_token = worker_token(&url, "test-workers");

    let store = Store::connect(&url).await.unwrap();
    store.create_account("ada@example.org", "not-a-real-hash", "acct-ada", 0).await.unwrap();
    let learner_token = "lsl_test-token-of-ada";
    let hash = lockstep_rules::tokens::hash(learner_token);
    assert!(store
        .create_token(TokenKind::Learner, "cli", Some("acct-ada"), &hash, 0)
        .await
        .unwrap());
    (base, store, worker_token, learner_token.to_string())
}

pub async fn call(
    http: &Http,
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut req = axum::http::Request::builder().method(method).uri(url);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let body = match body {
        Some(v) => {
            req = req.header("content-type", "application/json");
            Full::new(Bytes::from(v.to_string()))
        }
        None => Full::new(Bytes::new()),
    };
    let res = http.request(req.body(body).unwrap()).await.unwrap();
    let status = res.status().as_u16();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// A page's status and text.
pub async fn get_text(http: &Http, url: &str) -> (u16, String) {
    let req = axum::http::Request::builder().uri(url).body(Full::new(Bytes::new())).unwrap();
    let res = http.request(req).await.unwrap();
    let status = res.status().as_u16();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, super::without_markers(&String::from_utf8_lossy(&bytes)))
}

/// Reads the submission's server-sent events until the stream ends: (id, event name, data).
pub async fn sse(
    http: &Http,
    url: &str,
    token: &str,
    last: Option<&str>,
) -> Vec<(String, String, Value)> {
    let mut req = axum::http::Request::get(url).header("authorization", format!("Bearer {token}"));
    if let Some(last) = last {
        req = req.header("last-event-id", last);
    }
    let res = http.request(req.body(Full::new(Bytes::new())).unwrap()).await.unwrap();
    if res.status() == 204 {
        return Vec::new();
    }
    assert_eq!(res.headers()["content-type"], "text/event-stream");
    let mut body = res.into_body();
    let mut text = String::new();
    let deadline = Instant::now() + Duration::from_secs(600);
    while let Some(frame) = tokio::time::timeout_at(deadline.into(), body.frame()).await.unwrap() {
        if let Ok(data) = frame.unwrap().into_data() {
            text.push_str(std::str::from_utf8(&data).unwrap());
        }
    }
    text.split("\n\n")
        .filter_map(|block| {
            let field = |name: &str| {
                block.lines().find_map(|l| l.strip_prefix(name)).map(|v| v.trim().to_string())
            };
            Some((field("id:")?, field("event:")?, serde_json::from_str(&field("data:")?).ok()?))
        })
        .collect()
}

pub async fn submit(http: &Http, base: &str, token: &str, script: &str) -> i64 {
    submit_to(http, base, token, "ddp-conversion", script).await
}

/// A submission of `script` to the exercise `exercise`, accepted.
pub async fn submit_to(http: &Http, base: &str, token: &str, exercise: &str, script: &str) -> i64 {
    let body = serde_json::json!({ "exercise": exercise, "script": script });
    let (status, json) =
        call(http, "POST", &format!("{base}/api/submissions"), Some(token), Some(body)).await;
    assert_eq!(status, 201, "{json}");
    json["id"].as_i64().unwrap()
}

pub fn http() -> Http {
    Client::builder(TokioExecutor::new()).build_http()
}
