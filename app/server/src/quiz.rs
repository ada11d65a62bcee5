//! Quiz answers, posted by the quiz's plain form: `attempt=N`, `order=learner|visitor` and a
//! field `qN=P` per position P chosen for question N (radio buttons for one-answer questions,
//! checkboxes for the others). The page showed that attempt's own order of options, which the
//! server computes again to read the positions back; a form from an attempt already answered
//! (another tab) is sent back unrecorded. The server marks the answers against the quiz (the
//! browser never had them), keeps them for the review, records the pass (and a perfect score
//! at the first try) once, and sends the learner back to the quiz, where the page now shows
//! the review and what the pass earned: post, redirect, get, so a reload never posts again.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use lockstep_course::{Block, LessonEntry};
use lockstep_web::ssr::page_models;
use lockstep_web::ssr::viewer;
use lockstep_xp::Action;
use tower_sessions::Session;

use crate::http_error::HttpError;
use crate::AppState;

pub async fn answer(
    State(state): State<AppState>,
    Path((slug, index)): Path<(String, u32)>,
    session: Session,
    headers: HeaderMap,
    body: String,
) -> Result<Response, HttpError> {
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
        let why = format!("lesson `{slug}` has no quiz {index}");
        return Err(HttpError::refused(StatusCode::NOT_FOUND, why).text());
    };
    let store = &state.context.store;
    let viewer = viewer::resolve(&state.context, Some(&session), &headers).await.map_err(failed)?;
    let (attempt, ever) = match viewer.learner() {
        Some(id) => store.quiz_attempts(id, &slug, index).await.map_err(failed)?,
        None => (0, 0),
    };
    let back = format!("{}#quiz-{index}", lockstep_routes::lesson(&slug));
    let form = parse_answers(&body, quiz.questions.len()).map_err(|why| refused(&why))?;
    if form.attempt != Some(attempt) {
        // Another tab answered since this page was drawn: its positions mean other options now.
        let message = "This quiz was answered elsewhere since this page loaded, so its options are in a new order; nothing was recorded. Here it is again.";
        viewer::leave_notice(&session, message.into()).await.map_err(failed)?;
        return Ok(crate::see_other(&back, None));
    }
    // The positions the page showed, read back through its order: the learner's own, or the
    // one every visitor without an id gets (a page drawn before its visitor got one). Either
    // is the server's: choosing one tells nothing of which options are right.
    let keyed = if form.visitor_order { None } else { viewer.learner() };
    let order = quiz.order(&page_models::quiz_key(keyed, &slug, index), attempt);
    let answers = from_positions(&form.positions, &order).map_err(|why| refused(&why))?;
    let marked = quiz.grade(&answers).map_err(|why| refused(&why.to_string()))?;
    let (learner, cookie) = match viewer.learner() {
        Some(id) => (id.to_string(), None),
        None => {
            let (id, cookie) = state.context.issue_learner().await.map_err(failed)?;
            (id, Some(cookie))
        }
    };
    let chosen: Vec<Vec<usize>> = marked.answers.iter().map(|(c, _)| c.clone()).collect();
    let mut actions = Vec::new();
    if marked.passed {
        actions.push(Action::QuizPassed { lesson: slug.clone(), quiz: index });
    }
    // Perfect means at the first try: ever, as a reset lesson's quiz is one its learner has
    // already seen answered.
    if marked.perfect && ever == 0 {
        actions.push(Action::QuizPerfect { lesson: slug.clone(), quiz: index });
    }
    let account = viewer.account().map(|a| &*a.email);
    let answer = (slug.as_str(), index, chosen.as_slice());
    let recorded = state.context.record_answer_for(&learner, account, answer, &actions);
    if let Some(message) = recorded.await.map_err(failed)?.message() {
        viewer::leave_notice(&session, message).await.map_err(failed)?;
    }
    Ok(crate::see_other(&back, cookie))
}

/// A form that does not fit the quiz: the browser's page answers it as text.
fn refused(why: &str) -> HttpError {
    let why = format!("these answers do not fit the quiz: {why}");
    HttpError::refused(StatusCode::BAD_REQUEST, why).text()
}

fn failed(e: impl std::fmt::Display) -> HttpError {
    HttpError::internal("quiz answers", e).text()
}

/// A quiz form as posted: the attempt it answers, and per question the positions chosen.
#[derive(Debug, PartialEq)]
struct Form {
    attempt: Option<u32>,
    /// `order=visitor`: the page showed the order of a visitor without a learner id.
    visitor_order: bool,
    positions: Vec<Vec<usize>>,
}

/// `attempt=0&q0=1&q1=0&q1=2` → attempt 0, `[[1], [0, 2]]` for a quiz of `questions`
/// questions. Other fields are ignored; an answer to a question that does not exist is
/// refused.
fn parse_answers(body: &str, questions: usize) -> Result<Form, String> {
    let mut form =
        Form { attempt: None, visitor_order: false, positions: vec![Vec::new(); questions] };
    for (key, value) in form_urlencoded::parse(body.as_bytes()) {
        if key == "order" {
            form.visitor_order = value == "visitor";
            continue;
        }
        if key == "attempt" {
            form.attempt =
                Some(value.parse().map_err(|_| format!("`{value}` is not an attempt number"))?);
            continue;
        }
        let Some(q) = key.strip_prefix('q').and_then(|n| n.parse::<usize>().ok()) else {
            continue;
        };
        let o = value
            .parse::<usize>()
            .map_err(|_| format!("`{value}` is not an option number (question {q})"))?;
        form.positions.get_mut(q).ok_or_else(|| format!("there is no question {q}"))?.push(o);
    }
    Ok(form)
}

/// The options (as the lesson lists them) at the positions chosen, through the order shown.
fn from_positions(
    positions: &[Vec<usize>],
    order: &[Vec<usize>],
) -> Result<Vec<Vec<usize>>, String> {
    positions
        .iter()
        .zip(order)
        .enumerate()
        .map(|(q, (chosen, shown))| {
            chosen
                .iter()
                .map(|&p| {
                    shown.get(p).copied().ok_or_else(|| format!("question {q} has no option {p}"))
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_from_the_form() {
        assert_eq!(
            parse_answers("attempt=2&q0=1&q1=0&q1=2&x=y&quiz=3", 2),
            Ok(Form {
                attempt: Some(2),
                visitor_order: false,
                positions: vec![vec![1], vec![0, 2]]
            })
        );
        assert_eq!(
            parse_answers("", 3),
            Ok(Form {
                attempt: None,
                visitor_order: false,
                positions: vec![vec![], vec![], vec![]]
            })
        );
        assert!(parse_answers("attempt=x", 1).unwrap_err().contains("not an attempt number"));
        let order = [vec![2, 0, 1], vec![1, 0]];
        assert_eq!(from_positions(&[vec![0], vec![0, 1]], &order), Ok(vec![vec![2], vec![1, 0]]));
        assert!(from_positions(&[vec![3], vec![]], &order).unwrap_err().contains("no option 3"));
        assert!(parse_answers("q2=0", 2).unwrap_err().contains("no question 2"));
        assert!(parse_answers("q0=zero", 2)
            .unwrap_err()
            .contains("`zero` is not an option number"));
    }
}
