//! The exercise and submission pages without JavaScript, through the router: a form post
//! queues a script and lands on its page, which refreshes itself until the verdict; a refused
//! script comes back with its reason and the script kept; nobody reads another learner's
//! submission; a terminal token is made on the account page. On SQLite and PostgreSQL. (The
//! grading itself, by real workers and torch, is `grading.rs`.)

use crate::common;

use axum::http::StatusCode;
use common::in_process::*;
use lockstep_store::Store;

const EXERCISE: &str = "/exercises/ddp-conversion";

async fn pages(app: &App, store: &Store) {
    // Anyone can read the exercise; only accounts submit.
    let mut anonymous = Jar::default();
    let page = anonymous.get(app, EXERCISE).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("single_gpu_train.py"), "the starting script's file name");
    assert!(page.body.contains("torch.manual_seed(0)"), "the starting script");
    assert!(page.body.contains(r#"data-role="sign-in-to-submit""#));
    assert!(!page.body.contains(r#"data-role="submit""#));
    let refused = anonymous
        .post(app, "/api/submissions", &[("exercise", "ddp-conversion"), ("script", "print(1)")])
        .await;
    assert!(refused.status.is_redirection());
    assert_eq!(anonymous.get(app, "/exercises/nope").await.status, StatusCode::NOT_FOUND);
    // Each exercise page: its own title and task as its lesson sets them, the checks its
    // grader runs, and the way back to the section.
    for (id, title, task, section, checks) in [
        (
            "ddp-conversion",
            "Exercise: convert a single-GPU script",
            "Convert the script below to DDP",
            "/lessons/checkpoints-and-pitfalls#exercise-convert-a-single-gpu-script",
            10,
        ),
        (
            "survive-a-crash",
            "Exercise: make training survive a crash",
            "Add snapshot-and-resume, so that a rank killed",
            "/lessons/fault-tolerance#exercise-make-training-survive-a-crash",
            5,
        ),
    ] {
        let page = anonymous.get(app, &format!("/exercises/{id}")).await;
        let b = &page.body;
        assert!(b.contains(&format!("<h1>{title}</h1>")), "{id}: its title");
        assert!(b.contains(task), "{id}: its task");
        assert!(!b.contains("Convert the script to DDP"), "{id}: not another exercise's task");
        assert!(b.contains(&format!(r#"href="{section}" data-role="section""#)), "{id}: link back");
        let listed =
            b.split(r#"data-role="checks""#).nth(1).unwrap().split("</ol>").next().unwrap();
        assert_eq!(listed.matches("<li>").count(), checks, "{id}: its checks");
    }
    let crash = anonymous.get(app, "/exercises/survive-a-crash").await.body;
    assert!(crash.contains("Resumed from the snapshot"), "a check by its name");
    let lesson = anonymous.get(app, "/lessons/checkpoints-and-pitfalls").await;
    assert!(lesson.body.contains(r#"href="/exercises/ddp-conversion""#), "the lesson links it");

    // A refused script: the reason, the script kept, nothing queued.
    let mut ada = signed_up(app, "ada@example.org").await;
    let page = ada.get(app, EXERCISE).await;
    assert!(page.body.contains(r#"data-role="submit""#));
    let kept = "print(42)  # my work so far";
    let form = [("exercise", "ddp-conversion"), ("file_name", "../train.py"), ("script", kept)];
    let back = ada.submit(app, "/api/submissions", &form).await;
    assert!(back.body.contains("should be a plain name ending in .py"), "{}", back.body);
    assert!(back.body.contains(kept), "the refused script is back in the editor");
    let back = ada
        .submit(app, "/api/submissions", &[("exercise", "ddp-conversion"), ("script", "x\u{0}y")])
        .await;
    assert!(back.body.contains("binary file"), "{}", back.body);
    assert_eq!(store.queue_depth(0).await.unwrap().0, 0);

    // A good one: queued, and its page says so and refreshes itself.
    let page = ada
        .submit(
            app,
            "/api/submissions",
            &[("exercise", "ddp-conversion"), ("file_name", "train.py"), ("script", "print(1)\n")],
        )
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Waiting for a grading machine: yours is next."), "{}", page.body);
    assert!(
        page.body.contains(r#"<noscript><meta http-equiv="refresh""#),
        "reloads itself without JavaScript"
    );
    assert!(page.body.contains(r#"data-role="cancel""#), "still queued: it can be cancelled");
    let (depth, _) = store.queue_depth(i64::MAX / 2).await.unwrap();
    assert_eq!(depth, 1);
    let id = store.recent_submissions(1).await.unwrap()[0].id;
    let url = format!("/submissions/{id}");
    let exercise = ada.get(app, EXERCISE).await;
    assert!(exercise.body.contains(&format!(r#"href="{url}""#)), "listed on the exercise page");
    drafts(app, &mut ada, &page.body, id).await;

    // Nobody else reads it: another learner, or no one.
    let mut bob = signed_up(app, "bob@example.org").await;
    assert_eq!(bob.get(app, &url).await.status, StatusCode::NOT_FOUND);
    assert_eq!(anonymous.get(app, &url).await.status, StatusCode::NOT_FOUND);
    let api = format!("/api{url}");
    assert_eq!(bob.get(app, &api).await.status, StatusCode::NOT_FOUND);
    assert_eq!(bob.post(app, &format!("{api}/cancel"), &[]).await.status, StatusCode::NOT_FOUND);

    // Its learner cancels it.
    let cancelled = ada.submit(app, &format!("{api}/cancel"), &[]).await;
    assert!(cancelled.body.contains("Cancelled before grading."), "{}", cancelled.body);
    assert!(!cancelled.body.contains("refresh"), "done: no more reloading");

    // An instructor reads every learner's submissions and can grade one again.
    let mut teacher = signed_up(app, "teacher@example.org").await;
    assert_eq!(teacher.get(app, &url).await.status, StatusCode::NOT_FOUND, "not yet an instructor");
    store.set_role("teacher@example.org", lockstep_store::Role::Instructor).await.unwrap();
    let listed = teacher.get(app, "/instructor").await;
    assert!(listed.body.contains(&format!(r#"href="{url}""#)), "{}", listed.body);
    let page = teacher.get(app, &url).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(r#"data-role="rerun""#));
    assert_eq!(ada.post(app, &format!("{api}/rerun"), &[]).await.status, StatusCode::FORBIDDEN);
    let again = teacher.submit(app, &format!("{api}/rerun"), &[]).await;
    assert!(again.body.contains("Waiting for a grading machine"), "{}", again.body);

    // Submissions are limited per learner: the 21st in an hour is refused, saying why.
    let mut carl = signed_up(app, "carl@example.org").await;
    let script = [("exercise", "ddp-conversion"), ("script", "print(1)\n")];
    for _ in 0..20 {
        let queued = carl.post(app, "/api/submissions", &script).await;
        assert!(queued.headers["location"].to_str().unwrap().starts_with("/submissions/"));
    }
    let refused = carl.submit(app, "/api/submissions", &script).await;
    assert!(refused.body.contains("in the last hour"), "{}", refused.body);

    // A terminal token, shown once.
    let account = ada.submit(app, "/account/token", &[]).await;
    let token = account.body.split(r#"data-role="new-token">"#).nth(1).expect("the token");
    let token = token.split('<').next().unwrap();
    assert!(token.starts_with("lsl_"), "{token}");
    assert!(!ada.get(app, "/account").await.body.contains(token), "shown only once");

    // Without JavaScript the chosen file travels in the multipart form and replaces what the
    // text area holds; a good file name comes with it.
    let fields = [
        ("exercise", "ddp-conversion"),
        ("file_name", "single_gpu_train.py"),
        ("script", "print('typed')\n"),
    ];
    let uploaded = "import torch\nprint('uploaded')\n";
    let page =
        bob.submit_multipart(app, "/api/submissions", &fields, ("my_ddp.py", uploaded.as_bytes()));
    assert!(page.await.body.contains("Waiting for a grading machine"));
    let queued = &store.recent_submissions(1).await.unwrap()[0];
    let stored = store.submission(queued.id).await.unwrap().unwrap();
    assert_eq!((stored.script.as_str(), stored.file_name.as_str()), (uploaded, "my_ddp.py"));
    // A file that is not UTF-8: the reason, the typed script kept, nothing queued.
    let latin1 = b"print('caf\xe9')\n";
    let back = bob.submit_multipart(app, "/api/submissions", &fields, ("cafe.py", latin1)).await;
    assert!(back.body.contains("cafe.py is not UTF-8 text"), "{}", back.body);
    assert!(back.body.contains("print(&#x27;typed&#x27;)") || back.body.contains("print('typed')"));
    assert_eq!(store.recent_submissions(1).await.unwrap()[0].id, queued.id, "nothing queued");

    // Operators: a health check, and metrics for a worker token only.
    let health = anonymous.get(app, "/healthz").await;
    assert_eq!((health.status, health.body.as_str()), (StatusCode::OK, "ok\n"));
    assert_eq!(anonymous.get(app, "/metrics").await.status, StatusCode::UNAUTHORIZED);
    let token = "lsw_metrics-scraper";
    let hash = lockstep_rules::tokens::hash(token);
    store
        .create_token(lockstep_store::TokenKind::Worker, "prometheus", None, &hash, 0)
        .await
        .unwrap();
    let req = axum::http::Request::get("/metrics")
        .header("authorization", format!("Bearer {token}"))
        .body(axum::body::Body::empty())
        .unwrap();
    let metrics = send(app, req).await;
    assert_eq!(metrics.status, StatusCode::OK);
    let (queued, _) = store.queue_depth(lockstep_clock::now_ms()).await.unwrap();
    assert!(queued > 0);
    let depth = format!("lockstep_queue_depth {queued}");
    assert!(metrics.body.lines().any(|l| l == depth), "{}", metrics.body);
    assert!(metrics.body.contains("lockstep_grades_total{verdict=\"pass\"} 0"));
}

/// The learner's work is never lost: the editor opens on what they last submitted or typed,
/// on any device; a submission's page shows the script graded, numbered, with a way back to
/// edit it. `page`: submission `id`'s page, `print(1)` submitted as `train.py`.
async fn drafts(app: &App, ada: &mut Jar, page: &str, id: i64) {
    let editor = |body: &str| {
        let start = body.find(r#"<textarea id="script""#).expect("the editor");
        body[start..].split('>').nth(1).unwrap().split("</textarea").next().unwrap().to_string()
    };
    // The graded script, numbered; its learner may take it back to the editor.
    assert!(page.contains(r#"data-role="graded-script""#), "{page}");
    assert!(page.contains(r#"id="L1""#) && page.contains(r#"<span class="hl-b">print</span>"#));
    let resubmit = format!("/exercises/ddp-conversion?from={id}");
    assert!(page.contains(&format!(r#"href="{resubmit}" data-role="resubmit""#)), "{page}");
    let back = ada.get(app, &resubmit).await.body;
    assert_eq!(editor(&back), "print(1)\n");
    assert!(back.contains(&format!("The script of submission #{id}")));
    // What was submitted is the draft.
    let body = ada.get(app, EXERCISE).await.body;
    assert_eq!(editor(&body), "print(1)\n");
    assert!(body.contains("Your latest draft"));
    assert!(
        body.contains(r#"data-autosave="/api/drafts""#),
        "an account's editor saves as it goes"
    );
    // The editor's saves: kept for the account, for exercises that exist, within the limit.
    let typed = "import torch  # </textarea><script>alert(1)</script>\n";
    let saved = ada
        .post_json(
            app,
            "/api/drafts",
            &serde_json::json!({"exercise": "ddp-conversion", "script": typed}),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    let saved_ms = serde_json::from_str::<serde_json::Value>(&saved.body).unwrap()["saved_ms"]
        .as_i64()
        .unwrap();
    let body = ada.get(app, EXERCISE).await.body;
    assert!(!body.contains("</textarea><script>"), "escaped in the editor");
    assert!(body.contains("# &lt;/textarea&gt;&lt;script&gt;alert(1)"), "{}", editor(&body));
    assert!(body.contains(&format!(r#"data-saved-ms="{saved_ms}""#)));
    for (json, status) in [
        (serde_json::json!({"exercise": "no-such", "script": "x"}), StatusCode::NOT_FOUND),
        (
            serde_json::json!({"exercise": "ddp-conversion", "script": "x".repeat(300 * 1024)}),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (
            serde_json::json!({"exercise": "ddp-conversion", "script": "x", "file_name": "../x.py"}),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        assert_eq!(ada.post_json(app, "/api/drafts", &json).await.status, status, "{json:.80}");
    }
    let mut nobody = Jar::default();
    let draft = serde_json::json!({"exercise": "ddp-conversion", "script": "x"});
    assert_eq!(nobody.post_json(app, "/api/drafts", &draft).await.status, StatusCode::UNAUTHORIZED);
    // Starting over shows the lesson's script, and says so.
    let fresh = ada.get(app, "/exercises/ddp-conversion?from=start").await.body;
    assert!(editor(&fresh).contains("torch.manual_seed(0)"));
    assert!(
        fresh.contains("The lesson&#x27;s starting script")
            || fresh.contains("The lesson's starting script")
    );
    // Someone else's submission, or a made-up one, opens on the starting script.
    let mut eve = signed_up(app, "eve@example.org").await;
    for from in [id.to_string(), "999999".into(), "x".into()] {
        let theirs = eve.get(app, &format!("/exercises/ddp-conversion?from={from}")).await.body;
        assert!(editor(&theirs).contains("torch.manual_seed(0)"), "from={from}");
        assert!(!theirs.contains("print(1)"));
    }
}

#[test]
fn sqlite_exercise_and_submission_pages() {
    on_runtime(async {
        let db = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", db.path().join("db.sqlite3").display());
        let store = Store::connect(&url).await.unwrap();
        let app = app_on(&lessons_root(), &url, db).await;
        pages(&app, &store).await;
    });
}

#[test]
fn postgres_exercise_and_submission_pages() {
    on_runtime(async {
        let url = postgres_database("submission_pages").await;
        let store = Store::connect(&url).await.unwrap();
        let app = app_on(&lessons_root(), &url, tempfile::tempdir().unwrap()).await;
        pages(&app, &store).await;
    });
}
