//! Quiz answers, posted by the quiz's plain form: `attempt=N`, `order=learner|visitor` and a
//! field `qN=P` per position P chosen for question N (radio buttons for one-answer questions,
//! checkboxes for the others). Reading the positions back, marking and recording are the
//! rules' (`lockstep_rules::quiz`); this is the form's edge: it parses the form and sends the
//! learner back to the quiz, where the page now shows the review and what the pass earned, or
//! why nothing was recorded: post, redirect, get, so a reload never posts again.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use lockstep_lang::Text;
use lockstep_pages::page_models;
use lockstep_routes::Lang;
use lockstep_rules::quiz::{Answer, Answered, QuizError};
use lockstep_rules::{flash, Requester};
use tower_sessions::Session;

use crate::http_error::HttpError;
use crate::state::AppState;

pub async fn answer(
    State(state): State<AppState>,
    Path((slug, index)): Path<(String, u32)>,
    session: Session,
    requester: Requester,
    crate::language::PageLang(lang): crate::language::PageLang,
    body: String,
) -> Result<Response, HttpError> {
    let back = format!("{}#quiz-{index}", lang.path(&lockstep_routes::lesson(&slug)));
    let answer = parse_answers(&body).map_err(|why| refused(&why))?;
    let answered = state.rules().answer_quiz(&requester, &slug, index, &answer).await;
    let (message, cookie) = match answered {
        Ok(Answered::Stale) => (Some(lockstep_i18n::t(lang).quiz.stale.to_string()), None),
        Ok(Answered::Recorded { recorded, cookie }) => {
            let account = requester.account().map(|a| &*a.email);
            (
                page_models::progressed(&recorded.before, &recorded.after, account).message(lang),
                cookie,
            )
        }
        Err(e @ QuizError::NoQuiz(..)) => {
            // English names the lesson and quiz (the error's own words); the catalogue's do not.
            let words = Text::each(|l| match l {
                Lang::En => e.to_string(),
                l => lockstep_i18n::t(l).errors.no_quiz.into(),
            });
            return Err(HttpError::said(StatusCode::NOT_FOUND, words).page());
        }
        Err(QuizError::Misfit(why)) => return Err(refused(&why)),
        Err(QuizError::Failed(e)) => return Err(failed(e)),
    };
    if let Some(message) = message {
        flash::leave_notice(&session, message).await.map_err(failed)?;
    }
    Ok(crate::redirect::see_other(&back, cookie))
}

/// A form that does not fit the quiz: the browser's page answers it as text.
fn refused(why: &str) -> HttpError {
    let words = Text::each(|l| format!("{}: {why}", lockstep_i18n::t(l).errors.quiz_misfit));
    HttpError::said(StatusCode::BAD_REQUEST, words).page()
}

fn failed(e: impl std::fmt::Display) -> HttpError {
    HttpError::internal("quiz answers", e).page()
}

/// No quiz has this many questions; a form naming one further is refused before anything is
/// kept for it.
const MOST_QUESTIONS: usize = 256;

/// `attempt=0&q0=1&q1=0&q1=2` → attempt 0, `[[1], [0, 2]]`. Other fields are ignored; whether
/// the questions exist is the quiz's to say.
fn parse_answers(body: &str) -> Result<Answer, String> {
    let mut form = Answer { attempt: None, visitor_order: false, positions: Vec::new() };
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
        if q >= MOST_QUESTIONS {
            return Err(format!("there is no question {q}"));
        }
        if form.positions.len() <= q {
            form.positions.resize(q + 1, Vec::new());
        }
        form.positions[q].push(o);
    }
    Ok(form)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_from_the_form() {
        assert_eq!(
            parse_answers("attempt=2&q0=1&q1=0&q1=2&x=y&quiz=3"),
            Ok(Answer {
                attempt: Some(2),
                visitor_order: false,
                positions: vec![vec![1], vec![0, 2]]
            })
        );
        assert_eq!(
            parse_answers("order=visitor&q2=1"),
            Ok(Answer {
                attempt: None,
                visitor_order: true,
                positions: vec![vec![], vec![], vec![1]]
            })
        );
        assert!(parse_answers("attempt=x").unwrap_err().contains("not an attempt number"));
        assert!(parse_answers("q100000000=0").unwrap_err().contains("no question 100000000"));
        assert!(parse_answers("q0=zero").unwrap_err().contains("`zero` is not an option number"));
    }
}
