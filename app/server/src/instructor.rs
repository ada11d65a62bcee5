//! The instructor view's CSV downloads; the same numbers as the page.

use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use lockstep_web::ssr::{instructor, viewer};
use tower_sessions::Session;

use crate::AppState;

#[derive(Clone, Copy)]
enum Export {
    Learners,
    Questions,
}

impl Export {
    fn file_name(self) -> &'static str {
        match self {
            Export::Learners => "learners.csv",
            Export::Questions => "questions.csv",
        }
    }
}

pub async fn learners_csv(
    state: State<AppState>,
    session: Session,
    headers: HeaderMap,
) -> Response {
    csv(state, session, headers, Export::Learners).await
}

pub async fn questions_csv(
    state: State<AppState>,
    session: Session,
    headers: HeaderMap,
) -> Response {
    csv(state, session, headers, Export::Questions).await
}

async fn csv(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    export: Export,
) -> Response {
    let store = &state.context.store;
    let made = async {
        let viewer = viewer::resolve(&state.context, Some(&session), &headers)
            .await
            .map_err(|e| e.to_string())?;
        if !viewer.is_instructor() {
            return Ok(None);
        }
        let course = state.context.course.current();
        let text = match export {
            Export::Learners => {
                let rows = store.learners_report().await.map_err(|e| e.to_string())?;
                instructor::learners_csv(&instructor::learners(&course, &rows))
            }
            Export::Questions => {
                let answers = store.first_quiz_answers().await.map_err(|e| e.to_string())?;
                instructor::questions_csv(&instructor::questions(&course, &answers))
            }
        };
        Ok::<_, String>(Some(text))
    };
    let file = export.file_name();
    match made.await {
        Ok(Some(text)) => (
            [
                (CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
                (CONTENT_DISPOSITION, format!("attachment; filename=\"{file}\"")),
            ],
            text,
        )
            .into_response(),
        Ok(None) => {
            (StatusCode::FORBIDDEN, "instructors only: sign in with an instructor's account")
                .into_response()
        }
        Err(e) => {
            tracing::error!("instructor CSV: {e}");
            (StatusCode::INTERNAL_SERVER_ERROR, "the export failed; the error has been logged")
                .into_response()
        }
    }
}
