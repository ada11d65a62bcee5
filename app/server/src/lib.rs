//! The web server: axum serving the Leptos app, its server functions and static files.
//!
//! [`router`] builds the whole application from an [`AppState`] and does no IO of its own, so
//! tests drive it in-process; [`serve`] binds it to a socket. Configuration comes from the
//! environment ([`Config::from_env`]); everything has a default that works from the repository
//! root after `cargo xtask run` has built the browser bundle.
//!
//! # What is where
//!
//! The axum binary `lockstep`: `Config::from_env`, `AppState` and `build_state` (`state.rs`: loads
//! the course, connects the store), `router(state)` (pure, so tests drive it in-process) and
//! `serve` (with graceful shutdown); the answer to a form post, a redirect to the page it changed
//! (`redirect.rs`); the quiz answers' handler (`quiz.rs`), the account forms (`auth/`: handlers,
//! and `policy.rs`, the pure rules for emails, passwords and sign-in limits), sessions in the
//! platform's database (`sessions.rs`: tower-sessions' sqlx stores behind one enum), who is asking
//! as axum extractors (`requester.rs`: `Requester` for a browser, `ApiRequester` with a bearer
//! token first, `Instructor` and `Worker`, which refuse anyone else before the body is read), the
//! instructor's CSV downloads, answers to reports and comments setting (`instructor.rs`), the
//! comments' forms, the report form, the display name, notifications read, and the comments' live
//! side (`talk.rs`: the part's HTML for the requester and the stream of its place's version), the
//! reader's language (`language.rs`: `/` by the `lang` cookie the switcher sets, then
//! `Accept-Language`; the switcher `/language`; a form of a Korean page posted to its `/ko` twin,
//! routed as the English one and sent back to the Korean page; `PageLang`, the language a handler
//! was asked in), the pages kept per course version (`page_cache/`, what is kept in `kept.rs`:
//! lessons as templates filled per request, the catalogue, course pages and `/xp` whole for
//! anonymous visitors; all of the learners' view, so no kept page has a draft), `/sitemap.xml`
//! (`sitemap.rs`: the learners' view's courses and lessons in each language), the record of when
//! each lesson was first published (`publications.rs`: every app server records the lessons it
//! serves, the first record standing, and hands the course the record), `HttpError`, the one error
//! every handler answers with (`http_error.rs`: a refusal in words with its status, or a failure
//! logged with what the server was doing; JSON for the API, text for workers, a page of the site,
//! escaped, for a browser's form post), the CSRF check on every state-changing request (`csrf.rs`),
//! the security headers and each page's Content-Security-Policy with a fresh nonce (`headers.rs`),
//! server functions' refusals answered 4xx (`server_fn_status.rs`), the operators' `/healthz` and
//! `/metrics` (`monitor.rs`: Prometheus' text format, figures from `Store::figures`; and browsers'
//! crash reports, logged), grading (`grading/`: learners' submissions API and server-sent events in
//! `submissions.rs`, the editor's drafts in `drafts.rs`, the workers' API in `worker_api.rs`,
//! learners' terminal tokens in `tokens.rs`, and the reaper that takes back expired leases),
//! `lockstep admin …` (`admin.rs`, worker tokens included) and `lockstep submit` (`submit.rs`, the
//! terminal client, through `lockstep-client`). Every request runs in a tracing span named by a
//! request id the server makes (`trace.rs`, tower-http's trace layer; a client's `x-request-id` is
//! replaced), so each log line says which request it belongs to, and the response carries the id as
//! `x-request-id`.

pub mod admin;
mod assets;
mod auth;
mod csrf;
pub mod grading;
mod headers;
mod http_error;
mod instructor;
mod kept;
mod language;
mod monitor;
pub mod page_cache;
mod publications;
mod quiz;
mod redirect;
pub mod requester;
mod server_fn_status;
pub mod sessions;
mod sitemap;
mod state;
pub mod submit;
mod talk;
mod time_zone;
mod trace;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use leptos::prelude::*;
use leptos_axum::{file_and_error_handler_with_context, generate_route_list, LeptosRoutes};
use lockstep_routes::Lang;
use lockstep_web::{shell, App};

pub use state::{build_state, AppState, Config, ServerError};

