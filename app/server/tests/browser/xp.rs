//! The XP loop in a real headless Chromium: step a simulation to its end and see the toast and
//! the progress panel move without a reload; answer the quiz through its form and read the
//! review; reload, and see that the server kept all of it; sign up and see it merged; sign in
//! from a second browser profile and see the same XP. On SQLite and on PostgreSQL.
//!
//! Needs the release browser bundle and Debian's chromium + chromium-driver, like
//! `browser.rs`; it fails, never skips, when they are missing.

use crate::common;

use common::*;
use fantoccini::Locator;

/// One test, the two databases one after the other: two servers rendering at once in one
/// process is what a real deployment never does (see `router.rs`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explore_pass_a_quiz_sign_up_and_sign_in_elsewhere() {
    let tmp = tempfile::tempdir().unwrap();
    let sqlite = format!("sqlite://{}?mode=rwc", tmp.path().join("db.sqlite3").display());
    the_loop(&serve_course_on(&sqlite).await, &tmp.path().join("sqlite")).await;
    let postgres = common::in_process::postgres_database("xp_browser").await;
    the_loop(&serve_course_on(&postgres).await, &tmp.path().join("postgres")).await;
}

async fn the_loop(base: &str, profiles: &std::path::Path) {
    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &profiles.join("laptop"), &[]).await;

    c.goto(&format!("{base}/lessons/dataparallel")).await.unwrap();
    wait_for_hydration(&c, "lesson 2 to hydrate").await;
    assert_eq!(text(&c, "[data-role=xp]").await.as_deref(), Some("0 XP"));

    // The scatter-gather simulation, stepped by hand to its last phase.
    step_to_the_end(&c, "scatter-gather").await;
    wait_for("the toast", || async {
        text(&c, "[data-role=toast]")
            .await
            .is_some_and(|t| t.contains("+10 XP") && t.contains("Achievement: Hands on"))
    })
    .await;
    assert_eq!(
        text(&c, "[data-role=xp]").await.as_deref(),
        Some("10 XP"),
        "the panel moved without a reload"
    );
    assert_eq!(text(&c, "[data-role=achievements]").await.as_deref(), Some("1/14 achievements"));

    // The quiz, answered right through its form, in the order this attempt shows.
    let shown = shown_quiz(&c.source().await.unwrap(), 0);
    for (name, value) in
        quiz_form(&shown, "dataparallel", 0, DATAPARALLEL_RIGHT).into_iter().skip(2)
    {
        let option =
            c.find(Locator::Css(&format!(r#"input[name={name}][value="{value}"]"#))).await.unwrap();
        click(&c, &option).await;
    }
    click(&c, &c.find(Locator::Css("#quiz-0 button[type=submit]")).await.unwrap()).await;
    wait_for("the review", || async {
        text(&c, "[data-role=quiz-review] .quiz-score").await.as_deref()
            == Some("Passed: 4 of 4 right.")
    })
    .await;
    // What the post earned is said on the page it lands on (read while the page hydrates, so
    // asked again until it is there; it stays for seconds after).
    wait_for("the toast of the quiz", || async {
        text(&c, "[data-role=toast]").await.is_some_and(|t| t.contains("+20 XP"))
    })
    .await;
    assert!(c.current_url().await.unwrap().as_str().ends_with("/lessons/dataparallel#quiz-0"));
    wait_for_hydration(&c, "the reviewed page to hydrate").await;
    assert_eq!(text(&c, "[data-role=xp]").await.as_deref(), Some("30 XP"));
    let review = text(&c, "[data-role=quiz-review]").await.unwrap();
    assert!(review.contains("one replica per chunk"), "every option explained: {review}");

    // The server kept it: a reload shows the same.
    c.refresh().await.unwrap();
    wait_for_hydration(&c, "the reloaded page").await;
    assert_eq!(text(&c, "[data-role=xp]").await.as_deref(), Some("30 XP"));
    assert_eq!(text(&c, "[data-role=achievements]").await.as_deref(), Some("3/14 achievements"));
    c.screenshot().await.map(|png| std::fs::write(artifacts().join("xp-loop.png"), png)).ok();

    // Sign up: this browser's progress is merged, and the page says what merged.
    sign(&c, base, "sign-up", "ada@example.org", "gradient buckets overlap").await;
    // The toast is the island's, so it may come a moment after the page says who is signed in.
    wait_for("the toast of the merge", || async {
        text(&c, "[data-role=toast]").await.is_some_and(|t| !t.is_empty())
    })
    .await;
    let toast = text(&c, "[data-role=toast]").await.unwrap_or_default();
    assert!(toast.contains("Merged from this browser: 1 simulation, 1 quiz"), "{toast}");
    assert_eq!(text(&c, "[data-role=xp]").await.as_deref(), Some("30 XP"));
    let sync = text(&c, "[data-role=sync]").await.unwrap();
    assert!(sync.contains("Signed in as ada@example.org"), "{sync}");
    complete_and_reset_a_lesson_with_a_simulation(&c, base).await;
    c.close().await.unwrap();

    // A second profile (another device): anonymous at first, then the same XP once signed in.
    let phone = browser(&webdriver, &profiles.join("phone"), &[]).await;
    phone.goto(base).await.unwrap();
    wait_for_hydration(&phone, "the index").await;
    assert_eq!(text(&phone, "[data-role=xp]").await.as_deref(), Some("0 XP"));
    sign(&phone, base, "sign-in", "ada@example.org", "gradient buckets overlap").await;
    assert_eq!(text(&phone, "[data-role=xp]").await.as_deref(), Some("30 XP"));
    assert_eq!(
        text(&phone, "[data-role=achievements]").await.as_deref(),
        Some("3/14 achievements")
    );
    phone.screenshot().await.map(|png| std::fs::write(artifacts().join("signed-in.png"), png)).ok();
    phone.close().await.unwrap();
}

/// "Mark lesson complete" and "Reset this lesson's progress" on lesson 1, which embeds a
/// simulation: each updates the panel and the completion in place, with no error, no jump of
/// the page, and the simulation still alive (it used to be disposed under its own handlers and
/// panic: every control on the page dead until a reload). The reset takes back all of lesson
/// 1's XP, so the account has its 30 XP of lesson 2 again afterwards.
async fn complete_and_reset_a_lesson_with_a_simulation(c: &fantoccini::Client, base: &str) {
    c.goto(&format!("{base}/lessons/why-distributed")).await.unwrap();
    wait_for_hydration(c, "lesson 1").await;
    catch_page_errors(c).await;
    let errors = || page_errors(c);
    let scroll_y = || async { c.execute("return window.scrollY", vec![]).await.unwrap().as_f64() };
    let xp = || async {
        text(c, "[data-role=xp]").await.unwrap().trim_end_matches(" XP").parse::<u32>().unwrap()
    };
    // Opening a lesson earns nothing: its DP-vs-DDP simulation starts at its last frame, which
    // used to count as explored on load (+10 XP and "Hands on" for looking).
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    let start = xp().await;
    assert_eq!(start, 30, "opening lesson 1 earned XP");
    // Nor does its Next button, disabled at that last frame: clicking it earned the
    // simulation's XP and "Hands on".
    let step = c.find(Locator::Css("[data-sim] .sim-step")).await.unwrap();
    assert_eq!(step.attr("aria-disabled").await.unwrap().as_deref(), Some("true"));
    click(c, &step).await;
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    assert_eq!(xp().await, 30, "a disabled Next earned XP");

    let button = ".lesson-complete button.primary";
    click(c, &c.find(Locator::Css(button)).await.unwrap()).await;
    let before = scroll_y().await;
    wait_for("the lesson to show it is completed", || async {
        text(c, ".lesson-complete .done").await.is_some()
    })
    .await;
    assert!(xp().await > start, "the panel counts the lesson");
    assert_eq!(errors().await, serde_json::json!([]), "no error after completing");
    assert_eq!(scroll_y().await, before, "the page stays where the learner is");

    // The simulation still answers its controls.
    let step = c.find(Locator::Css("[data-sim] .sim-step")).await.unwrap();
    click(c, &step).await;
    assert_eq!(errors().await, serde_json::json!([]), "the simulation is alive");

    // The reset asks first.
    click(c, &c.find(Locator::Css(".lesson-complete .reset-lesson summary")).await.unwrap()).await;
    let reset = ".lesson-complete .reset-lesson button[data-role=reset-confirm]";
    click(c, &c.find(Locator::Css(reset)).await.unwrap()).await;
    wait_for("the lesson to be open again", || async { text(c, button).await.is_some() }).await;
    wait_for("the panel to take the lesson's XP back", || async { xp().await == 30 }).await;
    assert_eq!(errors().await, serde_json::json!([]), "no error after resetting");
}
