//! The application in-process, through its router: no socket, no browser. What the router and
//! account tests share.

use std::path::{Path, PathBuf};
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use lockstep_server::{build_state, router, Config};
use tower::ServiceExt;

/// One runtime for every test in a test binary, and one test at a time. Leptos keeps process-wide
/// state (route ids, its executor); two routers built and rendering at once in one process, as
/// parallel tests would do, occasionally left a request waiting forever. A real server builds
/// one router, once, before it serves: `concurrent_requests_all_complete` checks that case
/// under concurrency.
static RUNTIME: std::sync::LazyLock<tokio::runtime::Runtime> = std::sync::LazyLock::new(|| {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
});
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub fn on_runtime<F: std::future::Future>(f: F) -> F::Output {
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    RUNTIME.block_on(f)
}

/// The lessons root as shipped: the catalogue of courses.
pub fn lessons_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons")
}

/// The shipped DDP course's folder: its lesson files, and its translations in `ko/`.
pub fn course_dir() -> PathBuf {
    lessons_root().join("ddp")
}

pub struct App {
    pub router: Router,
    _db: tempfile::TempDir,
}

pub async fn app(lessons_dir: &Path) -> App {
    let db = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", db.path().join("db.sqlite3").display());
    app_on(lessons_dir, &url, db).await
}

/// The app on the database at `url`; `dir` is kept for as long as the app.
pub async fn app_on(lessons_dir: &Path, url: &str, dir: tempfile::TempDir) -> App {
    app_configured(lessons_dir, url, dir, |_| {}).await
}

/// [`app_on`] with the local configuration changed by `change`.
pub async fn app_configured(
    lessons_dir: &Path,
    url: &str,
    dir: tempfile::TempDir,
    change: impl FnOnce(&mut Config),
) -> App {
    let mut config = Config::local(lessons_dir.to_path_buf(), dir.path().join("site"), url.into());
    change(&mut config);
    let state = build_state(&config).await.unwrap();
    App { router: router(state), _db: dir }
}

/// The app with `parts` on every lesson page, and the pages it keeps.
pub async fn app_with_parts(
    lessons_dir: &Path,
    parts: lockstep_pages::request_parts::RequestParts,
) -> (App, std::sync::Arc<lockstep_server::page_cache::PageCache>) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("db.sqlite3").display());
    let config = Config::local(lessons_dir.to_path_buf(), dir.path().join("site"), url);
    let mut state = build_state(&config).await.unwrap();
    state.context.request_parts = parts;
    let kept = state.pages.clone();
    (App { router: router(state), _db: dir }, kept)
}

/// A new, empty database on the PostgreSQL server the test command starts; its URL.
pub async fn postgres_database(name: &str) -> String {
    use sqlx::{Connection, Executor};
    let base = std::env::var("LOCKSTEP_TEST_POSTGRES_URL").expect(
        "LOCKSTEP_TEST_POSTGRES_URL is not set: run the tests through `cargo xtask test`, which \
         starts a PostgreSQL server for them",
    );
    let db = format!("t_{name}_{}", std::process::id());
    let mut admin = sqlx::PgConnection::connect(&base).await.unwrap();
    admin.execute(format!("DROP DATABASE IF EXISTS {db}").as_str()).await.unwrap();
    admin.execute(format!("CREATE DATABASE {db}").as_str()).await.unwrap();
    let (prefix, _) = base.rsplit_once('/').unwrap();
    format!("{prefix}/{db}")
}

pub struct Page {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: String,
}

pub async fn send(app: &App, req: Request<Body>) -> Page {
    let res = tokio::time::timeout(Duration::from_secs(30), app.router.clone().oneshot(req))
        .await
        .expect("the request completes")
        .unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let body = super::without_markers(std::str::from_utf8(&bytes).unwrap());
    Page { status, headers, body }
}

pub async fn get(app: &App, path: &str, cookie: Option<&str>) -> Page {
    let mut req = Request::get(path).header(header::ACCEPT, "text/html");
    if let Some(c) = cookie {
        req = req.header(header::COOKIE, c);
    }
    send(app, req.body(Body::empty()).unwrap()).await
}

/// The password the tests' accounts sign up with.
pub const PASSWORD: &str = "gradient buckets overlap";

/// A browser without JavaScript, just signed up as `email` (and so signed in).
pub async fn signed_up(app: &App, email: &str) -> Jar {
    let mut jar = Jar::default();
    let page =
        jar.submit(app, "/account/sign-up", &[("email", email), ("password", PASSWORD)]).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(jar.cookie("lockstep_session").is_some(), "signed in");
    jar
}

/// A browser without JavaScript: keeps the cookies the server sets (and forgets those it
/// expires), and posts forms from this site the way a browser does (`Origin`, `Sec-Fetch-Site`).
#[derive(Default, Clone)]
pub struct Jar {
    cookies: Vec<(String, String)>,
}

