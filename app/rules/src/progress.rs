//! Progress: the learner's events, read as XP by `lockstep-xp`'s rules, and the one way an
//! action is recorded from a request (simulations, lessons, quiz passes; an exercise's pass is
//! recorded by the store in its verdict's own transaction, with the actions
//! [`lockstep_xp::exercise_passed`] names).
//!
//! # Progress and XP
//!
//! What a learner does is stored as events (`xp_events`: learner, kind, subject, such as `quiz`,
//! `dataparallel#0`), never as XP. A unique index on live (learner, kind, subject) rows makes
//! recording idempotent: a repeat, a replayed form or fifty concurrent requests insert one row.
//! Every page's model carries a `ProgressView` that the server computes with
//! `lockstep_xp::progress` from the learner's events and the course's facts (each lesson's XP,
//! simulations and quizzes); the browser only displays it. When a simulation's `Player` reaches its
//! last step, the lesson page calls `explore_simulation` (`OnExplored` context), which records the
//! action and returns a `Progressed` (the new progress and what was gained): the panel and a toast
//! update without reloading the lesson, whose simulations would otherwise reset. `/xp` shows the
//! rules, the levels and the learner's achievements. Resetting a lesson marks its events (and quiz
//! answers) reset: they are kept and stop counting. "Mark lesson complete" is an `ActionForm`:
//! without JavaScript it is a plain form post, redirected back to the lesson. With it, completing
//! or resetting reads the learner's part again and sets it in place (the lesson page's
//! `LearnerState` holds it in a signal: panel, toast, completion, quiz reviews); the lesson itself
//! is never rendered anew on the page, which would dispose its simulations under their own
//! handlers. The first recorded action sets an anonymous `lockstep_learner` cookie: 128 random
//! bits, HttpOnly, SameSite=Lax (`Secure` and `__Host-` over HTTPS), recorded in `learners` as
//! issued. No cookie is set for reading.

use lockstep_course::{Block, Course, LessonEntry, Visibility};
use lockstep_store::StoreError;
use lockstep_xp::{Action, CourseFacts, Event, LessonFacts, Progress};

use crate::{Requester, Rules, RulesError};

/// What recording changed: the learner's progress before and after it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub before: Progress,
    pub after: Progress,
}

/// What the XP rules need to know of the course.
pub fn facts(course: &Course) -> CourseFacts {
    let lessons = course
        .lessons
        .iter()
        .filter_map(|entry| match entry {
            LessonEntry::Ready(l) => {
                let count = |f: fn(&Block) -> bool| l.body.iter().filter(|b| f(b)).count() as u32;
                Some(LessonFacts {
                    slug: l.slug.clone(),
                    course: l.course.clone(),
                    since: match l.visibility {
                        Visibility::Scheduled(at) => Some(lockstep_course::publishing::unix(at)),
                        _ => None,
                    },
                    xp: l.front.xp,
                    simulations: count(|b| matches!(b, Block::Simulation(_))),
                    quizzes: count(|b| matches!(b, Block::Quiz(_))),
                })
            }
            LessonEntry::Broken { .. } => None,
        })
        .collect();
    let exercises = course.exercises().map(|(_, e)| e.id.clone()).collect();
    CourseFacts { lessons, exercises }
}

/// The lessons the events say were completed.
pub fn completed_in(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.action {
            Action::LessonCompleted { lesson } => Some(lesson.clone()),
            _ => None,
        })
        .collect()
}

/// Whether the learner has anything recorded in the lesson (to offer a reset).
pub fn has_progress_in(events: &[Event], slug: &str) -> bool {
    events.iter().any(|e| e.action.lesson() == Some(slug))
}

impl Rules {
    /// Progress by the XP rules, from events, in the course as it is now.
    pub fn progress_of(&self, events: &[Event]) -> Progress {
        lockstep_xp::progress(&facts(&self.course.current()), events)
    }

    /// The requester's live events; none for a browser that has recorded nothing.
    pub async fn events(&self, requester: &Requester) -> Result<Vec<Event>, RulesError> {
        match requester.learner() {
            Some(id) => Ok(self.store.events(id).await?),
            None => Ok(Vec::new()),
        }
    }

    /// Records `action` for the requester, making an anonymous browser a learner if it has
    /// none yet: then the `Set-Cookie` value that gives it to the browser comes back too.
    pub async fn record(
        &self,
        requester: &Requester,
        action: Action,
    ) -> Result<(Recorded, Option<http::HeaderValue>), RulesError> {
        let (learner, cookie) = self.learner_of(requester).await?;
        Ok((self.record_for(&learner, &[action]).await?, cookie))
    }

    /// The learner a request records for, issuing an anonymous one (and its cookie) when the
    /// browser has none.
    pub(crate) async fn learner_of(
        &self,
        requester: &Requester,
    ) -> Result<(String, Option<http::HeaderValue>), RulesError> {
        match requester.learner() {
            Some(id) => Ok((id.to_string(), None)),
            None => {
                let (id, cookie) = self.issue_learner().await?;
                Ok((id, Some(cookie)))
            }
        }
    }

    /// Records `actions` for `learner` and says what they changed.
    pub async fn record_for(
        &self,
        learner: &str,
        actions: &[Action],
    ) -> Result<Recorded, StoreError> {
        self.recording(learner, |at| async move {
            let mut recorded = Vec::with_capacity(actions.len());
            for action in actions {
                recorded.push(self.store.record(learner, action, at).await?);
            }
            Ok(recorded)
        })
        .await
    }

    /// Progress before and after `write` records what it records (it says, per action, whether
    /// it was recorded now: only then are the events read again, for the day the store gave
    /// each in the learner's time zone).
    pub(crate) async fn recording<F>(
        &self,
        learner: &str,
        write: impl FnOnce(i64) -> F,
    ) -> Result<Recorded, StoreError>
    where
        F: std::future::Future<Output = Result<Vec<bool>, StoreError>>,
    {
        let before = self.progress_of(&self.store.events(learner).await?);
        let recorded = write(lockstep_clock::now_s()).await?;
        let after = if recorded.contains(&true) {
            self.progress_of(&self.store.events(learner).await?)
        } else {
            before.clone()
        };
        Ok(Recorded { before, after })
    }

    /// Resets the requester's progress in a lesson.
    pub async fn reset_lesson(&self, requester: &Requester, slug: &str) -> Result<(), RulesError> {
        if let Some(id) = requester.learner() {
            self.store.reset_lesson(id, slug, lockstep_clock::now_s()).await?;
        }
        Ok(())
    }
}
