//! The web server: axum serving the Leptos app, its server functions and static files.
//!
//! [`router`] builds the whole application from an [`AppState`] and does no IO of its own, so
//! tests drive it in-process; [`serve`] binds it to a socket. Configuration comes from the
//! environment ([`Config::from_env`]); everything has a default that works from the repository
//! root after `cargo xtask run` has built the browser bundle.

mod csrf;
mod quiz;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;
use leptos::prelude::*;
use leptos_axum::{file_and_error_handler_with_context, generate_route_list, LeptosRoutes};
use lockstep_course::live::LiveCourse;
use lockstep_course::{Course, CourseError};
use lockstep_store::{Store, StoreError};
use lockstep_web::ssr::AppContext;
use lockstep_web::{shell, App, OUTPUT_NAME};

#[derive(Debug, Clone)]
pub struct Config {
    pub addr: SocketAddr,
    pub lessons_dir: PathBuf,
    /// Built browser bundle and public files: `pkg/lockstep.js`, `pkg/lockstep_bg.wasm`, …
    pub site_root: PathBuf,
    pub database_url: String,
    /// Re-read lessons when their files change (on by default; off for immutable deployments).
    pub watch_lessons: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("invalid {name}=`{value}`: {reason}")]
    Config { name: &'static str, value: String, reason: String },
    #[error(transparent)]
    Course(#[from] CourseError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: std::io::Error },
    #[error("server stopped: {0}")]
    Serve(#[source] std::io::Error),
}

impl Config {
    /// `LOCKSTEP_ADDR`, `LOCKSTEP_LESSONS`, `LOCKSTEP_SITE_ROOT`, `DATABASE_URL`,
    /// `LOCKSTEP_WATCH_LESSONS` (`true`/`false`).
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
        let watch_text = var("LOCKSTEP_WATCH_LESSONS", "true");
        let watch_lessons = watch_text.parse().map_err(|_| ServerError::Config {
            name: "LOCKSTEP_WATCH_LESSONS",
            value: watch_text.clone(),
            reason: "expected true or false".into(),
        })?;
        Ok(Config {
            addr,
            lessons_dir: var("LOCKSTEP_LESSONS", "lessons").into(),
            site_root: var("LOCKSTEP_SITE_ROOT", "target/site").into(),
            database_url: var("DATABASE_URL", lockstep_store::DEFAULT_URL),
            watch_lessons,
        })
    }
}

#[derive(Clone)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub context: AppContext,
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
    let course = LiveCourse::open(&config.lessons_dir, config.watch_lessons, log_course)?;
    let store = Store::connect(&config.database_url).await?;
    let site_root = config.site_root.to_string_lossy().into_owned();
    if !config.site_root.join("pkg").join(format!("{OUTPUT_NAME}_bg.wasm")).exists() {
        // Pages still render; only interactivity is missing. Say so once, loudly.
        tracing::warn!(
            "no browser bundle under {site_root}/pkg: pages will work without JavaScript only \
             (build it with `cargo xtask run` or `cargo xtask build`)"
        );
    }
    let leptos_options = LeptosOptions::builder()
        .output_name(OUTPUT_NAME)
        .site_root(site_root)
        .site_pkg_dir("pkg")
        .site_addr(config.addr)
        .build();
    Ok(AppState { leptos_options, context: AppContext { course: Arc::new(course), store } })
}

/// The whole application. No IO happens here; tests call it directly.
pub fn router(state: AppState) -> Router {
    let routes = generate_route_list(App);
    let context = state.context.clone();
    let provide = move || provide_context(context.clone());
    let options = state.leptos_options.clone();
    Router::new()
        .route(lockstep_routes::QUIZ_ANSWERS_ROUTE, axum::routing::post(quiz::answer))
        .leptos_routes_with_context(&state, routes, provide.clone(), {
            let options = options.clone();
            move || shell(options.clone())
        })
        .fallback(file_and_error_handler_with_context::<AppState, _>(provide, shell))
        .layer(axum::middleware::from_fn(csrf::protect))
        .with_state(state)
}

/// Serves until Ctrl-C or SIGTERM, then finishes the requests in flight.
pub async fn serve(listener: tokio::net::TcpListener, app: Router) -> Result<(), ServerError> {
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown_signal())
        .await
        .map_err(ServerError::Serve)
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
