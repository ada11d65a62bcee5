//! Hostile values in every field a learner or a worker controls, rendered on every page that
//! shows them: the HTML carries them only escaped, and in Chromium nothing they hold runs.
//!
//! The learner's fields: the email (shown as "Signed in as …", on the account page and to the
//! instructor), a script refused for a NUL byte and one refused for its file name (both kept in
//! the exercise page's editor), the refusal's message naming the file, and the script of a
//! queued submission. The worker's (a worker token is all a grading machine holds): its node
//! name, a live check's message, hint and lesson link, and every free-text field of two
//! verdicts (a failure with checks and runs, and an error). Quizzes take no free text.
//! On SQLite and on the real PostgreSQL server, each with the real server binary.

use crate::common;

use std::path::Path;
use std::time::Duration;

use axum::body::Bytes;
use common::api::{call, http, Http};
use common::*;
use fantoccini::{Client, Locator};
use http_body_util::{BodyExt, Full};
use lockstep_store::{Role, Store, TokenKind};
use serde_json::{json, Value};

/// Markup that runs script in every context it could land in: text, an attribute value in
/// either quotes, a text area, a script, a title.
const PAYLOAD: &str = "\"'></textarea></script></title><script>window.__pwned='script'</script>\
                       <img src=x onerror=\"window.__pwned='img'\"><svg onload=\"window.__pwned='svg'\">";
/// An email the sign-up form accepts (no spaces, an @, a dotted domain) that is markup.
const EMAIL: &str = "\"><img/src=x/onerror=window.__pwned='email'>@evil.example.org";
const LINK: &str = "javascript:window.__pwned='link'";
const PASSWORD: &str = "gradient buckets overlap";

/// What must never appear in a page: the payloads' markup, unescaped, and a script link.
const MARKUP: &[&str] = &[
    "<script>window.__pwned",
    "<img src=x onerror",
    "<img/src=x/onerror",
    "<svg onload",
    "href=\"javascript:",
    "</textarea></script>",
];

fn assert_escaped(page: &str, what: &str) {
    for markup in MARKUP {
        assert!(!page.contains(markup), "{what} carries `{markup}` unescaped");
    }
}

/// A request of the signed-in learner's browser session, made outside the browser.
async fn as_learner(
    http: &Http,
    method: &str,
    url: &str,
    session: &str,
    form: Option<Vec<(&str, &str)>>,
) -> (u16, String) {
    let mut req = axum::http::Request::builder()
        .method(method)
        .uri(url)
        .header("cookie", format!("lockstep_session={session}"))
        .header("sec-fetch-site", "same-origin");
    let body = match form {
        Some(form) => {
            req = req.header("content-type", "application/x-www-form-urlencoded");
            form_urlencoded::Serializer::new(String::new()).extend_pairs(form).finish()
        }
        None => String::new(),
    };
    let res = http.request(req.body(Full::new(Bytes::from(body))).unwrap()).await.unwrap();
    let status = res.status().as_u16();
    let location = res.headers().get("location").map(|l| l.to_str().unwrap().to_string());
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, location.unwrap_or_else(|| String::from_utf8_lossy(&body).into_owned()))
}

/// Refuses a script as the exercise form would be refused: the script comes back in the page's
/// editor (hole 1 of the attack suite: it was written into the `<textarea>` unescaped).
async fn refuse(http: &Http, base: &str, session: &str, script: &str, file_name: &str) {
    let form = vec![("exercise", "ddp-conversion"), ("file_name", file_name), ("script", script)];
    let (status, to) =
        as_learner(http, "POST", &format!("{base}/api/submissions"), session, Some(form)).await;
    assert_eq!((status, to.as_str()), (303, "/exercises/ddp-conversion"));
}

/// Every string of a verdict a worker could write, but the enums, replaced by the payload, and
/// the lesson of every check's section by a script link.
fn hostile(value: &mut Value, key: &str) {
    match value {
        Value::String(s) if !matches!(key, "status" | "id" | "role") => {
            *s = if key == "lesson" { LINK.to_string() } else { PAYLOAD.to_string() }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| hostile(v, key)),
        Value::Object(fields) => fields.iter_mut().for_each(|(k, v)| hostile(v, k)),
        _ => {}
    }
}

