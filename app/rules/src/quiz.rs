//! A quiz's answers: read back through the order of options the page showed, marked against
//! the quiz (the browser never has the right answers), kept for the review and recorded with
//! the XP they earned, in one transaction.
//!
//! # Quiz → review
//!
//! A ```` ```quiz ```` fence is parsed by `lockstep_course::quiz` into a `Block::Quiz` that holds
//! the answers; the page model (`QuizBlock`) holds only prompts and options. Each attempt shows the
//! options in its own order: `Quiz::order(key, attempt)`, a stable hash of the learner, the quiz
//! and the attempt number (a visitor without an id gets the visitors' order, the same for all, so
//! such pages can be cached). The plain form posts `attempt=N`, `order=learner|visitor` and `qN=P`
//! fields (P a position shown; one name per question, so radio buttons group per question) to
//! `/lessons/<slug>/quizzes/<n>` (`app/server/src/quiz.rs`, which parses the form; the rest is
//! `lockstep_rules::quiz`), which refuses a form from an attempt already answered (another tab),
//! reads the positions back through the order the server computes again, marks them, keeps them in
//! `quiz_attempts` (as the lesson numbers the options) and records `QuizPassed` once and
//! `QuizPerfect` only at the first attempt ever, in the same transaction, and answers 303 back to
//! the quiz; the lesson page then shows the review of the last attempt, re-marked against the quiz
//! as it is now: which questions were wrong and each chosen option's explanation, the right answers
//! only once passed. With or without JavaScript it is the same round trip.

use lockstep_course::{Block, LessonEntry, Quiz};

use crate::{Recorded, Requester, Rules, RulesError};

/// A quiz form as the page posted it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The attempt the page showed; a page drawn before another tab answered shows an older one.
    pub attempt: Option<u32>,
    /// The page showed the order of a visitor without a learner id.
    pub visitor_order: bool,
    /// Per question, the positions chosen on the page; questions past the last answered one
    /// may be left out.
    pub positions: Vec<Vec<usize>>,
}

#[derive(Debug)]
pub enum Answered {
    /// Another tab answered since this page was drawn: its positions mean other options now,
    /// and nothing was recorded.
    Stale,
    /// Kept and recorded; `cookie` gives a browser that had no learner its new one.
    Recorded { recorded: Box<Recorded>, cookie: Option<http::HeaderValue> },
}

#[derive(Debug, thiserror::Error)]
pub enum QuizError {
    #[error("lesson `{0}` has no quiz {1}")]
    NoQuiz(String, u32),
    #[error("these answers do not fit the quiz: {0}")]
    Misfit(String),
    #[error(transparent)]
    Failed(#[from] RulesError),
}

/// The key of a learner's order of a quiz's options (`None`: every visitor without an id).
pub fn quiz_key(learner: Option<&str>, slug: &str, quiz: u32) -> String {
    format!("{}/{slug}#{quiz}", learner.unwrap_or(""))
}

impl Rules {
    /// Marks and records `answer` to quiz `index` of lesson `slug` for the requester.
    pub async fn answer_quiz(
        &self,
        requester: &Requester,
        slug: &str,
        index: u32,
        answer: &Answer,
    ) -> Result<Answered, QuizError> {
        let quiz = self
            .quiz(slug, index, requester.is_instructor())
            .ok_or_else(|| QuizError::NoQuiz(slug.into(), index))?;
        let store = &self.store;
        let (attempt, ever) = match requester.learner() {
            Some(id) => store.quiz_attempts(id, slug, index).await.map_err(RulesError::from)?,
            None => (0, 0),
        };
        let questions = quiz.questions.len();
        if answer.positions.len() > questions {
            let why = format!("there is no question {}", answer.positions.len() - 1);
            return Err(QuizError::Misfit(why));
        }
        let mut positions = answer.positions.clone();
        positions.resize(questions, Vec::new());
        if answer.attempt != Some(attempt) {
            return Ok(Answered::Stale);
        }
        // The positions the page showed, read back through its order: the learner's own, or the
        // one every visitor without an id gets (a page drawn before its visitor got one). Either
        // is the server's: choosing one tells nothing of which options are right.
        let keyed = if answer.visitor_order { None } else { requester.learner() };
        let order = quiz.order(&quiz_key(keyed, slug, index), attempt);
        let chosen = from_positions(&positions, &order).map_err(QuizError::Misfit)?;
        let marked = quiz.grade(&chosen).map_err(|why| QuizError::Misfit(why.to_string()))?;
        let chosen: Vec<Vec<usize>> = marked.answers.iter().map(|(c, _)| c.clone()).collect();
        let earned =
            lockstep_xp::quiz_answered(slug, index, marked.passed, marked.perfect, ever == 0);
        let (learner, cookie) = self.learner_of(requester).await?;
        let (learner, earned, chosen) = (&learner, &earned, &chosen);
        let recorded = self
            .recording(learner, |at| async move {
                // An answer is never kept without what it earned, nor XP without its answer.
                let mut write = store.write().await?;
                let visitor_order = answer.visitor_order;
                write.keep_quiz_answers(learner, (slug, index), chosen, visitor_order, at).await?;
                let mut recorded = Vec::with_capacity(earned.len());
                for action in earned {
                    recorded.push(write.record(learner, action, at).await?);
                }
                write.commit().await?;
                Ok(recorded)
            })
            .await
            .map_err(RulesError::from)?;
        Ok(Answered::Recorded { recorded: Box::new(recorded), cookie })
    }

    /// The quiz as the requester may answer it: an instructor's draft has its quizzes too (what
    /// they earn counts once the lesson is published, as for any lesson).
    fn quiz(&self, slug: &str, index: u32, instructor: bool) -> Option<Quiz> {
        match self.course.loaded_for(instructor).course.find(slug) {
            Some((_, LessonEntry::Ready(lesson))) => lesson
                .body
                .iter()
                .filter_map(|b| if let Block::Quiz(q) = b { Some(q) } else { None })
                .nth(index as usize)
                .cloned(),
            _ => None,
        }
    }
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
    fn positions_are_read_back_through_the_order_shown() {
        let order = [vec![2, 0, 1], vec![1, 0]];
        assert_eq!(from_positions(&[vec![0], vec![0, 1]], &order), Ok(vec![vec![2], vec![1, 0]]));
        assert!(from_positions(&[vec![3], vec![]], &order).unwrap_err().contains("no option 3"));
    }
}
