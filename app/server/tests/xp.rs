//! The XP loop in a real headless Chromium: step a simulation to its end and see the toast and
//! the progress panel move without a reload; answer the quiz through its form and read the
//! review; reload, and see that the server kept all of it.
//!
//! Needs the release browser bundle and Debian's chromium + chromium-driver, like
//! `browser.rs`; it fails, never skips, when they are missing.

mod common;

use common::*;
use fantoccini::Locator;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explore_a_simulation_and_pass_a_quiz() {
    let tmp = tempfile::tempdir().unwrap();
    let base = serve_course(tmp.path()).await;
    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &tmp.path().join("profile"), &[]).await;

    c.goto(&format!("{base}/lessons/dataparallel")).await.unwrap();
    wait_for_hydration(&c, "lesson 2 to hydrate").await;
    assert_eq!(text(&c, "[data-role=xp]").await.as_deref(), Some("0 XP"));

    // The scatter-gather simulation, stepped by hand to its last phase.
    let next = c.find(Locator::Css("[data-sim=scatter-gather] .sim-step")).await.unwrap();
    for _ in 0..20 {
        if next.attr("aria-disabled").await.unwrap().as_deref() == Some("true") {
            break;
        }
        click(&c, &next).await;
    }
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

    // The quiz, answered right through its form.
    for (q, o) in [(0, 1), (1, 0), (2, 0), (2, 1), (2, 2), (3, 0)] {
        let option =
            c.find(Locator::Css(&format!(r#"input[name=q{q}][value="{o}"]"#))).await.unwrap();
        click(&c, &option).await;
    }
    click(&c, &c.find(Locator::Css("#quiz-0 button[type=submit]")).await.unwrap()).await;
    wait_for("the review", || async {
        text(&c, "[data-role=quiz-review] .quiz-score").await.as_deref()
            == Some("Passed: 4 of 4 right.")
    })
    .await;
    assert!(c.current_url().await.unwrap().as_str().ends_with("/lessons/dataparallel#quiz-0"));
    wait_for_hydration(&c, "the reviewed page to hydrate").await;
    assert_eq!(text(&c, "[data-role=xp]").await.as_deref(), Some("30 XP"));
    let review = text(&c, "[data-role=quiz-review]").await.unwrap();
    assert!(review.contains("the fourth GPU sits idle"), "every option explained: {review}");

    // The server kept it: a reload shows the same.
    c.refresh().await.unwrap();
    wait_for_hydration(&c, "the reloaded page").await;
    assert_eq!(text(&c, "[data-role=xp]").await.as_deref(), Some("30 XP"));
    assert_eq!(text(&c, "[data-role=achievements]").await.as_deref(), Some("4/14 achievements"));
    c.screenshot().await.map(|png| std::fs::write(artifacts().join("xp-loop.png"), png)).ok();
    c.close().await.unwrap();
}
