//! Not a check but a record: every page of the site as a visitor, a learner and an instructor
//! get it, in each language, with a passed and a failed verdict, written under the folder
//! `LOCKSTEP_CAPTURE` names, so that two versions of the app can be compared page by page:
//!
//! ```text
//! LOCKSTEP_CAPTURE=/tmp/before cargo test --test http capture -- --ignored
//! # … change the app …
//! LOCKSTEP_CAPTURE=/tmp/after cargo test --test http capture -- --ignored
//! diff -r /tmp/before /tmp/after
//! ```
//!
//! What differs between two runs of one version (nonces, times) is written as a fixed word,
//! and each page's elements are sorted (a learner's quiz options come in an order drawn from
//! their random id), so the diff shows only what the change changed, though not a change of
//! order alone.

use crate::common;

use common::in_process::*;
use lockstep_store::{Role, Store};

#[tokio::test]
#[ignore = "writes pages for comparing two versions; run with --ignored and LOCKSTEP_CAPTURE"]
async fn capture() {
    let Some(out) = std::env::var_os("LOCKSTEP_CAPTURE") else {
        panic!("LOCKSTEP_CAPTURE names the folder the pages go to");
    };
    let out = std::path::PathBuf::from(out);
    std::fs::create_dir_all(&out).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("db.sqlite3").display());
    let app = app_on(&course_dir(), &url, dir).await;
    let store = Store::connect(&url).await.unwrap();

    // A learner with progress, a comment and two graded submissions; an instructor.
    let mut learner = signed_up(&app, "ada@example.org").await;
    let answers = learner.dataparallel_quiz(&app, common::DATAPARALLEL_RIGHT).await;
    learner.post(&app, "/lessons/dataparallel/quizzes/0", &pairs(&answers)).await;
    let body = "Why does `DistributedSampler` need `set_epoch`?";
    let place = "lesson:distributed-sampler";
    learner.post(&app, "/comments", &[("place", place), ("parent", ""), ("body", body)]).await;
    let mut submissions = Vec::new();
    for (verdict, status) in [
        ("solution.json", grading_protocol::Status::Pass),
        ("module_forward.json", grading_protocol::Status::Fail),
    ] {
        let form = [("exercise", "ddp-conversion"), ("script", "import torch\n")];
        let posted = learner.post(&app, "/api/submissions", &form).await;
        let to = posted.headers[axum::http::header::LOCATION].to_str().unwrap().to_string();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../gpu-runner/protocol/tests/verdicts")
            .join(verdict);
        let text = std::fs::read_to_string(path).unwrap();
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
        let now = now.as_millis() as i64;
        let exercises = ["ddp-conversion"];
        let job = store.claim("capture", None, &exercises, "lease", 60_000, now).await.unwrap();
        let job = job.expect("the submission is queued");
        store.finish(job.job, "lease", status, "graded", &text, now).await.unwrap().unwrap();
        submissions.push(to);
    }
    signed_up(&app, "ian@example.org").await;
    store.set_role("ian@example.org", Role::Instructor).await.unwrap();
    // A role granted from outside reaches pages within the accounts' kept reads.
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    let mut instructor = Jar::default();
    let sign_in = [("email", "ian@example.org"), ("password", PASSWORD)];
    instructor.submit(&app, "/account/sign-in", &sign_in).await;

    let request = axum::http::Request::get("/sitemap.xml").header("host", "capture.test");
    let sitemap = send(&app, request.body(axum::body::Body::empty()).unwrap()).await.body;
    let mut paths: Vec<String> = sitemap
        .split("<loc>")
        .skip(1)
        .filter_map(|s| s.split("</loc>").next())
        .filter_map(|loc| loc.strip_prefix("http://capture.test"))
        .map(str::to_string)
        .collect();
    for path in [
        "/xp",
        "/account",
        "/notifications",
        "/instructor",
        "/search?q=allreduce",
        "/search?q=qqqq",
        "/exercises/ddp-conversion",
        "/exercises/survive-a-crash",
        "/no-such-page",
    ]
    .into_iter()
    .map(str::to_string)
    .chain(submissions)
    {
        paths.push(lockstep_routes::Lang::Ko.path(&path));
        paths.push(path);
    }
    assert!(paths.len() > 40, "the sitemap names the lessons: {sitemap}");
    paths.sort();
    paths.dedup();
    let mut visitor = Jar::default();
    for (who, jar) in
        [("visitor", &mut visitor), ("learner", &mut learner), ("instructor", &mut instructor)]
    {
        for path in &paths {
            let page = jar.get(&app, path).await;
            let name = format!("{who}{}", path.replace(['/', '?', '=', '&'], "_"));
            let text = format!("{}\n{}", page.status, steady(&page.body));
            std::fs::write(out.join(name), text).unwrap();
        }
    }
}

/// `html` with what differs between two runs of one version written as a fixed word.
fn steady(html: &str) -> String {
    let mut text = html.to_string();
    for (before, end, word) in [
        ("nonce=\"", "\"", "NONCE"),
        ("crossorigin=\"", "\"", "NONCE"),
        ("name=\"csrf\" value=\"", "\"", "CSRF"),
        ("<time ", "</time>", "TIME"),
        ("\"when\":{", "}", "TIME"),
        ("\\\"when\\\":{", "}", "TIME"),
        ("\"created_at\":", ",", "TIME"),
        ("data-saved-ms=\"", "\"", "TIME"),
        // The learner's quizzes list their options in the learner's order: their reviews as
        // the page draws them are compared, as sorted elements, below.
        ("quizzes&quot;:[", "\"", "QUIZZES"),
        ("\\\"quizzes\\\":[", "\";", "QUIZZES"),
        ("\\\"saved_ms\\\":", "}", "TIME"),
        ("\\\"created_at\\\":", ",", "TIME"),
    ] {
        text = replace_between(&text, before, end, word);
    }
    // A line per element, for a diff to read; sorted, since each learner gets a quiz's options
    // in an order of their own (drawn from their random id).
    let mut lines: Vec<String> = text.split("><").map(without_position).collect();
    lines.sort_unstable();
    lines.join(">\n<")
}

/// A quiz option's input without its position (`value`), which the learner's order decides.
fn without_position(element: &str) -> String {
    if element.starts_with("input type=\"radio\"") || element.starts_with("input type=\"checkbox\"")
    {
        replace_between(element, "value=\"", "\"", "N")
    } else {
        element.to_string()
    }
}

fn replace_between(text: &str, before: &str, end: &str, word: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(before) {
        let (head, tail) = rest.split_at(at + before.len());
        out.push_str(head);
        match tail.find(end) {
            Some(stop) => {
                out.push_str(word);
                rest = &tail[stop..];
            }
            None => {
                rest = tail;
                break;
            }
        }
    }
    out.push_str(rest);
    out
}
