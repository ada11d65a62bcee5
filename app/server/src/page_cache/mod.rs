//! Pages kept between requests, under the freshness rule ("Freshness: what a page may reuse",
//! below): what is the same for everyone is kept per course version, a learner's parts are rendered
//! per request (from what the store keeps of them), and a request part is rendered on every
//! response. One middleware serves both kinds of kept page:
//!
//! - a lesson (`GET /lessons/<slug>`): rendered once per course version as a template
//!   (`lockstep_web::template`). An anonymous visitor (no learner or session cookie) gets
//!   it with the anonymous learner's parts, rendered once; anyone else with their own; and
//!   every response gets the page's request parts fresh (`lockstep_web::ssr::request_parts`).
//! - the index and `/xp` for anonymous visitors: kept whole. A render that has a request part
//!   in it is never kept whole: it is rendered afresh for every request instead.
//!
//! Nothing here can keep a request part filled: a template keeps it as a placeholder, and only
//! [`Template::fill`], on the way out of each response, writes it. Entries remember the course
//! they were rendered from; a live reload makes a new course, and the next request renders
//! afresh. A query string, a lesson that is missing or broken, and anything that fails here go
//! to the full render, whose request parts are written in here too (as are an exercise
//! page's).
//!
//! # Freshness: what a page may reuse
//!
//! Every part of a page is one of three kinds, and may be kept only as long as its kind allows:
//!
//! | kind | what | kept |
//! |---|---|---|
//! | per course version | the lesson's HTML and its simulations' first state, the catalogue, a course's page, `/xp`'s rules and levels, a lesson page's template and its anonymous variant, a whole catalogue, course page or `/xp` for a reader without cookies (all in `page_cache/`; only ever of the learners' view) | until a lesson file changes or a lesson is published: each entry holds the `Arc<Course>` it was made from and is used only while that is `LiveCourse::current()` |
//! | per learner | progress, completion, quiz reviews, the account, the session record | in this process between writes (`Store::cached`, `read_cache.rs`, `sessions.rs`): its own, and on PostgreSQL every machine's, announced with `NOTIFY` (nothing kept while not listening); never for a request that decides or records |
//! | per place version | the comments at a place (`lockstep_pages::talk`, `Kept`): rendered once for visitors, and once for any signed-in learner with holes where each reader's own bits go (which threads they follow, edit and delete on their comments); by place, language, the version read from the database on every request, and the minute | until a comment there changes (any app machine's write raises the version), and a minute at most: how long ago each was written, an author's name or level may be that old |
//! | per request | the nonce, the request id, a one-time notice or form error taken from the session, the request parts of lesson and exercise pages (`lockstep_pages::request_parts`: the comments, `lockstep_pages::talk`, a reader's own bits filled into the kept rendering; an instructor's, or that of a learner with a hidden or held comment there or a refused text to show again, rendered whole) | never |
//!
//! The page caches are one module, `app/server/src/page_cache/`, and what it keeps cannot hold a
//! per-request part. A lesson page names its request parts (`LessonView::request_parts`, from the
//! `RequestParts` the server was built with: the comments) and draws each as an empty `<section
//! data-part=NAME class="request-part">`; rendered for keeping, the place is a `<template
//! data-slot="request:NAME">` placeholder, which only `Template::fill` writes, on every response,
//! for anonymous visitors too (their variant of the template has their learner's parts written in
//! once and keeps the request parts as placeholders; with none, it is served as bytes). A page
//! rendered in full (a query string, an exercise page) has its sections filled by the same
//! middleware on the way out. Hydration leaves what the server wrote in the section alone
//! (`inner_html` is not set again on hydration); a page reached by client-side navigation has the
//! section empty, and the browser fetches its HTML from the server (`talk_live.rs`). The index and
//! `/xp` are kept whole only when their render has no request part. The nonce is written into each
//! response by `headers.rs`, after the cache. `router.rs`'s
//! `a_request_part_is_fresh_on_every_request_while_the_lesson_stays_kept` registers a part and
//! checks it differs on every response, for visitors and learners, while the lesson is rendered
//! once and the page equals a full render around it.
//!
//! # Lesson pages from a template
//!
//! A lesson page is two resources: `get_lesson` (the lesson, the same for everyone) and
//! `get_lesson_learner` (`LessonLearner`: progress, completion, quiz reviews). The parts of the
//! page drawn from the second are `LearnerPart`s (the progress panel and toast, each quiz, the
//! completion section), all drawn by one function, `learner_part`. `page_cache/` renders each
//! lesson once per course version through the app's own pages with `RenderTemplate` on the request,
//! which makes every part a `<template data-slot>` placeholder and the learner an anonymous one;
//! `lockstep_web::template` cuts that HTML at the placeholders and at the learner's serialized
//! resource. Each `GET /lessons/<slug>` then resolves the requester, computes their
//! `LessonLearner`, renders only the parts and writes the resource as `hydration_context` does, and
//! marks the response `x-lockstep-page: filled`. A router test checks, for a new visitor, a learner
//! with reviews and a notice, and a signed-in learner, that the filled page equals the full render
//! (a query string asks for one) byte for byte. Missing or broken lessons, and any failure to fill,
//! go to the full render.
//!
//! # Anonymous pages
//!
//! A request without the learner or session cookie gets a lesson from the template's anonymous
//! variant, and `/` and `/xp` from bytes kept whole; each entry holds the `Arc<Course>` it was
//! rendered from, so a live reload makes a new course and the next request renders afresh. Requests
//! with a query, and responses that set a cookie or are not 200, go past it.

