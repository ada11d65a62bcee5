//! End to end in a real headless Chromium: the course index, a click through to lesson 2, the
//! lesson's title and a titled code block, then proof that the page hydrated (the contents
//! toggle and a copy button work, which needs the wasm bundle running).
//!
//! Needs the release browser bundle (`LOCKSTEP_SITE_ROOT`, built by `cargo xtask test`) and
//! Debian's chromium + chromium-driver. It fails, never skips, when they are missing.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use lockstep_server::{build_state, router, Config};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";
const WAIT: Duration = Duration::from_secs(20);

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn site_root() -> PathBuf {
    let root = std::env::var("LOCKSTEP_SITE_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/site"));
    assert!(
        root.join("pkg/lockstep_bg.wasm").exists(),
        "no browser bundle under {}: run the tests with `cargo xtask test`, which builds it",
        root.display()
    );
    root
}

async fn start_chromedriver() -> (Driver, String) {
    assert!(Path::new(CHROMEDRIVER).exists(), "{CHROMEDRIVER} is missing: `cargo xtask test` installs chromium-driver");
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let driver = Driver(child);
    let deadline = Instant::now() + WAIT;
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (driver, format!("http://127.0.0.1:{port}"))
}

async fn browser(webdriver: &str, profile: &Path) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1280,1600",
        &format!("--user-data-dir={}", profile.display()),
    ];
    let caps = serde_json::json!({
        "goog:chromeOptions": { "binary": CHROMIUM, "args": args },
    });
    let serde_json::Value::Object(caps) = caps else { unreachable!() };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(webdriver)
        .await
        .expect("connect to chromedriver")
}

/// Polls `check` until it holds or the deadline passes.
async fn wait_for<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + WAIT;
    while !check().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the browser bundle has hydrated the page (`App` sets `data-hydrated`).
async fn wait_for_hydration(c: &Client, what: &str) {
    wait_for(what, || async {
        c.execute("return document.documentElement.dataset.hydrated === 'true'", vec![]).await.unwrap()
            == serde_json::Value::Bool(true)
    })
    .await;
}

async fn text(c: &Client, css: &str) -> Option<String> {
    c.find(Locator::Css(css)).await.ok()?.text().await.ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn index_to_lesson_two_and_hydration() {
    let tmp = tempfile::tempdir().unwrap();
    let config = Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        lessons_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons"),
        site_root: site_root(),
        database_url: format!("sqlite://{}?mode=rwc", tmp.path().join("db.sqlite3").display()),
        watch_lessons: true,
    };
    let state = build_state(&config).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router(state)).await.unwrap() });

    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &tmp.path().join("profile")).await;

    c.goto(&base).await.unwrap();
    assert_eq!(text(&c, "h1").await.as_deref(), Some("Distributed training with PyTorch DDP"));
    // Wait for hydration so the click below is a client-side navigation through the router,
    // which fetches the lesson with a server function.
    wait_for_hydration(&c, "the index to hydrate").await;
    c.find(Locator::Css(r#"a[href="/lessons/dataparallel"]"#)).await.unwrap().click().await.unwrap();
    wait_for("lesson 2's title", || async {
        text(&c, "h1").await.as_deref() == Some("DataParallel and the master-GPU bottleneck")
    })
    .await;
    assert_eq!(c.current_url().await.unwrap().path(), "/lessons/dataparallel");
    assert_eq!(text(&c, ".lesson-position").await.as_deref(), Some("Lesson 02 of 06"));
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

    let artifacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/test-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let png = c.screenshot().await.unwrap();
    std::fs::write(artifacts.join("lesson-02.png"), png).unwrap();

    c.close().await.unwrap();
}
