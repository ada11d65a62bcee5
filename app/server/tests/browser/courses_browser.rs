//! The catalogue of two courses in Chromium: the course cards and a course page for a visitor,
//! the draft banner and the learner's preview for an instructor, each page hydrated without a
//! crash.

use crate::common;

use common::*;
use fantoccini::{Client, Locator};
use lockstep_store::{Role, Store};

async fn no_crash(c: &Client, what: &str) {
    let crashed = c.find_all(Locator::Css("[data-role=app-error]")).await.unwrap();
    assert!(crashed.is_empty(), "{what}: the crash notice is shown");
}

async fn texts(c: &Client, css: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in c.find_all(Locator::Css(css)).await.unwrap() {
        out.push(e.text().await.unwrap());
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_catalogue_a_course_page_and_a_draft_for_an_instructor() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", tmp.path().join("db.sqlite3").display());
    let root = two_courses();
    let base = serve_lessons(root.path(), &url).await;
    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &tmp.path().join("profile"), &[]).await;

    c.goto(&base).await.unwrap();
    wait_for_hydration(&c, "the catalogue to hydrate").await;
    no_crash(&c, "the catalogue").await;
    assert_eq!(text(&c, "h1").await.as_deref(), Some("Courses"));
    let cards = texts(&c, ".course-card h2").await;
    assert_eq!(cards, ["Distributed training with PyTorch DDP", "Sharded data parallel"]);
    let _ = c.screenshot().await.map(|png| std::fs::write(artifacts().join("catalogue.png"), png));

    // Into the second course: a client-side navigation to its page, its one published lesson.
    let link = c.find(Locator::Css(r#".course-card h2 a[href="/courses/fsdp"]"#)).await.unwrap();
    click(&c, &link).await;
    wait_for("the course page", || async {
        text(&c, "h1").await.as_deref() == Some("Sharded data parallel")
    })
    .await;
    assert_eq!(c.current_url().await.unwrap().path(), "/courses/fsdp");
    assert_eq!(texts(&c, ".lesson-list .lesson-card h2").await, ["Why shard a model"]);
    c.refresh().await.unwrap();
    wait_for_hydration(&c, "the course page to hydrate").await;
    no_crash(&c, "the course page").await;

    // An instructor: the draft listed and marked, its page under its banner.
    sign(&c, &base, "sign-up", "ines@example.org", "gradient buckets overlap").await;
    let store = Store::connect(&url).await.unwrap();
    store.set_role("ines@example.org", Role::Instructor).await.unwrap();
    c.goto(&format!("{base}/courses/fsdp")).await.unwrap();
    wait_for_hydration(&c, "the instructor's course page").await;
    let lessons = texts(&c, ".lesson-list .lesson-card h2").await;
    assert_eq!(lessons, ["Why shard a model", "Wrapping policies, unfinished"]);
    assert_eq!(texts(&c, ".lesson-card.unpublished .badge.draft").await, ["draft"]);
    let draft = c.find(Locator::Css(r#"a[href="/lessons/fsdp-wrapping"]"#)).await.unwrap();
    click(&c, &draft).await;
    wait_for("the draft's banner", || async {
        text(&c, "[data-role=draft]").await.is_some_and(|t| t.contains("only instructors see this"))
    })
    .await;
    assert_eq!(text(&c, ".lesson-position").await.as_deref(), Some("Lesson 02 of 02"));
    let banner = c.find(Locator::Css("[data-role=draft]")).await.unwrap();
    assert!(banner.is_displayed().await.unwrap());
    let _ = c.screenshot().await.map(|png| std::fs::write(artifacts().join("draft.png"), png));
    c.refresh().await.unwrap();
    wait_for_hydration(&c, "the draft to hydrate").await;
    no_crash(&c, "the draft").await;

    // The instructor saves the draft: the page shows the edit by itself.
    let file = root.path().join("fsdp/02-fsdp-wrapping.md");
    let saved = std::fs::read_to_string(&file).unwrap();
    let edited = saved.replace("Wrapping policies, unfinished", "Wrapping policies");
    std::fs::write(&file, edited).unwrap();
    wait_for("the saved title, without a reload by hand", || async {
        text(&c, "h1").await.as_deref() == Some("Wrapping policies")
    })
    .await;
    wait_for_hydration(&c, "the reloaded draft to hydrate").await;

    // As learners will get it: the preview's bar, no banner, and the way back.
    let preview = c.find(Locator::Css("[data-role=draft] a")).await.unwrap();
    click(&c, &preview).await;
    wait_for("the preview", || async { text(&c, "[data-role=preview]").await.is_some() }).await;
    assert!(text(&c, "[data-role=draft]").await.is_none());
    assert_eq!(c.current_url().await.unwrap().query(), Some("as=learner"));
    c.close().await.unwrap();
}
