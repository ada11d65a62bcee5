//! Comments in a real headless Chromium.
//!
//! - Two learners and an instructor, each in a browser profile of their own, on two app
//!   processes sharing one real PostgreSQL server, and on one app with SQLite: A comments, B (on the other machine) sees it
//!   without reloading and replies, A sees the reply without reloading while the text A is
//!   typing stays in its box, and when the instructor hides B's reply it disappears for A.
//! - The held set of hostile comments on a page: no dialog opens and no request leaves the
//!   site.
//!
//! Needs the release browser bundle and chromium + chromium-driver, set up by `cargo xtask
//! test`. It fails, never skips, without them.

use crate::common;

use common::*;
use fantoccini::{Client, Locator};
use lockstep_store::{Limit, NewComment, Role, Store};

include!("../../../comments/tests/data/hostile.rs");

const LESSON: &str = "/lessons/distributed-sampler";
const PASSWORD: &str = "gradient buckets overlap";

async fn comments_text(c: &Client) -> String {
    text(c, "[data-role=comments]").await.unwrap_or_default()
}

/// Marks the page, so a test can tell it was not reloaded.
async fn mark(c: &Client) {
    c.execute("window.__sameDocument = true", vec![]).await.unwrap();
}

async fn still_same_document(c: &Client) -> bool {
    c.execute("return window.__sameDocument === true", vec![]).await.unwrap()
        == serde_json::Value::Bool(true)
}

async fn type_into(c: &Client, css: &str, words: &str) {
    let area = c.find(Locator::Css(css)).await.unwrap();
    click(c, &area).await;
    area.send_keys(words).await.unwrap();
}

