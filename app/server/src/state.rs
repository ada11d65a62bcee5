//! The server's state: how it is configured ([`Config`]), what every handler shares
//! ([`AppState`]) and how it is built from the configuration ([`build_state`]).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::FromRef;
use leptos::prelude::*;
use lockstep_course::live::LiveCourse;
use lockstep_course::{Course, CourseError};
use lockstep_pages::request_parts::RequestParts;
use lockstep_pages::AppContext;
use lockstep_routes::Languages;
use lockstep_rules::{LearnerCookie, Rules};
use lockstep_store::{Store, StoreError};
use lockstep_web::OUTPUT_NAME;

use crate::{assets, csrf, grading, publications, sessions};

#[derive(Debug, Clone)]
pub struct Config {
    pub addr: SocketAddr,
    pub lessons_dir: PathBuf,
    /// Built browser bundle and public files: `pkg/lockstep.js`, `pkg/lockstep_bg.wasm`, …
    pub site_root: PathBuf,
    pub database_url: String,
    /// Re-read lessons when their files change (on by default; off for immutable deployments).
    pub watch_lessons: bool,
    /// The address learners use, when it is not the one the server sees: behind a reverse
    /// proxy that rewrites `Host`, or TLS ended by the proxy. Its origin is trusted by the CSRF
    /// check, and an `https` URL makes the session cookie `Secure`.
    pub public_url: Option<String>,
    /// Take the client's address from the last `X-Forwarded-For` entry (only behind a proxy
    /// that sets it; otherwise clients could choose their address and dodge sign-in limits).
    pub trust_forwarded_for: bool,
    /// The grading queue's lease, retries and submission limit.
    pub lease_seconds: u32,
    pub retry_seconds: u32,
    pub submissions_per_hour: u32,
    /// Sign-ups one client address may make in an hour.
    pub sign_ups_per_hour: u32,
    /// The languages the site serves ([`Languages::VAR`], English and Korean by default).
    pub languages: Languages,
}

#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("invalid {name}=`{value}`: {reason}")]
    Config { name: &'static str, value: String, reason: String },
    #[error(transparent)]
    Course(#[from] CourseError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot open the session store: {0}")]
    Sessions(#[source] sqlx::Error),
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: std::io::Error },
    #[error("server stopped: {0}")]
    Serve(#[source] std::io::Error),
}

impl Config {
    /// `LOCKSTEP_ADDR`, `LOCKSTEP_LESSONS`, `LOCKSTEP_SITE_ROOT`, `DATABASE_URL`,
    /// `LOCKSTEP_WATCH_LESSONS` and `LOCKSTEP_TRUST_FORWARDED_FOR` (`true`/`false`),
    /// `LOCKSTEP_PUBLIC_URL`, `LOCKSTEP_LANGUAGES` (`en,ko`).
    pub fn from_env() -> Result<Config, ServerError> {
        let var =
            |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.to_string());
        let addr_text = var("LOCKSTEP_ADDR", "127.0.0.1:3000");
        let addr =
            addr_text.parse().map_err(|e: std::net::AddrParseError| ServerError::Config {
                name: "LOCKSTEP_ADDR",
                value: addr_text.clone(),
                reason: e.to_string(),
            })?;
        let flag = |name: &'static str, default: &str| {
            let text = var(name, default);
            text.parse::<bool>().map_err(|_| ServerError::Config {
                name,
                value: text.clone(),
                reason: "expected true or false".into(),
            })
        };
        let number = |name: &'static str, default: &str, min: u32| {
            let text = var(name, default);
            text.parse::<u32>().ok().filter(|n| *n >= min).ok_or_else(|| ServerError::Config {
                name,
                value: text.clone(),
                reason: format!("expected a whole number of at least {min}"),
            })
        };
        let public_url = std::env::var("LOCKSTEP_PUBLIC_URL").ok().filter(|u| !u.is_empty());
        if let Some(url) = &public_url {
            csrf::origin_of(url).ok_or_else(|| ServerError::Config {
                name: "LOCKSTEP_PUBLIC_URL",
                value: url.clone(),
                reason: "expected http://HOST[:PORT] or https://HOST[:PORT]".into(),
            })?;
        }
        let languages = Languages::of_environment(|k| std::env::var(k).ok()).map_err(|reason| {
            ServerError::Config {
                name: Languages::VAR,
                value: std::env::var(Languages::VAR).unwrap_or_default(),
                reason,
            }
        })?;
        Ok(Config {
            addr,
            lessons_dir: var("LOCKSTEP_LESSONS", "lessons").into(),
            site_root: var("LOCKSTEP_SITE_ROOT", "target/site").into(),
            database_url: var("DATABASE_URL", lockstep_store::DEFAULT_URL),
            watch_lessons: flag("LOCKSTEP_WATCH_LESSONS", "true")?,
            public_url,
            trust_forwarded_for: flag("LOCKSTEP_TRUST_FORWARDED_FOR", "false")?,
            lease_seconds: number("LOCKSTEP_LEASE_SECONDS", "60", 2)?,
            retry_seconds: number("LOCKSTEP_RETRY_SECONDS", "30", 0)?,
            submissions_per_hour: number("LOCKSTEP_SUBMISSIONS_PER_HOUR", "20", 1)?,
            sign_ups_per_hour: number("LOCKSTEP_SIGN_UPS_PER_HOUR", "30", 1)?,
            languages,
        })
    }

    /// Serving the lessons in `lessons_dir` from `database_url`, with every other setting at
    /// its default: what tests and tools start.
    pub fn local(lessons_dir: PathBuf, site_root: PathBuf, database_url: String) -> Config {
        Config {
            addr: "127.0.0.1:0".parse().expect("a valid address"),
            lessons_dir,
            site_root,
            database_url,
            watch_lessons: true,
            public_url: None,
            trust_forwarded_for: false,
            lease_seconds: 60,
            retry_seconds: 30,
            submissions_per_hour: 20,
            sign_ups_per_hour: 30,
            languages: Languages::default(),
        }
    }
}

