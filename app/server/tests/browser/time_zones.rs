//! Times in the reader's zone, streak days in the learner's: Chromium told it is in New York
//! (DevTools' time zone override) reads a submission's time in New York time, though the server
//! drew it in Seoul's; its first XP makes a learner who keeps New York, and the event's day is
//! New York's.

use crate::common;

use common::*;
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::Locator;
use lockstep_clock::Zone;

const NEW_YORK: &str = "America/New_York";
const PASSWORD: &str = "gradient buckets overlap";

/// A DevTools command, through chromedriver.
#[derive(Debug)]
struct Cdp(&'static str, serde_json::Value);

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (axum::http::Method, Option<String>) {
        let body = serde_json::json!({ "cmd": self.0, "params": self.1 });
        (axum::http::Method::POST, Some(body.to_string()))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_in_new_york_reads_new_york_time_and_keeps_new_york_days() {
    let tmp = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}?mode=rwc", tmp.path().join("db.sqlite3").display());
    let base = serve_course_on(&db).await;
    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &tmp.path().join("profile"), &[]).await;
    let zone = serde_json::json!({ "timezoneId": NEW_YORK });
    c.issue_cmd(Cdp("Emulation.setTimezoneOverride", zone)).await.unwrap();

    c.goto(&format!("{base}/lessons/dataparallel")).await.unwrap();
    wait_for_hydration(&c, "the lesson to hydrate").await;
    let cookies = c.execute("return document.cookie", vec![]).await.unwrap();
    assert!(
        cookies.as_str().unwrap().contains("lockstep-tz=America%2FNew_York"),
        "the clock script keeps the browser's zone: {cookies}"
    );

    // The first XP of a visitor: the learner it makes takes the browser's zone, and so does
    // the event.
    step_to_the_end(&c, "scatter-gather").await;
    wait_for("the toast", || async {
        text(&c, "[data-role=toast]").await.is_some_and(|t| t.contains("+10 XP"))
    })
    .await;
    let store = lockstep_store::Store::connect(&db).await.unwrap();
    let learners = store.learners_report().await.unwrap();
    assert_eq!(learners.len(), 1, "{learners:?}");
    let learner = &learners[0].learner_id;
    assert_eq!(store.time_zone(learner).await.unwrap().as_deref(), Some(NEW_YORK));
    let ny = Zone::named(NEW_YORK).unwrap();
    let event = &store.events(learner).await.unwrap()[0];
    assert_eq!(event.day, lockstep_clock::day(event.at, ny.offset_s(event.at)));

    // A submission's time: drawn by the server in Seoul's zone, read in New York's.
    sign(&c, &base, "sign-up", "ny@example.org", PASSWORD).await;
    c.goto(&format!("{base}/exercises/ddp-conversion")).await.unwrap();
    wait_for_hydration(&c, "the exercise page").await;
    click(&c, &c.find(Locator::Css("[data-role=submit]")).await.unwrap()).await;
    wait_for("the submission's page", || async {
        c.current_url().await.unwrap().path().starts_with("/submissions/")
    })
    .await;
    c.goto(&format!("{base}/exercises/ddp-conversion")).await.unwrap();
    wait_for_hydration(&c, "the exercise page again").await;
    let submitted = store.recent_submissions(1).await.unwrap()[0].created_at * 1000;
    let time = c.find(Locator::Css("[data-role=submissions] time")).await.unwrap();
    let read = ny.moment(submitted).local;
    wait_for("the time in New York's zone", || async { time.text().await.unwrap() == read }).await;
    assert_eq!(time.attr("data-zone").await.unwrap().as_deref(), Some(NEW_YORK));
    assert_eq!(time.attr("datetime").await.unwrap(), Some(ny.moment(submitted).utc));
}
