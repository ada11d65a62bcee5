//! What the browser tests share: the server on a free port, chromedriver, a headless Chromium
//! session, and waiting for the page.
#![allow(dead_code)] // Each test binary uses its own subset.

pub mod api;
pub mod in_process;

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use lockstep_server::{build_state, router, Config};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";
pub const WAIT: Duration = Duration::from_secs(20);

/// chromedriver, in a process group of its own with the Chromium it starts. Dropping it kills
/// the whole group: a test that panics before closing its browser would otherwise leave
/// Chromium running, and its busy renderer spoils the timed grading tests that come later.
pub struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

pub fn site_root() -> PathBuf {
    let root = std::env::var("LOCKSTEP_SITE_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/site"));
    let current = std::fs::read_to_string(root.join("pkg/current")).unwrap_or_default();
    assert!(
        root.join("pkg").join(current.trim()).join("lockstep_bg.wasm").is_file(),
        "no browser bundle under {}: run the tests with `cargo xtask test`, which builds it",
        root.display()
    );
    root
}

pub async fn start_chromedriver() -> (Driver, String) {
    assert!(
        Path::new(CHROMEDRIVER).exists(),
        "{CHROMEDRIVER} is missing: `cargo xtask test` installs chromium-driver"
    );
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .process_group(0)
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

/// A headless Chromium; `extra` adds switches such as `--force-prefers-reduced-motion`.
pub async fn browser(webdriver: &str, profile: &Path, extra: &[&str]) -> Client {
    let mut args = vec![
        "--headless".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--no-first-run".into(),
        "--window-size=1280,1600".into(),
        format!("--user-data-dir={}", profile.display()),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
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
pub async fn wait_for<F, Fut>(what: &str, mut check: F)
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

/// Waits until the browser bundle has hydrated the page (the hydrate crate sets `data-hydrated`
/// once hydration, the route's lazily loaded part included, has finished), and every simulation
/// the page shows is drawn live: a simulation is drawn live once it comes near the view, so,
/// once the page has stopped scrolling on its own, each is scrolled to and kept in view until it
/// is, and the page scrolled back to where it was.
pub async fn wait_for_hydration(c: &Client, what: &str) {
    wait_for_hydration_only(c, what).await;
    const NEAR_EACH: &str = r#"
        const done = arguments[arguments.length - 1];
        const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
        (async () => {
            // A page opened at a fragment scrolls there smoothly (the site's `scroll-behavior`),
            // and that scroll would carry the page away from a simulation scrolled to meanwhile:
            // wait until the page is at rest first.
            let [last, still] = [NaN, 0];
            const calm = performance.now() + 5000;
            while (still < 5 && performance.now() < calm) {
                await frame();
                [last, still] = scrollY === last ? [last, still + 1] : [scrollY, 0];
            }
            const [x, y] = [window.scrollX, window.scrollY];
            const waiting = [...document.querySelectorAll('section.sim:not([data-live])')]
                .filter(s => s.getClientRects().length > 0);
            for (const s of waiting) {
                // In view until it is drawn live (or a while has passed): on a busy machine the
                // observer may not be told it is near within a frame or two, and scrolled away
                // again it never would be.
                const until = performance.now() + 5000;
                do {
                    const r = s.getBoundingClientRect();
                    if (r.bottom < 0 || r.top > innerHeight) {
                        s.scrollIntoView({ block: 'center', behavior: 'instant' });
                    }
                    await frame();
                } while (!s.hasAttribute('data-live') && performance.now() < until);
            }
            if (waiting.length) window.scrollTo({ left: x, top: y, behavior: 'instant' });
            done(waiting.length);
        })();
    "#;
    c.execute_async(NEAR_EACH, vec![]).await.unwrap();
    wait_for(&format!("{what}: its simulations drawn live"), || async {
        let script = "return [...document.querySelectorAll('section.sim:not([data-live])')]\
                      .filter(s => s.getClientRects().length > 0).length";
        c.execute(script, vec![]).await.unwrap() == serde_json::json!(0)
    })
    .await;
}

/// Waits until the browser bundle has hydrated the page, and for nothing else: the simulations
/// out of view are still the server's drawing.
pub async fn wait_for_hydration_only(c: &Client, what: &str) {
    wait_for(what, || async {
        c.execute("return document.documentElement.dataset.hydrated === 'true'", vec![])
            .await
            .unwrap()
            == serde_json::Value::Bool(true)
    })
    .await;
}

/// From now on, keeps the page's uncaught errors and rejected promises for [`page_errors`].
pub async fn catch_page_errors(c: &Client) {
    c.execute(
        "window.__errors = []; \
         addEventListener('error', e => __errors.push(String(e.message))); \
         addEventListener('unhandledrejection', e => __errors.push(String(e.reason)));",
        vec![],
    )
    .await
    .unwrap();
}

/// The errors the page has had since [`catch_page_errors`].
pub async fn page_errors(c: &Client) -> serde_json::Value {
    c.execute("return window.__errors", vec![]).await.unwrap()
}

pub async fn text(c: &Client, css: &str) -> Option<String> {
    c.find(Locator::Css(css)).await.ok()?.text().await.ok()
}

/// Fills in the account page's sign-up or sign-in form and waits for the course page it leads
/// to.
pub async fn sign(c: &fantoccini::Client, base: &str, form: &str, email: &str, password: &str) {
    c.goto(&format!("{base}/account")).await.unwrap();
    wait_for_hydration(c, "the account page").await;
    let field = |name: &str| format!("form[data-role={form}] input[name={name}]");
    c.find(Locator::Css(&field("email"))).await.unwrap().send_keys(email).await.unwrap();
    c.find(Locator::Css(&field("password"))).await.unwrap().send_keys(password).await.unwrap();
    let submit = c.find(Locator::Css(&format!("form[data-role={form}] button"))).await.unwrap();
    click(c, &submit).await;
    wait_for("the course page after signing in", || async {
        text(c, "[data-role=sync]").await.is_some_and(|t| t.contains("Signed in as"))
    })
    .await;
}

/// Serves the real course with a fresh database on a free port; returns its base URL.
pub async fn serve_course(db_dir: &Path) -> String {
    serve_course_on(&format!("sqlite://{}?mode=rwc", db_dir.join("db.sqlite3").display())).await
}

/// Serves the real course from the database at `url` on a free port; returns its base URL.
pub async fn serve_course_on(url: &str) -> String {
    serve_lessons(&in_process::lessons_root(), url).await
}

/// Serves the lessons root `root` from the database at `url` on a free port; returns its base
/// URL.
pub async fn serve_lessons(root: &Path, url: &str) -> String {
    serve_configured(root, url, |_| {}).await
}

/// [`serve_lessons`] with the local configuration changed by `change`.
pub async fn serve_configured(root: &Path, url: &str, change: impl FnOnce(&mut Config)) -> String {
    let mut config = Config::local(root.to_path_buf(), site_root(), url.to_string());
    change(&mut config);
    let state = build_state(&config).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { lockstep_server::serve(listener, router(state)).await.unwrap() });
    base
}

/// A lessons root of two courses: the shipped DDP course linked in, and a copy of the tests'
/// second course (`tests/data/second-course/fsdp`: a published lesson, `why-shard`, and a
/// draft, `fsdp-wrapping`), which a test may edit.
pub fn two_courses() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(in_process::course_dir(), root.path().join("ddp")).unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/second-course/fsdp");
    std::fs::create_dir(root.path().join("fsdp")).unwrap();
    for entry in std::fs::read_dir(data).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), root.path().join("fsdp").join(entry.file_name())).unwrap();
    }
    root
}

