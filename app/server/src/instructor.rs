//! The instructor view's CSV downloads (the same numbers as the page), its answers to reports
//! and its comments setting.

use axum::extract::{Path, Query, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Form;
use lockstep_clock::now_ms;
use lockstep_pages::instructor;
use lockstep_store::{ReportStatus, HOLD_FIRST_COMMENTS};

use crate::http_error::HttpError;
use crate::language::PageLang;
use crate::requester::Instructor;
use crate::state::AppState;

/// `?course=<slug>`: the downloads of one course.
#[derive(serde::Deserialize)]
pub struct CourseQuery {
    course: Option<String>,
}

/// The course asked for, or the whole site; an unknown course is refused.
fn scope(state: &AppState, query: &CourseQuery) -> Result<instructor::Scope, HttpError> {
    instructor::Scope::of(&state.context.course, query.course.as_deref())
        .map_err(|why| HttpError::refused(StatusCode::NOT_FOUND, why))
}

/// `learners.csv`, or `learners-<course>.csv`.
fn file_name(name: &str, scope: &instructor::Scope) -> String {
    match scope.slug() {
        Some(course) => format!("{name}-{course}.csv"),
        None => format!("{name}.csv"),
    }
}

pub async fn learners_csv(
    State(state): State<AppState>,
    _: Instructor,
    Query(query): Query<CourseQuery>,
) -> Result<Response, HttpError> {
    let scope = scope(&state, &query)?;
    let rows = state.context.store.learners_report().await.map_err(failed)?;
    // Downloads are in the course's own words, whichever page links them.
    let learners = scope.learners(&rows, lockstep_routes::Lang::En);
    Ok(csv(&file_name("learners", &scope), instructor::learners_csv(&learners)))
}

pub async fn questions_csv(
    State(state): State<AppState>,
    _: Instructor,
    Query(query): Query<CourseQuery>,
) -> Result<Response, HttpError> {
    let scope = scope(&state, &query)?;
    let answers = state.context.store.first_quiz_answers().await.map_err(failed)?;
    let questions = scope.questions(&answers, lockstep_routes::Lang::En);
    Ok(csv(&file_name("questions", &scope), instructor::questions_csv(&questions)))
}

pub async fn reports_csv(
    State(state): State<AppState>,
    _: Instructor,
    PageLang(lang): PageLang,
) -> Result<Response, HttpError> {
    let reports = state.context.store.reports().await.map_err(failed)?;
    let rows = instructor::reports(state.rules(), &reports, lang);
    Ok(csv("reports.csv", instructor::reports_csv(&rows)))
}

#[derive(serde::Deserialize)]
pub struct Answer {
    status: String,
    #[serde(default)]
    reply: String,
}

/// `POST /instructor/reports/{id}`: a report's status and answer; a signed-in reporter is
/// notified. An empty answer keeps none.
pub async fn answer_report(
    State(state): State<AppState>,
    _: Instructor,
    Path(id): Path<i64>,
    PageLang(lang): PageLang,
    Form(form): Form<Answer>,
) -> Result<Response, HttpError> {
    let status = ReportStatus::parse(&form.status).ok_or_else(|| {
        HttpError::refused(StatusCode::BAD_REQUEST, format!("`{}` is not a status", form.status))
            .page()
    })?;
    let reply = lockstep_comments::check(&form.reply).ok();
    let store = &state.context.store;
    if !store.answer_report(id, status, reply.as_deref(), now_ms()).await.map_err(failed)? {
        return Err(HttpError::refused(StatusCode::NOT_FOUND, "no such report").page());
    }
    state.talk.notify_waiters();
    Ok(crate::redirect::see_other(
        &format!("{}#reports", lang.path(lockstep_routes::INSTRUCTOR)),
        None,
    ))
}

#[derive(serde::Deserialize)]
pub struct Settings {
    #[serde(default)]
    hold_first_comments: Option<String>,
}

/// `POST /instructor/settings`: the comments setting (an unchecked box sends nothing).
pub async fn settings(
    State(state): State<AppState>,
    _: Instructor,
    PageLang(lang): PageLang,
    Form(form): Form<Settings>,
) -> Result<Response, HttpError> {
    let hold = if form.hold_first_comments.as_deref() == Some("on") { "on" } else { "off" };
    state.context.store.set_setting(HOLD_FIRST_COMMENTS, hold).await.map_err(failed)?;
    let back = format!("{}#comments-settings", lang.path(lockstep_routes::INSTRUCTOR));
    Ok(crate::redirect::see_other(&back, None))
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
    HttpError::internal("instructor view", e).page()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_page_offers_the_stores_statuses() {
        let names = lockstep_store::ReportStatus::ALL.map(|s| s.as_str());
        assert_eq!(names, lockstep_web::model::REPORT_STATUSES);
    }
}
