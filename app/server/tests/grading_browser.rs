//! The exercise loop in a real headless Chromium, graded by a real `gpu-runner worker` with real
//! torch: sign up, open the exercise from lesson 6, upload the reference solution into the
//! editor, submit, watch the checks arrive live, see the pass and the exercise's XP (once);
//! then a broken variant shows its failing check, the hint and the lesson section to read.
//! On SQLite with one app, and on PostgreSQL with two app processes: the browser submits on
//! one and watches live on the other, while the worker reports to the first, so every live
//! event reaches the page through the database.
//!
//! Needs the release browser bundle, Chromium and chromedriver (like `browser.rs`) and the
//! `gpu-runner` binary beside this test's; it fails, never skips, when they are missing.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::api::{worker, worker_token};
use common::*;
use fantoccini::{Client, Locator};

fn exercise_file(name: &str) -> PathBuf {
    // chromedriver takes canonical paths only.
    common::api::exercise_file(name).canonicalize().unwrap()
}

/// Waits up to `limit` for `check`: gradings take minutes, not the seconds `wait_for` allows.
async fn wait_long<F, Fut>(what: &str, limit: Duration, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + limit;
    while !check().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn count(c: &Client, css: &str) -> usize {
    c.find_all(Locator::Css(css)).await.map_or(0, |v| v.len())
}

/// Uploads `file` into the editor on `base` and submits; waits for the verdict on the
/// submission page it lands on, opened on `watch` (another app process, or the same), noting
/// whether checks arrived before it.
async fn submit_and_watch(c: &Client, base: &str, watch: &str, file: &Path) -> bool {
    c.goto(&format!("{base}/exercises/ddp-conversion")).await.unwrap();
    wait_for_hydration(c, "the exercise page").await;
    wait_for("the code editor", || async { count(c, ".cm-editor .cm-content").await == 1 }).await;
    let upload = c.find(Locator::Css("input[type=file][data-upload]")).await.unwrap();
    upload.send_keys(&file.display().to_string()).await.unwrap();
    let first_line = std::fs::read_to_string(file).unwrap().lines().next().unwrap().to_string();
    wait_for("the uploaded script in the editor", || async {
        text(c, ".cm-content").await.is_some_and(|t| t.starts_with(first_line.trim()))
    })
    .await;
    click(c, &c.find(Locator::Css("button[data-role=submit]")).await.unwrap()).await;
    wait_for("the submission page", || async {
        c.current_url().await.unwrap().path().starts_with("/submissions/")
    })
    .await;
    if watch != base {
        // The session cookie is the host's, whatever the port: the same learner on the other
        // app process.
        let path = c.current_url().await.unwrap().path().to_string();
        c.goto(&format!("{watch}{path}")).await.unwrap();
    }
    wait_for_hydration(c, "the submission page").await;
    let live = std::sync::atomic::AtomicBool::new(false);
    wait_long("the verdict", Duration::from_secs(400), || async {
        let done = text(c, "[data-role=verdict]").await.is_some();
        if !done && count(c, "[data-role=checks] li").await > 0 {
            live.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        done
    })
    .await;
    live.into_inner()
}

/// Types `line` into the exercise page's code editor, as a learner does.
async fn type_in_editor(c: &Client, line: &str) {
    wait_for("the code editor", || async { count(c, ".cm-editor .cm-content").await == 1 }).await;
    let editor = c.find(Locator::Css(".cm-content")).await.unwrap();
    click(c, &editor).await;
    editor.send_keys(&format!("\n{line}\n")).await.unwrap();
}

/// Real gradings take turns: two at once on two cores would spoil the timed speedup.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submit_from_the_editor_and_watch_it_graded() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", tmp.path().join("db.sqlite3").display());
    let base = serve_course_on(&url).await;
    full_loop(tmp.path(), &url, [&base, &base, &base], "").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_two_app_processes_submit_on_one_watch_live_on_the_other() {
    let tmp = tempfile::tempdir().unwrap();
    let url = in_process::postgres_database("grading_browser").await;
    let (a, b) = (free_port(), free_port());
    let _a = server_process(&site_root(), &url, a).await;
    let _b = server_process(&site_root(), &url, b).await;
    let (a, b) = (format!("http://127.0.0.1:{a}"), format!("http://127.0.0.1:{b}"));
    // Submitted on A, watched on B, reported to A: every live event reaches the page through
    // the database.
    full_loop(tmp.path(), &url, [&a, &b, &a], "pg-").await;
}

/// The browser submits on `base` and watches on `watch`; the worker reports to `worker_base`.
/// Screenshots are named with `shots` in front.
async fn full_loop(tmp: &Path, url: &str, [base, watch, worker_base]: [&str; 3], shots: &str) {
    let _turn = ONE_AT_A_TIME.lock().await;
    let (base, url) = (base.to_string(), url.to_string());
    let token = worker_token(&url, "browser-test");
    // It times the speedup, as a grading machine does: the pass needs it.
    let _worker = worker(worker_base, &token, "browser", true);

    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &tmp.join("profile"), &[]).await;

    // The lesson links its exercise; signed out, the page asks to sign in.
    c.goto(&format!("{base}/lessons/checkpoints-and-pitfalls")).await.unwrap();
    wait_for_hydration(&c, "lesson 6").await;
    let link = c.find(Locator::Css(r#"a[href="/exercises/ddp-conversion"]"#)).await.unwrap();
    click(&c, &link).await;
    wait_for("the exercise page", || async {
        text(&c, "[data-role=sign-in-to-submit]").await.is_some()
    })
    .await;
    // Signed out, the draft stays in this browser and survives a reload.
    type_in_editor(&c, "# typed before signing up").await;
    wait_for("kept in the browser", || async {
        text(&c, "[data-role=draft-status]").await.as_deref() == Some("Draft kept in this browser.")
    })
    .await;
    c.refresh().await.unwrap();
    wait_for_hydration(&c, "the exercise page again").await;
    wait_for("the restored draft", || async {
        text(&c, ".cm-content").await.is_some_and(|t| t.contains("# typed before signing up"))
    })
    .await;
    let said = text(&c, "[data-role=draft-status]").await.unwrap();
    assert!(said.starts_with("Restored the draft this browser kept"), "{said}");

    c.goto(&format!("{base}/account")).await.unwrap();
    wait_for_hydration(&c, "the account page").await;
    let field = |name: &str| format!("form[data-role=sign-up] input[name={name}]");
    c.find(Locator::Css(&field("email")))
        .await
        .unwrap()
        .send_keys("ada@example.org")
        .await
        .unwrap();
    c.find(Locator::Css(&field("password")))
        .await
        .unwrap()
        .send_keys("gradient buckets overlap")
        .await
        .unwrap();
    click(&c, &c.find(Locator::Css("form[data-role=sign-up] button")).await.unwrap()).await;
    wait_for("signed in", || async {
        text(&c, "[data-role=sync]").await.is_some_and(|t| t.contains("Signed in as"))
    })
    .await;

    // The reference solution: the checks arrive while it is graded, then the pass.
    let live = submit_and_watch(&c, &base, watch, &exercise_file("solution.py")).await;
    assert!(live, "checks appeared before the verdict, as they were decided");
    let verdict = text(&c, "[data-role=verdict]").await.unwrap();
    assert!(verdict.starts_with("PASS"), "{verdict}");
    assert_eq!(count(&c, "[data-role=checks] li.check-pass").await, 10);
    // What the pass earned arrives with it, without a reload: the line, a toast, the panel.
    wait_for("the XP the pass earned", || async {
        text(&c, "[data-role=xp]").await.as_deref() == Some("100 XP")
    })
    .await;
    let earned = text(&c, "[data-role=earned]").await.unwrap();
    assert!(earned.starts_with("+100 XP") && earned.contains("Achievement: "), "{earned}");
    let toast = text(&c, "[data-role=toast]").await.unwrap();
    assert!(toast.starts_with("+100 XP"), "{toast}");
    // The graded script, numbered, with the way back to the editor.
    assert!(count(&c, "[data-role=graded-script] .code-line").await > 50);
    // The real run beside the cost model: the solution's MLP is one the model can time.
    let gap = text(&c, "[data-role=run-vs-model] [data-role=gap]").await.unwrap();
    assert!(gap.starts_with("A step of your run took"), "{gap}");
    assert!(gap.contains("the model's"), "a prediction to compare with: {gap}");
    assert_eq!(count(&c, "[data-role=run-vs-model] svg.chart").await, 3, "epochs, loss, step");
    let ranks_and_model = "[data-role=run-vs-model] figure:first-of-type g.series";
    assert_eq!(count(&c, ranks_and_model).await, 3, "two ranks and the model's line");
    // The two ranks read as two, even where their lines lie on each other: other colours, a
    // dashed line, other marks; and the axis text stays readable on a phone.
    let look = |rank: &str| {
        format!(
            "const p = document.querySelector('[data-role=run-vs-model] g.series.{rank} polyline'); \
             const s = getComputedStyle(p); return [s.stroke, s.strokeDasharray, p.parentElement.querySelector('circle, rect').tagName]"
        )
    };
    let rank0 = c.execute(&look("rank0"), vec![]).await.unwrap();
    let rank1 = c.execute(&look("rank1"), vec![]).await.unwrap();
    assert_ne!(rank0[0], rank1[0], "colours: {rank0} {rank1}");
    assert_ne!(rank0[1], rank1[1], "dashes: {rank0} {rank1}");
    assert_ne!(rank0[2], rank1[2], "marks: {rank0} {rank1}");
    c.set_window_size(390, 900).await.unwrap();
    let smallest = c
        .execute(
            "return Math.min(...Array.from(document.querySelectorAll('[data-role=run-vs-model] .tick')).map(t => t.getBoundingClientRect().height))",
            vec![],
        )
        .await
        .unwrap();
    assert!(smallest.as_f64().unwrap() >= 10.0, "axis text {smallest} px high on a phone");
    c.set_window_size(1280, 1600).await.unwrap();
    c.screenshot()
        .await
        .map(|png| std::fs::write(artifacts().join(format!("{shots}graded-pass.png")), png))
        .ok();
    c.refresh().await.unwrap();
    wait_for_hydration(&c, "the graded page").await;
    assert_eq!(text(&c, "[data-role=xp]").await.as_deref(), Some("100 XP"), "the exercise's XP");
    assert_eq!(text(&c, "[data-role=earned]").await, Some(earned), "still said after a reload");

    // Edit and resubmit: the editor opens on the graded script; what is typed is saved to the
    // account, so it is there with the browser's own copy gone.
    click(&c, &c.find(Locator::Css("a[data-role=resubmit]")).await.unwrap()).await;
    wait_for_hydration(&c, "the exercise page from the submission").await;
    let solution = std::fs::read_to_string(exercise_file("solution.py")).unwrap();
    let first = solution.lines().next().unwrap().to_string();
    wait_for("the graded script in the editor", || async {
        text(&c, ".cm-content").await.is_some_and(|t| t.starts_with(first.trim()))
    })
    .await;
    type_in_editor(&c, "# a second try").await;
    wait_for("saved to the account", || async {
        text(&c, "[data-role=draft-status]").await.as_deref()
            == Some("Draft saved to your account.")
    })
    .await;
    c.execute("localStorage.clear()", vec![]).await.unwrap();
    c.goto(&format!("{base}/exercises/ddp-conversion")).await.unwrap();
    wait_for_hydration(&c, "the exercise page, from the server's draft").await;
    wait_for("the server's draft", || async {
        text(&c, ".cm-content").await.is_some_and(|t| t.contains("# a second try"))
    })
    .await;

    // A broken variant: its failing check, with the hint and the lesson section.
    submit_and_watch(&c, &base, watch, &exercise_file("broken/no_set_epoch.py")).await;
    let verdict = text(&c, "[data-role=verdict]").await.unwrap();
    assert!(verdict.starts_with("FAIL"), "{verdict}");
    let failed = c.find(Locator::Css("li.check-fail[data-check=sampler_set_epoch]")).await.unwrap();
    let shown = failed.text().await.unwrap();
    assert!(shown.contains("set_epoch"), "{shown}");
    let lesson = failed.find(Locator::Css(".check-lesson a")).await.unwrap();
    let href = lesson.attr("href").await.unwrap().unwrap();
    assert!(href.starts_with("/lessons/distributed-sampler#"), "{href}");
    assert!(failed.find(Locator::Css(".check-hint")).await.is_ok(), "a hint: {shown}");
    // The sampler, set up as the learner's script ran it: their world size, set_epoch off.
    let sim = failed.find(Locator::Css("[data-role=case-sim]")).await.unwrap();
    let caption = sim.find(Locator::Css("figcaption")).await.unwrap().text().await.unwrap();
    assert!(caption.contains("over 2 processes without set_epoch"), "{caption}");
    assert!(sim.find(Locator::Css("section.sim[data-sim=sampler]")).await.is_ok());
    c.screenshot()
        .await
        .map(|png| std::fs::write(artifacts().join(format!("{shots}graded-fail.png")), png))
        .ok();
    c.refresh().await.unwrap();
    wait_for_hydration(&c, "the failed page").await;
    assert_eq!(text(&c, "[data-role=xp]").await.as_deref(), Some("100 XP"), "XP once");
    c.close().await.unwrap();
}
