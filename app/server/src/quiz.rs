//! Quiz answers, posted by the quiz's plain form: a field `qN=O` per option O chosen for
//! question N (radio buttons for one-answer questions, checkboxes for the others).
//! The server marks them against the quiz (the browser never had the answers), keeps them for
//! the review, records the pass (and a perfect score) once, and sends the learner back to the
//! quiz, where the page now shows the review and what the pass earned: post, redirect, get, so
//! a reload never posts again.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use lockstep_course::{Block, LessonEntry};
use lockstep_web::ssr::context::unix_now;
use lockstep_web::ssr::viewer;
use lockstep_xp::Action;
use tower_sessions::Session;

use crate::AppState;

pub async fn answer(
    State(state): State<AppState>,
    Path((slug, index)): Path<(String, u32)>,
    session: Session,
    headers: HeaderMap,
    body: String,
) -> Response {
    let course = state.context.course.current();
    let quiz = match course.find(&slug) {
        Some((_, LessonEntry::Ready(lesson))) => lesson
            .body
            .iter()
            .filter_map(|b| if let Block::Quiz(q) = b { Some(q) } else { None })
            .nth(index as usize)
            .cloned(),
        _ => None,
    };
    let Some(quiz) = quiz else {
        return (StatusCode::NOT_FOUND, format!("lesson `{slug}` has no quiz {index}"))
            .into_response();
    };
    let marked = match parse_answers(&body, quiz.questions.len())
        .and_then(|a| quiz.grade(&a).map_err(|e| e.to_string()))
    {
        Ok(marked) => marked,
        Err(why) => {
            return (StatusCode::BAD_REQUEST, format!("these answers do not fit the quiz: {why}"))
                .into_response()
        }
    };
    let store = &state.context.store;
    let viewer = match viewer::resolve(&state.context, Some(&session), &headers).await {
        Ok(viewer) => viewer,
        Err(e) => return internal(e),
    };
    let (learner, cookie) = match viewer.learner() {
        Some(id) => (id.to_string(), None),
        None => match state.context.issue_learner().await {
            Ok((id, cookie)) => (id, Some(cookie)),
            Err(e) => return internal(e),
        },
    };
    let now = unix_now();
    let chosen: Vec<Vec<usize>> = marked.answers.iter().map(|(c, _)| c.clone()).collect();
    let mut actions = Vec::new();
    if marked.passed {
        actions.push(Action::QuizPassed { lesson: slug.clone(), quiz: index });
    }
    if marked.perfect {
        actions.push(Action::QuizPerfect { lesson: slug.clone(), quiz: index });
    }
    let account = viewer.account().map(|a| &*a.email);
    let recorded = async {
        store.record_quiz_answers(&learner, &slug, index, &chosen, now).await?;
        state.context.record_for(&learner, account, &actions).await
    };
    let earned = match recorded.await {
        Ok(progressed) => progressed.message(),
        Err(e) => return internal(e),
    };
    if let Some(message) = earned {
        if let Err(e) = viewer::leave_notice(&session, message).await {
            return internal(e);
        }
    }
    crate::see_other(&format!("{}#quiz-{index}", lockstep_routes::lesson(&slug)), cookie)
}

fn internal(e: impl std::fmt::Display) -> Response {
    tracing::error!("quiz answers: {e}");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        "the answers could not be recorded; the error has been logged",
    )
        .into_response()
}

/// `q0=1&q1=0&q1=2` → `[[1], [0, 2]]` for a quiz of `questions` questions. Other fields are
/// ignored; an answer to a question that does not exist is refused.
fn parse_answers(body: &str, questions: usize) -> Result<Vec<Vec<usize>>, String> {
    let mut answers = vec![Vec::new(); questions];
    for (key, value) in form_urlencoded::parse(body.as_bytes()) {
        let Some(q) = key.strip_prefix('q').and_then(|n| n.parse::<usize>().ok()) else {
            continue;
        };
        let o = value
            .parse::<usize>()
            .map_err(|_| format!("`{value}` is not an option number (question {q})"))?;
        answers.get_mut(q).ok_or_else(|| format!("there is no question {q}"))?.push(o);
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_from_the_form() {
        assert_eq!(parse_answers("q0=1&q1=0&q1=2&x=y&quiz=3", 2), Ok(vec![vec![1], vec![0, 2]]));
        assert_eq!(parse_answers("", 3), Ok(vec![vec![], vec![], vec![]]));
        assert!(parse_answers("q2=0", 2).unwrap_err().contains("no question 2"));
        assert!(parse_answers("q0=zero", 2)
            .unwrap_err()
            .contains("`zero` is not an option number"));
    }
}
