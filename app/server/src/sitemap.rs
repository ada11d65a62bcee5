//! `/sitemap.xml`: what search engines may crawl, which is what learners see: the catalogue,
//! every published course's page and every published lesson, in each language served (a draft is
//! in no sitemap: the learners' view of the courses has none).

use axum::extract::State;
use axum::http::header::{CONTENT_TYPE, HOST};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::state::AppState;

pub async fn sitemap(State(state): State<AppState>, headers: HeaderMap) -> Response {
    // A sitemap names pages by absolute address: the configured public one, else this
    // request's host (a name and a port, nothing that could leave the attribute).
    let host = headers.get(HOST).and_then(|h| h.to_str().ok()).filter(|h| {
        !h.is_empty() && h.bytes().all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
    });
    let origin = match (&state.public_origin, host) {
        (Some(origin), _) => origin.clone(),
        (None, Some(host)) => format!("http://{host}"),
        (None, None) => return StatusCode::NOT_FOUND.into_response(),
    };
    let loaded = state.context.course.loaded();
    let mut paths = vec![lockstep_routes::HOME.to_string()];
    for entry in &loaded.catalogue.courses {
        paths.push(lockstep_routes::course(&entry.slug));
        for lesson in entry.course.lessons.iter().filter(|l| l.ready().is_some()) {
            paths.push(lockstep_routes::lesson(lesson.slug()));
        }
    }
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for path in &paths {
        for lang in state.languages.iter() {
            let address = format!("{origin}{}", lang.path(path));
            xml += &format!("  <url><loc>{}</loc></url>\n", escape(&address));
        }
    }
    xml += "</urlset>\n";
    ([(CONTENT_TYPE, "application/xml; charset=utf-8")], xml).into_response()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