impl Jar {
    pub fn cookie(&self, name: &str) -> Option<&str> {
        self.cookies.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn header(&self) -> Option<String> {
        (!self.cookies.is_empty()).then(|| {
            self.cookies.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join("; ")
        })
    }

    fn keep(&mut self, page: &Page) {
        for set in page.headers.get_all(header::SET_COOKIE) {
            let set = set.to_str().unwrap();
            let (pair, attributes) = set.split_once(';').unwrap_or((set, ""));
            let (name, value) = pair.split_once('=').unwrap();
            self.cookies.retain(|(n, _)| n != name);
            let expired = attributes.to_ascii_lowercase().contains("max-age=0");
            if !expired {
                self.cookies.push((name.to_string(), value.to_string()));
            }
        }
    }

    /// Sets a cookie as an attacker who can write this site's cookies would.
    pub fn plant(&mut self, name: &str, value: &str) {
        self.cookies.retain(|(n, _)| n != name);
        self.cookies.push((name.to_string(), value.to_string()));
    }

    pub async fn get(&mut self, app: &App, path: &str) -> Page {
        let page = get(app, path, self.header().as_deref()).await;
        self.keep(&page);
        page
    }

    /// Posts a form from one of this site's pages; follows no redirect.
    pub async fn post(&mut self, app: &App, path: &str, form: &[(&str, &str)]) -> Page {
        let body: String =
            form_urlencoded::Serializer::new(String::new()).extend_pairs(form).finish();
        self.post_body(app, path, "application/x-www-form-urlencoded", body.into_bytes()).await
    }

    /// Posts JSON as this site's own scripts do (`fetch` from one of its pages).
    pub async fn post_json(&mut self, app: &App, path: &str, json: &serde_json::Value) -> Page {
        let body = serde_json::to_vec(json).unwrap();
        self.post_body(app, path, "application/json", body).await
    }

    /// Posts a `multipart/form-data` form, as a browser does with a file input: `fields`, then
    /// `file` (its name and bytes) as the `upload` field.
    pub async fn post_multipart(
        &mut self,
        app: &App,
        path: &str,
        fields: &[(&str, &str)],
        file: (&str, &[u8]),
    ) -> Page {
        const BOUNDARY: &str = "----lockstep-test-boundary";
        let mut body = Vec::new();
        for (name, value) in fields {
            body.extend_from_slice(
                format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
                    .as_bytes(),
            );
        }
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"{}\"\r\nContent-Type: text/x-python\r\n\r\n",
                file.0
            )
            .as_bytes(),
        );
        body.extend_from_slice(file.1);
        body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
        let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
        self.post_body(app, path, &content_type, body).await
    }

    async fn post_body(
        &mut self,
        app: &App,
        path: &str,
        content_type: &str,
        body: Vec<u8>,
    ) -> Page {
        let mut req = Request::post(path)
            .header(header::CONTENT_TYPE, content_type)
            .header(header::ACCEPT, "text/html")
            .header("sec-fetch-site", "same-origin")
            .header(header::REFERER, "http://localhost/");
        if let Some(c) = self.header() {
            req = req.header(header::COOKIE, c);
        }
        let page = send(app, req.body(Body::from(body)).unwrap()).await;
        self.keep(&page);
        page
    }

    /// Posts a form and loads the page it redirects to.
    pub async fn submit(&mut self, app: &App, path: &str, form: &[(&str, &str)]) -> Page {
        let res = self.post(app, path, form).await;
        self.follow(app, path, res).await
    }

    /// [`Jar::post_multipart`], then loads the page it redirects to.
    pub async fn submit_multipart(
        &mut self,
        app: &App,
        path: &str,
        fields: &[(&str, &str)],
        file: (&str, &[u8]),
    ) -> Page {
        let res = self.post_multipart(app, path, fields, file).await;
        self.follow(app, path, res).await
    }

    async fn follow(&mut self, app: &App, path: &str, res: Page) -> Page {
        assert!(res.status.is_redirection(), "{path} answered {}: {}", res.status, res.body);
        let to = res.headers[header::LOCATION].to_str().unwrap();
        let to = to.strip_prefix("http://localhost").unwrap_or(to).to_string();
        self.get(app, &to).await
    }
}

/// The fields that answer lesson 2's quiz with `answers`, as the learner of `cookie` (or a new
/// visitor) is shown it now.
pub async fn dataparallel_quiz(
    app: &App,
    cookie: Option<&str>,
    answers: &[(usize, usize)],
) -> Vec<(String, String)> {
    let page = get(app, "/lessons/dataparallel", cookie).await;
    super::quiz_form(&super::shown_quiz(&page.body, 0), "dataparallel", 0, answers)
}

/// Form fields as a urlencoded body.
pub fn form_body(fields: &[(String, String)]) -> String {
    form_urlencoded::Serializer::new(String::new()).extend_pairs(fields).finish()
}

impl Jar {
    /// [`dataparallel_quiz`] for this browser.
    pub async fn dataparallel_quiz(
        &mut self,
        app: &App,
        answers: &[(usize, usize)],
    ) -> Vec<(String, String)> {
        let page = self.get(app, "/lessons/dataparallel").await;
        super::quiz_form(&super::shown_quiz(&page.body, 0), "dataparallel", 0, answers)
    }
}

/// Owned fields as the `(&str, &str)` pairs [`Jar::post`] takes.
pub fn pairs(fields: &[(String, String)]) -> Vec<(&str, &str)> {
    fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}