use std::convert::Infallible;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use leptos::prelude::ServerFnError;
use lockstep_course::{Course, LessonEntry};
use lockstep_pages::page_models::Viewer;
use lockstep_pages::request_parts::PartRequest;
use lockstep_routes::Place;
use lockstep_rules::{flash, Reads, Requester, RulesError};
use lockstep_web::model::{LessonLearner, LessonLookup};
use lockstep_web::ssr::request_parts;
use lockstep_web::template::{RenderTemplate, Template, TemplateError};
use lockstep_web::Lang;
use tower::ServiceExt;
use tower_sessions::Session;

pub use crate::kept::PageCache;
use crate::kept::{Kept, Lesson, Whole};
use crate::state::AppState;

/// Marks a lesson page filled from its template, for operators and tests (like `X-Cache`).
pub const FILLED: (&str, &str) = ("x-lockstep-page", "filled");

/// The pages whole for anonymous visitors, besides lessons and course pages.
const WHOLE_PAGES: [&str; 2] = [lockstep_routes::HOME, lockstep_routes::XP];

/// What the middleware needs: the app, and its pages to render with.
#[derive(Clone)]
pub struct CacheState {
    pub app: AppState,
    pub pages: Router,
}

#[derive(Debug, thiserror::Error)]
enum PageError {
    #[error("rendering the template answered {0}")]
    Status(StatusCode),
    #[error("reading the template: {0}")]
    Body(#[from] axum::Error),
    #[error("the template is not UTF-8")]
    Utf8(#[from] std::string::FromUtf8Error),
    #[error("the lesson went away while its template rendered")]
    Gone,
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error("the learner's part: {0}")]
    Learner(ServerFnError),
    #[error("request part `{0}`: {1}")]
    RequestPart(String, String),
}

pub async fn serve(State(state): State<CacheState>, req: Request, next: Next) -> Response {
    if req.method() != Method::GET {
        return next.run(req).await;
    }
    let anonymous = !personal(req.headers());
    let loaded = state.app.context.course.loaded();
    // Kept pages are of this version of the course, whatever their language.
    let course = loaded.course.clone();
    let path = req.uri().path();
    let lang = Lang::of_path(path);
    let english = Lang::strip(path);
    let place = place_of(english);
    let session = req.extensions().get::<Session>().cloned();
    if let (Some(Place::Lesson(slug)), None) = (&place, req.uri().query()) {
        let edition = loaded.edition(lang);
        if matches!(edition.course.find(slug), Some((_, LessonEntry::Ready(_)))) {
            let page =
                lesson_page(&state, &course, lang, slug, anonymous, session.clone(), req.headers())
                    .await;
            match page {
                Ok(page) => return page,
                Err(e) => {
                    tracing::error!("lesson `{slug}` from its template: {e}; rendering it in full")
                }
            }
        }
    }
    let whole = WHOLE_PAGES.contains(&english) || lockstep_routes::course_slug(english).is_some();
    if anonymous && req.uri().query().is_none() && whole {
        return whole_page(&state.app, &course, req, next).await;
    }
    let Some(place) = place else { return next.run(req).await };
    // A page rendered in full has its request parts' places empty: filled here, as a kept
    // lesson's are.
    let headers = req.headers().clone();
    let response = next.run(req).await;
    match fill_full_render(&state.app, response, &place, lang, session.as_ref(), &headers).await {
        Ok(response) => response,
        Err(e) => {
            tracing::error!("request parts of `{}`: {e}", place.key());
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// The place of a page that has request parts: a lesson or an exercise.
fn place_of(english: &str) -> Option<Place> {
    if let Some(slug) = lockstep_routes::lesson_slug(english) {
        return Some(Place::Lesson(slug.to_string()));
    }
    let id = english.strip_prefix(&lockstep_routes::exercise(""))?;
    lockstep_routes::is_exercise_id(id).then(|| Place::Exercise(id.to_string()))
}

/// Writes the request parts into a page rendered in full, where it left their places empty.
async fn fill_full_render(
    state: &AppState,
    response: Response,
    place: &Place,
    lang: Lang,
    session: Option<&Session>,
    headers: &HeaderMap,
) -> Result<Response, PageError> {
    let html = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    if response.status() != StatusCode::OK || !html {
        return Ok(response);
    }
    let (parts, body) = response.into_parts();
    let mut page = String::from_utf8(axum::body::to_bytes(body, usize::MAX).await?.to_vec())?;
    let names = state.context.request_parts.names();
    if names.iter().any(|n| page.contains(&request_parts::section(n, ""))) {
        let requester = state.rules().requester_reading(Reads::Kept, session, headers).await?;
        for name in names {
            let empty = request_parts::section(&name, "");
            let Some(at) = page.find(&empty) else { continue };
            let Some(part) = state.context.request_parts.find(&name) else { continue };
            let request =
                PartRequest { rules: state.rules(), place, lang, requester: &requester, session };
            let html =
                part.html(request).await.map_err(|e| PageError::RequestPart(name.clone(), e))?;
            page.replace_range(at..at + empty.len(), &request_parts::section(&name, &html));
        }
    }
    let mut response = Response::from_parts(parts, Body::from(page));
    response.headers_mut().remove(axum::http::header::CONTENT_LENGTH);
    Ok(response)
}

/// Whether the request carries a learner or a session: then the page is theirs.
fn personal(headers: &HeaderMap) -> bool {
    headers.get_all(COOKIE).iter().any(|v| {
        v.to_str()
            .map_or(true, |v| v.contains("lockstep_learner=") || v.contains("lockstep_session="))
    })
}

async fn whole_page(state: &AppState, course: &Arc<Course>, req: Request, next: Next) -> Response {
    let key = req.uri().path().to_string();
    if let Some(Kept::Whole(hit)) = state.pages.get(&key, course) {
        let mut response = Body::from(hit.body.clone()).into_response();
        *response.headers_mut() = hit.headers.clone();
        return response;
    }
    let response = next.run(req).await;
    if response.status() != StatusCode::OK || response.headers().contains_key(SET_COOKIE) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let body = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(bytes) => bytes,
        Err(e) => {
            tracing::error!("reading a page to keep it: {e}");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    // A request part's place is in the page: what fills it is this response's only.
    let per_request = memchr::memmem::find(&body, br#"class="request-part""#).is_some();
    if !per_request {
        let whole =
            Whole { course: course.clone(), headers: parts.headers.clone(), body: body.clone() };
        state.pages.keep(key, Kept::Whole(Arc::new(whole)));
    }
    Response::from_parts(parts, Body::from(body))
}

async fn lesson_page(
    state: &CacheState,
    course: &Arc<Course>,
    lang: Lang,
    slug: &str,
    anonymous: bool,
    session: Option<Session>,
    headers: &HeaderMap,
) -> Result<Response, PageError> {
    let key = lang.path(&lockstep_routes::lesson(slug));
    let lesson = match state.app.pages.get(&key, course) {
        Some(Kept::Lesson(lesson)) => lesson,
        _ => render_template(state, course, lang, slug, key).await?,
    };
    let place = Place::Lesson(slug.to_string());
    let html = if anonymous {
        match &lesson.anonymous_page {
            Some(page) => Body::from(page.clone()),
            None => {
                let requester = Requester::Anonymous { learner: None };
                let requests =
                    request_parts(&state.app, &lesson.anonymous, &place, lang, &requester, None);
                let requests = requests.await?;
                // Its learner's parts are written in already: the learner given is not read.
                Body::from(lesson.anonymous.fill(LessonLearner::default(), &requests))
            }
        }
    } else {
        let rules = state.app.rules();
        // The page only shows the learner: what this process keeps of them will do.
        let requester = rules.requester_reading(Reads::Kept, session.as_ref(), headers).await?;
        let notice = flash::take_notice(session.as_ref()).await?;
        let learner = state.app.context.learner_view(&requester, Reads::Kept, slug, notice, lang);
        let learner = learner.await.map_err(PageError::Learner)?;
        let requests =
            request_parts(&state.app, &lesson.template, &place, lang, &requester, session.as_ref());
        let requests = requests.await?;
        Body::from(lesson.template.fill(learner, &requests))
    };
    let mut response = html.into_response();
    *response.headers_mut() = lesson.headers.clone();
    response.headers_mut().insert(FILLED.0, HeaderValue::from_static(FILLED.1));
    Ok(response)
}

/// The HTML of each request part `template` has, for this response.
async fn request_parts(
    state: &AppState,
    template: &Template,
    place: &Place,
    lang: Lang,
    requester: &Requester,
    session: Option<&Session>,
) -> Result<Vec<(String, String)>, PageError> {
    let mut filled = Vec::new();
    for name in template.request_parts() {
        // A part the page names that this server does not have stays empty.
        let Some(part) = state.context.request_parts.find(name) else { continue };
        let request = PartRequest { rules: state.rules(), place, lang, requester, session };
        let html = part.html(request).await;
        filled.push((name.to_string(), html.map_err(|e| PageError::RequestPart(name.into(), e))?));
    }
    Ok(filled)
}

/// Renders the lesson as a template: the page an anonymous visitor gets, with placeholders.
async fn render_template(
    state: &CacheState,
    course: &Arc<Course>,
    lang: Lang,
    slug: &str,
    key: String,
) -> Result<Arc<Lesson>, PageError> {
    let mut req = Request::new(Body::empty());
    *req.uri_mut() = key.parse().expect("lesson paths are URIs");
    req.extensions_mut().insert(RenderTemplate);
    let Ok::<_, Infallible>(response) = state.pages.clone().oneshot(req).await;
    if response.status() != StatusCode::OK {
        return Err(PageError::Status(response.status()));
    }
    let (parts, body) = response.into_parts();
    let html = String::from_utf8(axum::body::to_bytes(body, usize::MAX).await?.to_vec())?;
    let LessonLookup::Found(view) = state.app.context.lesson_view(slug, lang, Viewer::Learner)
    else {
        return Err(PageError::Gone);
    };
    let nobody = Requester::Anonymous { learner: None };
    let anonymous = state.app.context.learner_view(&nobody, Reads::Fresh, slug, None, lang).await;
    let anonymous = anonymous.map_err(PageError::Learner)?;
    let template = Template::parse(&html, view, lang, &anonymous)?;
    let anonymous = template.with_learner(anonymous);
    let anonymous_page = anonymous.html().map(|html| Bytes::from(html.to_string()));
    let lesson = Arc::new(Lesson {
        course: course.clone(),
        headers: parts.headers,
        template,
        anonymous,
        anonymous_page,
    });
    state.app.pages.keep(key, Kept::Lesson(lesson.clone()));
    Ok(lesson)
}