async fn open_lesson(c: &Client, base: &str) {
    c.goto(&format!("{base}{LESSON}")).await.unwrap();
    wait_for_hydration(c, "the lesson").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_learners_and_an_instructor_talk_live_across_two_app_machines() {
    let url = common::in_process::postgres_database("comments_live").await;
    let site = site_root();
    let (port_one, port_two) = (free_port(), free_port());
    let _one = server_process(&site, &url, port_one).await;
    let _two = server_process(&site, &url, port_two).await;
    let (one, two) =
        (format!("http://127.0.0.1:{port_one}"), format!("http://127.0.0.1:{port_two}"));
    conversation(&one, &two, &Store::connect(&url).await.unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_learners_and_an_instructor_talk_live_on_sqlite() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", tmp.path().join("db.sqlite3").display());
    let base = serve_course_on(&url).await;
    conversation(&base, &base, &Store::connect(&url).await.unwrap()).await;
}

/// A on app machine `one`, B on `two`, the instructor on `one`.
async fn conversation(one: &str, two: &str, store: &Store) {
    let (one, two) = (one.to_string(), two.to_string());
    let tmp = tempfile::tempdir().unwrap();
    let (_driver, webdriver) = start_chromedriver().await;
    let a = browser(&webdriver, &tmp.path().join("a"), &[]).await;
    let b = browser(&webdriver, &tmp.path().join("b"), &[]).await;
    let t = browser(&webdriver, &tmp.path().join("t"), &[]).await;
    sign(&a, &one, "sign-up", "ada@example.org", PASSWORD).await;
    sign(&b, &two, "sign-up", "bo@example.org", PASSWORD).await;
    sign(&t, &one, "sign-up", "teacher@example.org", PASSWORD).await;
    assert!(store.set_role("teacher@example.org", Role::Instructor).await.unwrap());
    // A role granted from outside reaches pages within the accounts' kept reads (2 s on SQLite).
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;

    open_lesson(&a, &one).await;
    open_lesson(&b, &two).await;
    mark(&b).await;
    assert!(comments_text(&b).await.contains("No comments yet"));

    // A comments: a plain form post, back to the comment.
    type_into(&a, "form[data-form=new] textarea", "Why does set_epoch take the epoch number?")
        .await;
    click(&a, &a.find(Locator::Css("form[data-form=new] button")).await.unwrap()).await;
    wait_for("A's comment on A's page", || async {
        comments_text(&a).await.contains("Why does set_epoch take")
    })
    .await;
    assert!(a.current_url().await.unwrap().fragment().is_some_and(|f| f.starts_with("comment-")));

    // B, on the other machine, sees it without reloading.
    wait_for("A's comment live on B's page", || async {
        comments_text(&b).await.contains("Why does set_epoch take")
    })
    .await;
    assert!(still_same_document(&b).await, "B's page was not reloaded");
    assert!(comments_text(&b).await.contains("Comments 1"));

    // A starts typing a second comment; B replies; A sees the reply live, the typing kept.
    wait_for_hydration(&a, "A's page after posting").await;
    mark(&a).await;
    type_into(&a, "form[data-form=new] textarea", "half a thought").await;
    let reply = b.find(Locator::Css(".thread details.reply summary")).await.unwrap();
    click(&b, &reply).await;
    type_into(&b, ".thread details.reply textarea", "Because the seed is seed + epoch.").await;
    click(&b, &b.find(Locator::Css(".thread details.reply button")).await.unwrap()).await;
    wait_for("B's reply live on A's page", || async {
        comments_text(&a).await.contains("Because the seed is seed + epoch.")
    })
    .await;
    assert!(still_same_document(&a).await, "A's page was not reloaded");
    let kept = a
        .execute("return document.querySelector('form[data-form=new] textarea').value", vec![])
        .await
        .unwrap();
    assert_eq!(kept, "half a thought", "what A was typing stays");
    let ada = store.account_by_email("ada@example.org").await.unwrap().unwrap().id;
    assert_eq!(store.unread_notifications(ada).await.unwrap(), 1, "A is told of the reply");
    wait_for("A's bell to count the reply", || async {
        text(&a, "[data-role=bell-count]").await.as_deref() == Some("1")
    })
    .await;

    // The instructor sees who wrote what and hides B's reply; it disappears for A at once.
    open_lesson(&t, &one).await;
    assert!(comments_text(&t).await.contains("bo@example.org"));
    let hide = t
        .find(Locator::XPath(
            "//li[contains(., 'Because the seed')]//article[contains(., 'Because the seed')]//button[@data-action='hide']",
        ))
        .await
        .unwrap();
    click(&t, &hide).await;
    wait_for("the hidden reply gone from A's page", || async {
        !comments_text(&a).await.contains("Because the seed is seed + epoch.")
    })
    .await;
    assert!(still_same_document(&a).await);
    // B still sees it, marked.
    wait_for("B told the reply is hidden", || async {
        comments_text(&b).await.contains("Hidden by an instructor")
    })
    .await;
    assert_eq!(store.unread_notifications(ada).await.unwrap(), 0, "a hidden reply is not counted");

    // B is told of A's reply in the thread B joined, reads it from the bell's page, and the
    // bell goes quiet.
    click(&a, &a.find(Locator::Css(".thread details.reply summary")).await.unwrap()).await;
    type_into(&a, ".thread details.reply textarea", "Thanks!").await;
    click(&a, &a.find(Locator::Css(".thread details.reply button")).await.unwrap()).await;
    wait_for("B's bell to count A's reply", || async {
        text(&b, "[data-role=bell-count]").await.as_deref() == Some("1")
    })
    .await;
    click(&b, &b.find(Locator::Css("[data-role=bell]")).await.unwrap()).await;
    wait_for("B's notifications", || async {
        text(&b, "[data-role=notifications]")
            .await
            .is_some_and(|t| t.contains("replied in a thread"))
    })
    .await;
    click(&b, &b.find(Locator::Css("[data-role=notification] button")).await.unwrap()).await;
    wait_for("the reply B was told of", || async {
        b.current_url().await.unwrap().fragment().is_some_and(|f| f.starts_with("comment-"))
    })
    .await;
    wait_for_hydration(&b, "the lesson again").await;
    wait_for("B's bell quiet", || async {
        b.find(Locator::Css("[data-role=bell-count][hidden]")).await.is_ok()
    })
    .await;
    for c in [a, b, t] {
        let crashed = c.find_all(Locator::Css("[data-role=app-error]")).await.unwrap();
        assert!(crashed.is_empty(), "no crash notice");
        c.close().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_comments_are_inert_in_chromium() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", tmp.path().join("db.sqlite3").display());
    let store = Store::connect(&url).await.unwrap();
    let account =
        store.create_account("mallory@example.org", "h", "acct-m", 1).await.unwrap().unwrap().id;
    let unlimited = [Limit::new("hostile", u64::MAX, 60)];
    for (i, body) in HOSTILE.iter().enumerate() {
        let body = lockstep_comments::check(body).unwrap();
        let new = NewComment {
            place: "lesson:distributed-sampler",
            parent: None,
            account,
            body: &body,
            section: None,
            hold_newcomers: false,
        };
        store.post_comment(&new, &unlimited, 1_000 + i as i64).await.unwrap().unwrap();
    }
    let base = serve_course_on(&url).await;
    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &tmp.path().join("profile"), &[]).await;
    open_lesson(&c, &base).await;
    // Every comment is on the page, then hover and click over each of them.
    let shown = c.find_all(Locator::Css("[data-role=comments] article.comment")).await.unwrap();
    assert_eq!(shown.len(), HOSTILE.len());
    for comment in &shown {
        c.execute(
            "arguments[0].scrollIntoView({block: 'center', behavior: 'instant'}); \
             for (const e of arguments[0].querySelectorAll('*')) { \
               for (const kind of ['mouseover', 'focus']) e.dispatchEvent(new Event(kind)); }",
            vec![serde_json::to_value(comment).unwrap()],
        )
        .await
        .unwrap();
    }
    // A dialog would leave an alert open, which WebDriver reports.
    assert!(c.get_alert_text().await.is_err(), "a dialog opened");
    let foreign: serde_json::Value = c
        .execute(
            "return performance.getEntriesByType('resource').map(e => e.name) \
             .filter(n => !n.startsWith(location.origin))",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(foreign, serde_json::json!([]), "no request left the site");
    let scripts: serde_json::Value = c
        .execute(
            "return document.querySelectorAll('[data-role=comments] :is(script, iframe, img, \
             style, form[action^=http], meta, object, embed, svg)').length",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(scripts, serde_json::json!(0));

    // "Report a problem" beside the contents is filled in with the section being read; from a
    // quiz question, with the question too. A visitor may send it.
    let value = |css: &'static str| {
        let c = c.clone();
        async move {
            c.execute(&format!("return document.querySelector('{css}').value"), vec![])
                .await
                .unwrap()
        }
    };
    c.execute(
        "document.getElementById('set-epoch-do-not-skip-it').scrollIntoView({behavior: 'instant'})",
        vec![],
    )
    .await
    .unwrap();
    // A plain click: the link reports the section at the top of the view, which `click`'s
    // centring would change.
    c.find(Locator::Css("[data-role=report-link]")).await.unwrap().click().await.unwrap();
    assert_eq!(value("[data-role=report-section]").await, "set-epoch-do-not-skip-it");
    assert_eq!(value("[data-role=report-question]").await, "");
    // Through `click`, which waits for the link to stay clear under the pointer: the first
    // link's jump to the form scrolls smoothly, and once the page was still moving between a
    // scroll here and the click (the link was 174 px above the view).
    click(&c, &c.find(Locator::Css("#quiz-0 .report-link")).await.unwrap()).await;
    assert_eq!(value("[data-role=report-question]").await, "0.0");
    assert_eq!(text(&c, "[data-role=report-question-label]").await.unwrap(), "Quiz 1, question 1");
    type_into(&c, "form[data-form=report] textarea", "The first question has two right answers.")
        .await;
    click(&c, &c.find(Locator::Css("form[data-form=report] button")).await.unwrap()).await;
    wait_for("the thanks", || async {
        text(&c, "[data-role=toast]").await.is_some_and(|t| t.contains("Thank you"))
    })
    .await;
    let report = &store.reports().await.unwrap()[0];
    assert_eq!(report.question.as_deref(), Some("0.0"));
    assert!(report.section.is_some(), "the section the quiz is in");
    c.close().await.unwrap();
}
