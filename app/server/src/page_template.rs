//! Lesson pages for every visitor, signed in or not, from one render per course version.
//!
//! A lesson page is mostly the lesson, the same for everyone; only a few parts show the learner
//! (`lockstep_web::pages::LearnerPart`). The first request for a lesson renders it once as a
//! template (`lockstep_web::ssr::template`), without the visitor's session or cookies; every
//! request then renders only its learner's parts into it. Templates remember the course they
//! were rendered from, so a live reload renders afresh. A lesson that is missing or broken, a
//! request with a query string, and anything that fails here go to the full render instead.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, RwLock};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use leptos::prelude::ServerFnError;
use lockstep_course::{Course, LessonEntry};
use lockstep_web::model::LessonLookup;
use lockstep_web::ssr::template::{RenderTemplate, Template, TemplateError};
use lockstep_web::ssr::viewer::{self, Reads, Viewer, ViewerError};
use tower::ServiceExt;
use tower_sessions::Session;

use crate::AppState;

/// Marks a page filled from its template, for operators and tests (like a cache's `X-Cache`).
pub const FILLED: (&str, &str) = ("x-lockstep-page", "filled");

/// Lessons: well under this many.
const MAX_ENTRIES: usize = 256;

#[derive(Default)]
pub struct Templates {
    entries: RwLock<HashMap<String, Arc<Entry>>>,
}

struct Entry {
    course: Arc<Course>,
    headers: HeaderMap,
    template: Template,
}

/// What the middleware needs: the app, and its pages to render templates with.
#[derive(Clone)]
pub struct TemplateState {
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
    Viewer(#[from] ViewerError),
    #[error("the learner's part: {0}")]
    Learner(ServerFnError),
}

pub async fn serve(State(state): State<TemplateState>, req: Request, next: Next) -> Response {
    let Some(slug) = lesson_slug(&req) else {
        return next.run(req).await;
    };
    let course = state.app.context.course.current();
    if !matches!(course.find(&slug), Some((_, LessonEntry::Ready(_)))) {
        return next.run(req).await;
    }
    let session = req.extensions().get::<Session>().cloned();
    match personal_page(&state, &course, &slug, session, req.headers()).await {
        Ok(page) => page,
        Err(e) => {
            tracing::error!("lesson `{slug}` from its template: {e}; rendering it in full");
            next.run(req).await
        }
    }
}

/// The slug of a plain `GET /lessons/<slug>`.
fn lesson_slug(req: &Request) -> Option<String> {
    let plain = req.method() == Method::GET && req.uri().query().is_none();
    plain.then(|| lockstep_routes::lesson_slug(req.uri().path()))?.map(str::to_string)
}

async fn personal_page(
    state: &TemplateState,
    course: &Arc<Course>,
    slug: &str,
    session: Option<Session>,
    headers: &HeaderMap,
) -> Result<Response, PageError> {
    let entry = match cached(state, course, slug) {
        Some(entry) => entry,
        None => render_template(state, course, slug).await?,
    };
    let ctx = &state.app.context;
    // The page only shows the learner: what this process keeps of them will do.
    let viewer = viewer::resolve_with(ctx, Reads::Kept, session.as_ref(), headers).await?;
    let notice = viewer::take_notice(session.as_ref()).await?;
    let learner = ctx.lesson_learner(&viewer, Reads::Kept, slug, notice).await;
    let learner = learner.map_err(PageError::Learner)?;
    let mut response = Body::from(entry.template.fill(learner)).into_response();
    *response.headers_mut() = entry.headers.clone();
    response.headers_mut().insert(FILLED.0, axum::http::HeaderValue::from_static(FILLED.1));
    Ok(response)
}

fn cached(state: &TemplateState, course: &Arc<Course>, slug: &str) -> Option<Arc<Entry>> {
    let entries = state.app.templates.entries.read().unwrap_or_else(|e| e.into_inner());
    entries.get(slug).filter(|e| Arc::ptr_eq(&e.course, course)).cloned()
}

/// Renders the lesson as a template: the page an anonymous visitor gets, with placeholders.
async fn render_template(
    state: &TemplateState,
    course: &Arc<Course>,
    slug: &str,
) -> Result<Arc<Entry>, PageError> {
    let mut req = Request::new(Body::empty());
    *req.uri_mut() = lockstep_routes::lesson(slug).parse().expect("lesson paths are URIs");
    req.extensions_mut().insert(RenderTemplate);
    let Ok::<_, Infallible>(response) = state.pages.clone().oneshot(req).await;
    if response.status() != StatusCode::OK {
        return Err(PageError::Status(response.status()));
    }
    let (parts, body) = response.into_parts();
    let html = String::from_utf8(axum::body::to_bytes(body, usize::MAX).await?.to_vec())?;
    let LessonLookup::Found(lesson) = lockstep_web::ssr::page_models::lookup(course, slug) else {
        return Err(PageError::Gone);
    };
    let anonymous = Viewer::Anonymous { learner: None };
    let learner = state.app.context.lesson_learner(&anonymous, Reads::Fresh, slug, None).await;
    let learner = learner.map_err(PageError::Learner)?;
    let template = Template::parse(&html, lesson, &learner)?;
    let entry = Arc::new(Entry { course: course.clone(), headers: parts.headers, template });
    let mut entries = state.app.templates.entries.write().unwrap_or_else(|e| e.into_inner());
    if entries.len() >= MAX_ENTRIES {
        entries.clear();
    }
    entries.insert(slug.to_string(), entry.clone());
    Ok(entry)
}
