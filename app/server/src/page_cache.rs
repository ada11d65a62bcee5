//! Pages that are the same for every anonymous visitor, kept as bytes.
//!
//! A browser that has no learner cookie and no session has no progress, no notice and no
//! account, so its lesson page is the same for all of them until the course changes: rendering
//! it (the lesson body, every embedded simulation's first state) once per course version is
//! enough. Entries remember the course they were rendered from; a live reload makes a new
//! course, and the next request renders afresh. Anything personal (a cookie, a query string,
//! a response that sets a cookie or is not 200) goes past the cache.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use lockstep_course::Course;

use crate::AppState;

/// Lesson pages, the index and the XP page: well under this many.
const MAX_ENTRIES: usize = 256;

#[derive(Default)]
pub struct PageCache {
    entries: RwLock<HashMap<String, Cached>>,
}

struct Cached {
    course: Arc<Course>,
    headers: HeaderMap,
    body: Bytes,
}

fn cacheable(req: &Request) -> bool {
    let path = req.uri().path();
    let page = path == "/" || path == "/xp" || path.starts_with("/lessons/");
    let personal = req.headers().get_all(COOKIE).iter().any(|v| {
        v.to_str()
            .map_or(true, |v| v.contains("lockstep_learner=") || v.contains("lockstep_session="))
    });
    req.method() == Method::GET && page && req.uri().query().is_none() && !personal
}

pub async fn serve(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if !cacheable(&req) {
        return next.run(req).await;
    }
    let key = req.uri().path().to_string();
    let course = state.context.course.current();
    {
        let entries = state.page_cache.entries.read().unwrap_or_else(|e| e.into_inner());
        if let Some(hit) = entries.get(&key).filter(|c| Arc::ptr_eq(&c.course, &course)) {
            let mut response = Body::from(hit.body.clone()).into_response();
            *response.headers_mut() = hit.headers.clone();
            return response;
        }
    }
    let response = next.run(req).await;
    if response.status() != StatusCode::OK || response.headers().contains_key(SET_COOKIE) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let body = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(bytes) => bytes,
        Err(e) => {
            tracing::error!("reading a page to cache it: {e}");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    {
        let mut entries = state.page_cache.entries.write().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(key, Cached { course, headers: parts.headers.clone(), body: body.clone() });
    }
    Response::from_parts(parts, Body::from(body))
}