/// The whole application. No IO happens here; tests call it directly.
pub fn router(state: AppState) -> Router {
    let routes = generate_route_list(App);
    let site = lockstep_web::ssr::Site {
        backend: Arc::new(state.context.clone()),
        bundle: state.bundle.clone(),
        public_origin: state.public_origin.clone(),
        languages: state.languages.clone(),
    };
    let provide = move || provide_context(site.clone());
    let options = state.leptos_options.clone();
    let secure = state::is_https(state.public_origin.as_deref());
    let sessions = state.sessions.layer(secure);
    let csrf = axum::middleware::from_fn_with_state(state.public_origin.clone(), csrf::protect);
    let pages = Router::new()
        .leptos_routes_with_context(&state, routes, provide.clone(), {
            let options = options.clone();
            move || shell(options.clone())
        })
        .fallback(file_and_error_handler_with_context::<AppState, _>(provide, shell))
        .layer(axum::middleware::from_fn(server_fn_status::refusals_are_4xx))
        .with_state(state.clone());
    let kept = page_cache::CacheState { app: state.clone(), pages: pages.clone() };
    use axum::routing::{get, post};
    use grading::{pilots, submissions, worker_api};
    use lockstep_routes as r;
    let app = Router::new()
        .route(r::SUBMISSIONS_API, post(submissions::create).get(submissions::list))
        .route(r::DRAFTS_API, post(grading::drafts::save))
        .route(r::SUBMISSION_API, get(submissions::show))
        .route(r::SUBMISSION_EVENTS_API, get(submissions::events))
        .route(r::SUBMISSION_CANCEL_API, post(submissions::cancel))
        .route(r::SUBMISSION_RERUN_API, post(submissions::rerun))
        .route(r::API_TOKEN, post(grading::tokens::create_learner_token))
        .route(r::WORKER_CLAIM_API, post(worker_api::claim))
        .route(r::WORKER_RENEW_API, post(worker_api::renew))
        .route(r::WORKER_EVENTS_API, post(worker_api::event))
        .route(r::WORKER_VERDICT_API, post(worker_api::verdict))
        .route(r::WORKER_FAILURE_API, post(worker_api::failure))
        .route(r::WORKER_PILOTS_API, post(pilots::report))
        // Pages link the SVG icon; browsers and crawlers that ask for the ICO anyway get it.
        .route(
            "/favicon.ico",
            get(|| async { axum::response::Redirect::permanent("/favicon.svg") }),
        )
        .route(r::CLIENT_ERRORS_API, post(monitor::client_error))
        .route(r::HEALTHZ, get(monitor::healthz))
        .route(r::METRICS, get(monitor::metrics))
        .route(lockstep_routes::QUIZ_ANSWERS_ROUTE, axum::routing::post(quiz::answer))
        .route(r::LANGUAGE, get(language::switch).with_state(state.languages.clone()))
        .route(r::SITEMAP, get(sitemap::sitemap))
        .route(r::COMMENTS, post(talk::post))
        .route(r::COMMENT_ACTION, post(talk::act))
        .route(r::COMMENTS_API, get(talk::part))
        .route(r::COMMENTS_EVENTS_API, get(talk::events))
        .route(r::DISPLAY_NAME, post(talk::set_name))
        .route(r::NOTIFICATIONS_READ, post(talk::read))
        .route(r::REPORTS, post(talk::report))
        .route(r::NOTIFICATIONS_API, get(talk::unread))
        .route(lockstep_routes::SIGN_UP, axum::routing::post(auth::sign_up))
        .route(lockstep_routes::SIGN_IN, axum::routing::post(auth::sign_in))
        .route(lockstep_routes::SIGN_OUT, axum::routing::post(auth::sign_out))
        .route(lockstep_routes::CHANGE_PASSWORD, axum::routing::post(auth::change_password))
        .route(
            lockstep_routes::INSTRUCTOR_LEARNERS_CSV,
            axum::routing::get(instructor::learners_csv),
        )
        .route(
            lockstep_routes::INSTRUCTOR_QUESTIONS_CSV,
            axum::routing::get(instructor::questions_csv),
        )
        .route(lockstep_routes::INSTRUCTOR_REPORTS_CSV, get(instructor::reports_csv))
        .route(lockstep_routes::INSTRUCTOR_REPORT, post(instructor::answer_report))
        .route(lockstep_routes::INSTRUCTOR_SETTINGS, post(instructor::settings));
    // Each language's home is `/ko`; the slash form a reader may type goes there.
    let app = state.languages.iter().filter_map(Lang::segment).fold(app, |app, code| {
        let home = format!("/{code}");
        let to = move || {
            let home = home.clone();
            async move { axum::response::Redirect::permanent(&home) }
        };
        app.route(&format!("/{code}/"), get(to))
    });
    let app = app
        // The pages and server functions.
        .fallback_service(pages)
        .layer(axum::middleware::from_fn_with_state(kept, page_cache::serve))
        // Before the kept pages: `/` may send the reader to their language's home.
        .layer(axum::middleware::from_fn_with_state(state.languages.clone(), language::choose_home))
        // Before anything records XP: the day it is counted on is in the reader's zone.
        .layer(axum::middleware::from_fn_with_state(state.clone(), time_zone::remember))
        // Every route, server functions included, sees the session (leptos_axum::extract
        // needs it as an extension) and the CSRF check, which runs first.
        .layer(sessions)
        .layer(csrf)
        // Every answer, a refused one included, carries the security headers.
        .layer(axum::middleware::from_fn(headers::secure))
        .layer(axum::middleware::from_fn(assets::cache_control))
        // Outermost: whatever happens to a request is logged under its id.
        .layer(trace::layer())
        .layer(axum::middleware::from_fn(trace::assign_id))
        .with_state(state.clone());
    // A form of a Korean page posts to its `/ko` twin: routed as the English one, its
    // redirect back lands on the Korean page (`language::forms_in_their_language`). Outside
    // the routes, because it changes which one matches.
    let languages = state.languages.clone();
    let forms = tower::ServiceBuilder::new()
        .layer(axum::middleware::from_fn(language::local_redirects_only))
        .layer(axum::middleware::from_fn_with_state(languages, language::forms_in_their_language))
        .service(app);
    // Outermost, so every answer is compressed as it is finally sent (its page's nonce already
    // in it); event streams, images and files already compressed are left as they are.
    // Brotli or gzip at level 4, a middle level, as pages are compressed on every request: a
    // Korean lesson of 90,629 B went out as 19,391 B (Brotli) or 23,069 B (gzip).
    let compression = tower_http::compression::CompressionLayer::new()
        .quality(tower_http::compression::CompressionLevel::Precise(4));
    Router::new().fallback_service(forms).layer(compression)
}

/// Serves until Ctrl-C or SIGTERM, then finishes the requests in flight.
pub async fn serve(listener: tokio::net::TcpListener, app: Router) -> Result<(), ServerError> {
    // The peer's address feeds the per-address sign-in limit.
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
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