fn verdict(file: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../gpu-runner/protocol/tests/verdicts")
        .join(file);
    // As workers write verdicts now: each check's section by ids, not the URL these carry.
    let text = std::fs::read_to_string(path).unwrap();
    let read: grading_protocol::Verdict = serde_json::from_str(&text).unwrap();
    let mut v = serde_json::to_value(read).unwrap();
    hostile(&mut v, "");
    if let Some(check) = v["checks"].as_array_mut().and_then(|c| c.first_mut()) {
        // A failed check shows its hint and its lesson link.
        check["status"] = json!("fail");
    }
    v
}

/// A malicious grading machine: claims the next job naming itself and its node with markup,
/// reports a check with a script link, and hands in `verdict`.
async fn grade_as_hostile_worker(http: &Http, base: &str, token: &str, verdict: Value) -> i64 {
    let claim = json!({ "worker": PAYLOAD, "node": PAYLOAD });
    let (status, job) =
        call(http, "POST", &format!("{base}/api/worker/claim"), Some(token), Some(claim)).await;
    assert_eq!(status, 200, "{job}");
    let (id, lease) = (job["job"].as_i64().unwrap(), job["lease"].as_str().unwrap().to_string());
    let check = json!({ "kind": "check", "check": {
        "id": "sampler_sharding", "status": "fail", "required": true, "message": PAYLOAD,
        "hint": PAYLOAD, "section": { "lesson": LINK, "heading": PAYLOAD },
    }});
    let report = json!({ "lease": lease, "event": check });
    let url = format!("{base}/api/worker/jobs/{id}/events");
    let (status, answer) = call(http, "POST", &url, Some(token), Some(report)).await;
    assert_eq!(status, 204, "the check event is taken: {answer}");
    let finish = json!({ "lease": lease, "verdict": verdict });
    let url = format!("{base}/api/worker/jobs/{id}/verdict");
    let (status, answer) = call(http, "POST", &url, Some(token), Some(finish)).await;
    assert_eq!(status, 204, "the verdict is taken: {answer}");
    job["submission"].as_i64().unwrap()
}

/// Loads `path` in the browser and checks that nothing the page holds ran.
async fn nothing_runs(c: &Client, base: &str, path: &str) {
    c.goto(&format!("{base}{path}")).await.unwrap();
    wait_for_hydration(c, path).await;
    // An `onerror` fires once the image has failed to load: give it the time.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pwned = c.execute("return window.__pwned === undefined ? null : window.__pwned", vec![]);
    assert_eq!(pwned.await.unwrap(), Value::Null, "{path}: a hostile value ran");
    let links = c.find_all(Locator::Css("a[href^='javascript:' i]")).await.unwrap();
    assert!(links.is_empty(), "{path}: a script link");
}