#[derive(Clone)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub context: AppContext,
    /// Where the browser bundle is served: `/pkg/<hash>`.
    pub bundle: String,
    pub sessions: sessions::Sessions,
    /// `scheme://host[:port]` learners use, trusted by the CSRF check besides `Host`.
    pub public_origin: Option<String>,
    pub trust_forwarded_for: bool,
    pub sign_ups_per_hour: u64,
    pub languages: Languages,
    /// Pages kept per course version: lessons as templates, filled per request.
    pub pages: Arc<crate::kept::PageCache>,
    pub grading: Arc<grading::Grading>,
    /// Woken by every comment written through this process, so its live readers hear at once
    /// (other machines' comments are found by polling the database).
    pub talk: Arc<tokio::sync::Notify>,
    /// The comments, a request part of every lesson page, also served alone to live readers.
    pub comments: Arc<lockstep_pages::talk::CommentsPart>,
}

impl AppState {
    /// Takes back, every so often, the jobs whose lease ran out ([`grading`]'s reaper).
    pub fn spawn_reaper(&self) -> tokio::task::JoinHandle<()> {
        grading::spawn_reaper(self.context.store.clone(), self.grading.clone())
    }

    /// The application's rules, which every handler goes through to learn who is asking and
    /// to record progress.
    pub fn rules(&self) -> &Rules {
        &self.context.rules
    }
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos_options.clone()
    }
}

/// Logs every problem in the course: the same `file:line: message` lines `lessons check` prints.
fn log_course(course: &Course) {
    let ready = course.lessons.iter().filter(|l| l.problems().is_empty()).count();
    tracing::info!("course loaded: {ready} of {} lessons ready", course.lessons.len());
    for d in course.diagnostics() {
        tracing::error!("{d}");
    }
}

/// Loads the course and opens the database (applying migrations).
pub async fn build_state(config: &Config) -> Result<AppState, ServerError> {
    let course =
        LiveCourse::open(&config.lessons_dir, config.watch_lessons, &config.languages, log_course)?;
    // Made now rather than at the first search; made again when the course changes.
    let search = Arc::new(lockstep_search::LiveSearch::serving(config.languages.clone()));
    match search.of(&course.loaded()) {
        Ok(index) => tracing::info!("search index: {} sections", index.sections),
        Err(e) => tracing::error!("{e}"),
    }
    let store = Store::connect(&config.database_url).await?;
    // Before the first page: the course's lessons carry when they were published from it.
    let course = Arc::new(course);
    let seen = publications::sync(&store, &course).await?;
    publications::follow(store.clone(), Arc::downgrade(&course), seen);
    let sessions = sessions::Sessions::connect(&config.database_url, &store)
        .await
        .map_err(ServerError::Sessions)?;
    // On PostgreSQL, pages keep reads once this listens for other machines' writes.
    store.listen_for_writes()?;
    let site_root = config.site_root.to_string_lossy().into_owned();
    let bundle = assets::current_bundle(&config.site_root);
    if bundle.is_none() {
        // Pages still render; only interactivity is missing. Say so once, loudly.
        tracing::warn!(
            "no browser bundle under {site_root}/pkg: pages will work without JavaScript only \
             (build it with `cargo xtask run` or `cargo xtask build`)"
        );
    }
    let pkg_dir = bundle.map_or_else(|| "pkg".to_string(), |hash| format!("pkg/{hash}"));
    let leptos_options = LeptosOptions::builder()
        .output_name(OUTPUT_NAME)
        .site_root(site_root)
        .site_pkg_dir(pkg_dir.clone())
        .site_addr(config.addr)
        .build();
    let comments = Arc::new(lockstep_pages::talk::CommentsPart::default());
    Ok(AppState {
        leptos_options,
        context: AppContext {
            rules: Rules {
                course,
                store,
                learner_cookie: LearnerCookie { secure: is_https(config.public_url.as_deref()) },
            },
            request_parts: RequestParts::new(vec![comments.clone()]),
            search,
        },
        bundle: format!("/{pkg_dir}"),
        sessions,
        public_origin: config.public_url.as_deref().and_then(csrf::origin_of),
        trust_forwarded_for: config.trust_forwarded_for,
        sign_ups_per_hour: u64::from(config.sign_ups_per_hour),
        languages: config.languages.clone(),
        pages: Arc::default(),
        talk: Arc::default(),
        comments,
        grading: Arc::new(grading::Grading::new(
            i64::from(config.lease_seconds) * 1000,
            lockstep_store::RetryPolicy {
                base_delay_ms: i64::from(config.retry_seconds) * 1000,
                ..Default::default()
            },
            u64::from(config.submissions_per_hour),
        )),
    })
}

/// Whether learners reach the site over HTTPS, which makes its cookies `Secure` and `__Host-`.
pub(crate) fn is_https(public_url: Option<&str>) -> bool {
    public_url.is_some_and(|u| u.starts_with("https://"))
}
