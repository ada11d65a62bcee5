//! The instructor view's CSV downloads; the same numbers as the page.

use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use lockstep_web::ssr::instructor;

use crate::http_error::HttpError;
use crate::requester::Instructor;
use crate::AppState;

pub async fn learners_csv(
    State(state): State<AppState>,
    _: Instructor,
) -> Result<Response, HttpError> {
    let course = state.context.course.current();
    let rows = state.context.store.learners_report().await.map_err(failed)?;
    Ok(csv("learners.csv", instructor::learners_csv(&instructor::learners(&course, &rows))))
}

pub async fn questions_csv(
    State(state): State<AppState>,
    _: Instructor,
) -> Result<Response, HttpError> {
    let course = state.context.course.current();
    let answers = state.context.store.first_quiz_answers().await.map_err(failed)?;
    Ok(csv("questions.csv", instructor::questions_csv(&instructor::questions(&course, &answers))))
}

fn csv(file: &str, text: String) -> Response {
    let disposition = format!("attachment; filename=\"{file}\"");
    (
        [(CONTENT_TYPE, "text/csv; charset=utf-8".to_string()), (CONTENT_DISPOSITION, disposition)],
        text,
    )
        .into_response()
}

fn failed(e: lockstep_store::StoreError) -> HttpError {
    HttpError::internal("instructor CSV", e).page()
}