async fn every_page(url: &str, tmp: &Path) {
    let port = free_port();
    let _server = server_process(&site_root(), url, port).await;
    let base = format!("http://127.0.0.1:{port}");
    let http = http();
    let store = Store::connect(url).await.unwrap();

    // The learner signs up with an email that is markup, posting the form from the site's
    // page with `fetch`: Chromium's own form, a `type=email` field, refuses the address, and
    // an attacker posts the form as they like.
    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &tmp.join("profile"), &[]).await;
    c.goto(&base).await.unwrap();
    let form = [("email", EMAIL), ("password", PASSWORD)];
    let body = form_urlencoded::Serializer::new(String::new()).extend_pairs(form).finish();
    let post = "return fetch('/account/sign-up', {method: 'POST', body: arguments[0], \
                headers: {'content-type': 'application/x-www-form-urlencoded'}, \
                redirect: 'manual'}).then(r => r.type)";
    assert_eq!(c.execute(post, vec![json!(body)]).await.unwrap(), json!("opaqueredirect"));
    let session = c.get_named_cookie("lockstep_session").await.unwrap().value().to_string();
    // The first page after it shows the sign-up notice, which names the email.
    nothing_runs(&c, &base, "/").await;
    let page = text(&c, "main").await.unwrap_or_default();
    assert!(page.contains(&format!("Signed in as {EMAIL}")), "the email shown as text: {page}");

    // Two submissions, each graded by a hostile worker.
    let worker = "lsw_hostile-worker-token";
    let hash = lockstep_rules::tokens::hash(worker);
    assert!(store.create_token(TokenKind::Worker, "hostile", None, &hash, 0).await.unwrap());
    let mut submissions = Vec::new();
    for file in ["module_forward.json", "syntax_error.json"] {
        let form =
            vec![("exercise", "ddp-conversion"), ("file_name", "train.py"), ("script", PAYLOAD)];
        let (status, to) =
            as_learner(&http, "POST", &format!("{base}/api/submissions"), &session, Some(form))
                .await;
        assert_eq!(status, 303, "{to}");
        let graded = grade_as_hostile_worker(&http, &base, worker, verdict(file)).await;
        assert_eq!(to, format!("/submissions/{graded}"));
        submissions.push(to);
    }
    // The learner is also the instructor, who sees every learner's email and submission.
    assert!(store.set_role(&EMAIL.to_lowercase(), Role::Instructor).await.unwrap());

    let mut pages: Vec<String> =
        ["/", "/lessons/why-distributed", "/account", "/xp", "/instructor"]
            .map(String::from)
            .into();
    pages.extend(submissions.iter().cloned());

    // The HTML: every value escaped, and there (a page that dropped it would pass vacuously).
    for path in &pages {
        let (status, page) =
            as_learner(&http, "GET", &format!("{base}{path}"), &session, None).await;
        assert_eq!(status, 200, "{path}");
        assert_escaped(&page, path);
    }
    let shown = |path: &str, page: &str, escaped: &str| {
        assert!(page.contains(escaped), "{path} does not show `{escaped}`");
    };
    let escaped_email = "&lt;img/src=x/onerror=window.__pwned=&#x27;email&#x27;&gt;";
    let escaped_payload = "&lt;script&gt;window.__pwned=";
    for path in ["/account", "/instructor"] {
        let (_, page) = as_learner(&http, "GET", &format!("{base}{path}"), &session, None).await;
        shown(path, &page, escaped_email.split("&#x27;").next().unwrap());
    }
    for path in &submissions {
        let (_, page) = as_learner(&http, "GET", &format!("{base}{path}"), &session, None).await;
        shown(path, &page, escaped_payload);
    }
    let exercise = format!("{base}/exercises/ddp-conversion");
    let refusals = [
        (format!("{PAYLOAD}\0"), "train.py", "a NUL byte"),
        (PAYLOAD.to_string(), "</textarea><script>window.__pwned=1</script>.py", "a file name"),
    ];
    for (script, file_name, why) in &refusals {
        refuse(&http, &base, &session, script, file_name).await;
        let (_, page) = as_learner(&http, "GET", &exercise, &session, None).await;
        assert_escaped(&page, &format!("the exercise page after a refusal for {why}"));
        shown("/exercises/ddp-conversion", &page, "&lt;/textarea&gt;&lt;/script&gt;");
    }

    // Chromium: nothing runs on any page; the refused script is back in the editor, as text.
    for path in &pages {
        nothing_runs(&c, &base, path).await;
    }
    for (script, file_name, why) in &refusals {
        refuse(&http, &base, &session, script, file_name).await;
        nothing_runs(&c, &base, "/exercises/ddp-conversion").await;
        let kept = c.execute("return document.getElementById('script').value", vec![]);
        let kept = kept.await.unwrap();
        let kept = kept.as_str().unwrap();
        // HTML reads a NUL in text as U+FFFD; the rest comes back exactly.
        let expected = script.replace('\0', "\u{fffd}");
        assert_eq!(kept, expected, "the script refused for {why} is kept as text");
        let error = text(&c, "[data-role=form-error]").await.unwrap();
        assert!(!error.is_empty(), "the refusal says why ({why})");
    }
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_values_are_escaped_everywhere_on_sqlite() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", tmp.path().join("db.sqlite3").display());
    every_page(&url, tmp.path()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_values_are_escaped_everywhere_on_postgres() {
    let tmp = tempfile::tempdir().unwrap();
    let url = in_process::postgres_database("hostile").await;
    every_page(&url, tmp.path()).await;
}
