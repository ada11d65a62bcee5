//! A page whose bundle cannot be loaded (a build removed it under a running server, a deploy
//! that moved on, a network that failed) says so, in its language, with a way to reload,
//! instead of sitting there without styles or scripts; and once the bundle is back, the
//! reload works. (That a build keeps the bundles before it is xtask's `site` and its tests.)

use crate::common;

use std::path::Path;

use common::*;
use fantoccini::Locator;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_whose_bundle_is_gone_says_so_and_reloads() {
    let tmp = tempfile::tempdir().unwrap();
    // A copy of the site, whose bundle this test may take away.
    let site = tmp.path().join("site");
    copy_dir(&site_root(), &site);
    let hash = std::fs::read_to_string(site.join("pkg/current")).unwrap().trim().to_string();
    let url = format!("sqlite://{}?mode=rwc", tmp.path().join("db.sqlite3").display());
    let port = free_port();
    let _server = server_process(&site, &url, port).await;
    let base = format!("http://127.0.0.1:{port}");
    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &tmp.path().join("profile"), &[]).await;

    // A page of the site's pages (their own bundle, which the browser keeps from here on).
    c.goto(&format!("{base}/ko")).await.unwrap();
    wait_for_hydration(&c, "the home page, its bundle there").await;
    assert!(c.find_all(Locator::Css("[data-role=app-error]")).await.unwrap().is_empty());

    // The bundle goes, as a build that deleted it used to make it go: a lesson and an
    // exercise page, whose bundles this browser has not loaded yet, cannot load them.
    let bundle = site.join("pkg").join(&hash);
    let away = site.join("pkg").join("away");
    std::fs::rename(&bundle, &away).unwrap();
    for path in
        ["/ko/lessons/ddp-allreduce", "/ko/exercises/ddp-conversion", "/exercises/ddp-conversion"]
    {
        c.goto(&format!("{base}{path}")).await.unwrap();
        wait_for("the notice of a page that cannot work", || async {
            text(&c, "[data-role=app-error]").await.is_some()
        })
        .await;
        let said = text(&c, "[data-role=app-error]").await.unwrap();
        let (notice, reload) = if path.starts_with("/ko") {
            ("이 페이지에 문제가 생겨서", "페이지 새로고침")
        } else {
            ("Something went wrong on this page", "Reload the page")
        };
        assert!(said.starts_with(notice), "{path}: {said}");
        let link = c.find(Locator::Css("[data-role=app-error] a")).await.unwrap();
        assert_eq!(link.text().await.unwrap(), reload, "{path}");
        assert_eq!(link.attr("href").await.unwrap().as_deref(), Some(""), "{path}: this page");
    }

    // Back, and the notice's reload brings the page to life.
    std::fs::rename(&away, &bundle).unwrap();
    click(&c, &c.find(Locator::Css("[data-role=app-error] a")).await.unwrap()).await;
    wait_for_hydration(&c, "the page reloaded with its bundle").await;
    assert!(c.find_all(Locator::Css("[data-role=app-error]")).await.unwrap().is_empty());
    c.close().await.unwrap();
}