/// Where browser tests leave screenshots and figures.
pub fn artifacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/test-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Steps the simulation `sim` (its `data-sim` name) by hand to its last step, as a learner
/// clicks through it.
pub async fn step_to_the_end(c: &Client, sim: &str) {
    let next = c.find(Locator::Css(&format!("[data-sim={sim}] .sim-step"))).await.unwrap();
    for _ in 0..20 {
        if next.attr("aria-disabled").await.unwrap().as_deref() == Some("true") {
            break;
        }
        click(c, &next).await;
    }
}

/// Clicks like a learner, after bringing the control to the middle of the window at once (the
/// site scrolls smoothly, and WebDriver would click before the scroll ends) and once nothing
/// covers it. The page may still move after the scroll: Chromium goes back to the address's
/// `#anchor` when the layout above it changes (a late font, a panel filled in), and a control
/// scrolled to the middle can end up under the sticky header. A learner clicks where the
/// control is; so does this, for up to two seconds, and then fails saying what covered it.
pub async fn click(c: &Client, e: &Element) {
    const CENTRE_AND_LOOK: &str = "const e = arguments[0];
        e.scrollIntoView({block: 'center', behavior: 'instant'});
        const r = e.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return at !== null && (at === e || e.contains(at));";
    let e_json = vec![serde_json::to_value(e).unwrap()];
    let mut last = None;
    for _ in 0..40 {
        let clear = c.execute(CENTRE_AND_LOOK, e_json.clone()).await.unwrap();
        if clear.as_bool() == Some(true) {
            match e.click().await {
                Ok(()) => return,
                Err(fantoccini::error::CmdError::Standard(w))
                    if w.error == fantoccini::error::ErrorStatus::ElementClickIntercepted =>
                {
                    last = Some(w.message.to_string())
                }
                Err(other) => panic!("clicking: {other}"),
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the control stayed covered for two seconds: {last:?}");
}

/// The real server binary on `port`, so that it can be killed like a crashed machine, or run
/// twice against one database like two app machines.
pub struct ServerProcess(pub Child);

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `lockstep` serving the real course from `url` with 10-second leases, and waits until
/// it listens.
pub async fn server_process(site_root: &Path, url: &str, port: u16) -> ServerProcess {
    server_process_with(site_root, url, port, &[]).await
}

/// [`server_process`] with more settings (`LOCKSTEP_…` variables).
pub async fn server_process_with(
    site_root: &Path,
    url: &str,
    port: u16,
    settings: &[(&str, &str)],
) -> ServerProcess {
    let child = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .env("DATABASE_URL", url)
        .env("LOCKSTEP_ADDR", format!("127.0.0.1:{port}"))
        .env("LOCKSTEP_LESSONS", Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons"))
        .env("LOCKSTEP_SITE_ROOT", site_root)
        .env("LOCKSTEP_LEASE_SECONDS", "10")
        .env("RUST_LOG", "warn")
        .envs(settings.iter().copied())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the server did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    ServerProcess(child)
}

/// Lesson 2's quiz (`dataparallel`, quiz 0) answered right: (question, option) with options
/// numbered as the lesson lists them. The page shows them shuffled, so a test reads the
/// positions off the page with [`quiz_form`].
pub const DATAPARALLEL_RIGHT: &[(usize, usize)] = &[(0, 1), (1, 0), (2, 0), (2, 1), (2, 2), (3, 0)];
/// The same quiz with question 0 answered wrong and nothing else.
pub const DATAPARALLEL_WRONG: &[(usize, usize)] = &[(0, 0)];

/// A quiz as a page shows it: the attempt its form answers, and per option label (field name,
/// value, text).
#[derive(Debug)]
pub struct ShownQuiz {
    pub attempt: String,
    /// `learner` or `visitor`: whose order of options the page shows.
    pub order: String,
    pub options: Vec<(String, String, String)>,
}

/// Quiz `index` as the server's HTML `page` shows it.
pub fn shown_quiz(page: &str, index: u32) -> ShownQuiz {
    let section = page
        .split(&format!(r#"id="quiz-{index}""#))
        .nth(1)
        .expect("the quiz on the page")
        .split("</section>")
        .next()
        .unwrap();
    let attr = |s: &str, name: &str| -> String {
        s.split(&format!(r#"{name}=""#)).nth(1).unwrap().split('"').next().unwrap().to_string()
    };
    let form = section.split("<form").nth(1).expect("the quiz form");
    let attempt = attr(form.split(r#"name="attempt""#).nth(1).unwrap(), "value");
    let order = attr(form.split(r#"name="order""#).nth(1).unwrap(), "value");
    let options = form
        .split(r#"<label class="quiz-option">"#)
        .skip(1)
        .map(|label| {
            let label = label.split("</label>").next().unwrap();
            let input = label.split("<input").nth(1).unwrap();
            let text = label
                .split(r#"<span class="course-text">"#)
                .nth(1)
                .unwrap()
                .split("</span>")
                .next()
                .unwrap();
            (attr(input, "name"), attr(input, "value"), plain_text(text))
        })
        .collect();
    ShownQuiz { attempt, order, options }
}

/// A page's HTML as the tests read it: without the empty comments (`<!>`) that Leptos writes
/// after text nodes for hydration, with components erased. They are bookkeeping, not content,
/// and would split every string a test looks for at a text's end (`<h1>Title<!></h1>`).
pub fn without_markers(html: &str) -> String {
    html.replace("<!>", "")
}

/// The text of some HTML: tags dropped, the usual entities decoded.
pub fn plain_text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
        .trim()
        .to_string()
}

/// The form fields that answer quiz `index` of lesson `slug` with `answers` ((question,
/// option), options as the lesson lists them), through the order `shown` has them in.
pub fn quiz_form(
    shown: &ShownQuiz,
    slug: &str,
    index: u32,
    answers: &[(usize, usize)],
) -> Vec<(String, String)> {
    quiz_form_in(shown, slug, index, answers, &in_process::course_dir())
}

/// [`quiz_form`] for the course in `dir` (its Korean edition: `course_dir()/ko`).
pub fn quiz_form_in(
    shown: &ShownQuiz,
    slug: &str,
    index: u32,
    answers: &[(usize, usize)],
    dir: &std::path::Path,
) -> Vec<(String, String)> {
    let course = lockstep_course::load(dir).unwrap();
    let quiz = course
        .find(slug)
        .and_then(|(_, l)| l.ready())
        .and_then(|l| {
            l.body
                .iter()
                .filter_map(|b| match b {
                    lockstep_course::Block::Quiz(q) => Some(q),
                    _ => None,
                })
                .nth(index as usize)
        })
        .expect("the quiz in the course");
    let mut fields = vec![
        ("attempt".to_string(), shown.attempt.clone()),
        ("order".to_string(), shown.order.clone()),
    ];
    for &(q, o) in answers {
        let text = plain_text(&quiz.questions[q].options[o].text_html);
        let name = format!("q{q}");
        let (_, value, _) =
            shown.options.iter().find(|(n, _, t)| *n == name && *t == text).unwrap_or_else(|| {
                panic!("option {o} of question {q} ({text}) on the page: {shown:?}")
            });
        fields.push((name, value.clone()));
    }
    fields
}
