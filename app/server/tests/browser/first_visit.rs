//! End to end in a real headless Chromium: the course index, a click through to lesson 2, the
//! lesson's title and a titled code block, then proof that the page hydrated (the contents
//! toggle and a copy button work, which needs the wasm bundle running).
//!
//! Needs the release browser bundle (`LOCKSTEP_SITE_ROOT`, built by `cargo xtask test`) and
//! Debian's chromium + chromium-driver. It fails, never skips, when they are missing.

use crate::common;

use common::*;
use fantoccini::Locator;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn index_to_lesson_two_and_hydration() {
    let tmp = tempfile::tempdir().unwrap();
    let base = serve_course(tmp.path()).await;

    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &tmp.path().join("profile"), &[]).await;

    c.goto(&base).await.unwrap();
    assert_eq!(text(&c, "h1").await.as_deref(), Some("Courses"));
    let card = text(&c, ".course-card h2").await;
    assert_eq!(card.as_deref(), Some("Distributed training with PyTorch DDP"));
    // Wait for hydration so the click below is a client-side navigation through the router,
    // which fetches the lesson with a server function.
    wait_for_hydration(&c, "the index to hydrate").await;
    c.find(Locator::Css(r#"a[href="/lessons/dataparallel"]"#))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for("lesson 2's title", || async {
        text(&c, "h1").await.as_deref() == Some("DataParallel and the master-GPU bottleneck")
    })
    .await;
    assert_eq!(c.current_url().await.unwrap().path(), "/lessons/dataparallel");
    assert_eq!(text(&c, ".lesson-position").await.as_deref(), Some("Lesson 02 of 10"));
    let code_title = text(&c, ".code-block .code-title").await.expect("a titled code block");
    assert!(!code_title.is_empty());

    // A fresh load of the lesson page itself, so hydration is checked on this page too.
    c.refresh().await.unwrap();
    wait_for_hydration(&c, "the lesson to hydrate").await;

    let toggle = c.find(Locator::Css(".toc-toggle")).await.unwrap();
    assert_eq!(toggle.attr("aria-expanded").await.unwrap().as_deref(), Some("true"));
    assert!(c.find(Locator::Css("#toc-list")).await.unwrap().is_displayed().await.unwrap());
    toggle.click().await.unwrap();
    wait_for("the contents to fold", || async {
        let list = c.find(Locator::Css("#toc-list")).await.unwrap();
        !list.is_displayed().await.unwrap()
    })
    .await;
    assert_eq!(toggle.attr("aria-expanded").await.unwrap().as_deref(), Some("false"));
    assert_eq!(toggle.text().await.unwrap(), "Show");

    let copy = c.find(Locator::Css(".code-block .copy-button")).await.unwrap();
    assert!(copy.is_displayed().await.unwrap(), "copy buttons show once hydrated");
    copy.click().await.unwrap();
    // Headless Chromium may refuse clipboard access; either answer proves the handler ran.
    wait_for("the copy button to answer", || async {
        matches!(copy.text().await.ok().as_deref(), Some("Copied" | "Copy failed"))
    })
    .await;

    let png = c.screenshot().await.unwrap();
    std::fs::write(artifacts().join("lesson-02.png"), png).unwrap();

    c.close().await.unwrap();
}
