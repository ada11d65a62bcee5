//! XP, levels and achievements, in one place.
//!
//! The server records what a learner *did* ([`Event`]: a lesson completed, a simulation
//! explored to its end, a quiz passed, the exercise passed); it never stores XP. Everything a
//! learner sees (XP, level, the bar to the next level, achievements) is [`progress`], a pure
//! function of those events and the course's facts ([`CourseFacts`]). So a repeated action can
//! never award twice (the same event is the same key), and changing a rule here recomputes
//! everyone's XP on their next page without losing anything.
//!
//! # What is where
//!
//! XP rules, levels (English and Korean names) and achievements as pure functions of the course's
//! facts and a learner's recorded events: XP is never stored, so a repeat cannot award twice and a
//! rule change recomputes everyone. The achievements about "a course" (half of it, all of it, every
//! simulation or quiz of it) hold for any one course, and are judged at each event against that
//! course's lessons published by then (`LessonFacts::since`), so publishing a lesson never takes
//! one back.

mod achievements;
mod levels;
mod rules;

pub use achievements::{Achievement, ACHIEVEMENTS};
pub use levels::{level_for, Level, LEVELS};
pub use rules::{exercise_passed, quiz_answered, xp_for, Earns, EXERCISE_XP, RULES};

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// What a learner did that can earn XP. Each has a stable key ([`Action::key`]): recording the
/// same action twice is recording one event.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// "Mark lesson complete".
    LessonCompleted { lesson: String },
    /// A simulation stepped or played to its last state; `sim` is its position in the lesson.
    SimulationExplored { lesson: String, sim: u32 },
    /// A quiz answered with at least its pass mark; `quiz` is its position in the lesson.
    QuizPassed { lesson: String, quiz: u32 },
    /// A quiz answered with every answer right at the learner's first attempt at it (ever: a
    /// reset does not make a seen quiz new). Its own event, earning no XP.
    QuizPerfect { lesson: String, quiz: u32 },
    /// A graded exercise passed every check.
    ExercisePassed { exercise: String },
    /// ... with its first submission (recorded with the pass; earns no XP of its own).
    ExerciseFirstTry { exercise: String },
}

impl Action {
    /// The kind, as stored: `lesson`, `simulation`, `quiz`, `quiz-perfect`, `exercise`.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::LessonCompleted { .. } => "lesson",
            Action::SimulationExplored { .. } => "simulation",
            Action::QuizPassed { .. } => "quiz",
            Action::QuizPerfect { .. } => "quiz-perfect",
            Action::ExercisePassed { .. } => "exercise",
            Action::ExerciseFirstTry { .. } => "exercise-first-try",
        }
    }

    /// What the action is about, unique within its kind: `lesson-slug`, `lesson-slug#2`, or
    /// the exercise's id. One event per (kind, subject) counts.
    pub fn subject(&self) -> String {
        match self {
            Action::LessonCompleted { lesson } => lesson.clone(),
            Action::SimulationExplored { lesson, sim } => format!("{lesson}#{sim}"),
            Action::QuizPassed { lesson, quiz } | Action::QuizPerfect { lesson, quiz } => {
                format!("{lesson}#{quiz}")
            }
            Action::ExercisePassed { exercise } | Action::ExerciseFirstTry { exercise } => {
                exercise.clone()
            }
        }
    }

    /// The action a stored (kind, subject) pair records; `None` for a pair this version does
    /// not know (kept in the database, earning nothing).
    pub fn from_stored(kind: &str, subject: &str) -> Option<Action> {
        let in_lesson = || {
            let (lesson, n) = subject.rsplit_once('#')?;
            Some((lesson.to_string(), n.parse::<u32>().ok()?))
        };
        Some(match kind {
            "lesson" => Action::LessonCompleted { lesson: subject.to_string() },
            "simulation" => {
                let (lesson, sim) = in_lesson()?;
                Action::SimulationExplored { lesson, sim }
            }
            "quiz" => {
                let (lesson, quiz) = in_lesson()?;
                Action::QuizPassed { lesson, quiz }
            }
            "quiz-perfect" => {
                let (lesson, quiz) = in_lesson()?;
                Action::QuizPerfect { lesson, quiz }
            }
            "exercise" => Action::ExercisePassed { exercise: subject.to_string() },
            "exercise-first-try" => Action::ExerciseFirstTry { exercise: subject.to_string() },
            _ => return None,
        })
    }

    /// The lesson the action belongs to, if any: resetting a lesson resets these.
    pub fn lesson(&self) -> Option<&str> {
        match self {
            Action::LessonCompleted { lesson }
            | Action::SimulationExplored { lesson, .. }
            | Action::QuizPassed { lesson, .. }
            | Action::QuizPerfect { lesson, .. } => Some(lesson),
            Action::ExercisePassed { .. } | Action::ExerciseFirstTry { .. } => None,
        }
    }
}

/// One recorded action and when it happened (Unix seconds, UTC).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub action: Action,
    pub at: i64,
    /// The day it happened on where the learner was (days since 1970-01-01 in their time zone
    /// then): what streaks count.
    pub day: i64,
}

/// What the rules need to know of the course: each lesson's XP and how many simulations and
/// quizzes it embeds, and the exercises.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CourseFacts {
    /// In course order.
    pub lessons: Vec<LessonFacts>,
    pub exercises: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonFacts {
    pub slug: String,
    /// The course it is in, by slug: the achievements about "a course" count its lessons.
    #[serde(default)]
    pub course: String,
    /// When it was published (Unix seconds), when its file says (`publish_at`): an achievement
    /// about a whole course is judged at each event against the lessons published by then, so
    /// a lesson published later never takes back one a learner earned before it.
    #[serde(default)]
    pub since: Option<i64>,
    /// The lesson's front-matter `xp`, earned by completing it.
    pub xp: u32,
    pub simulations: u32,
    pub quizzes: u32,
}

impl CourseFacts {
    fn lesson(&self, slug: &str) -> Option<&LessonFacts> {
        self.lessons.iter().find(|l| l.slug == slug)
    }

    /// Whether an action is about something the course has (a lesson removed since the event
    /// was recorded earns nothing, but the event is kept in case it comes back).
    pub fn knows(&self, action: &Action) -> bool {
        match action {
            Action::LessonCompleted { lesson } => self.lesson(lesson).is_some(),
            Action::SimulationExplored { lesson, sim } => {
                self.lesson(lesson).is_some_and(|l| *sim < l.simulations)
            }
            Action::QuizPassed { lesson, quiz } | Action::QuizPerfect { lesson, quiz } => {
                self.lesson(lesson).is_some_and(|l| *quiz < l.quizzes)
            }
            Action::ExercisePassed { exercise } | Action::ExerciseFirstTry { exercise } => {
                self.exercises.iter().any(|e| e == exercise)
            }
        }
    }

    pub fn total_simulations(&self) -> u32 {
        self.lessons.iter().map(|l| l.simulations).sum()
    }

    pub fn total_quizzes(&self) -> u32 {
        self.lessons.iter().map(|l| l.quizzes).sum()
    }

    /// Every action the course offers, once each: what a learner who did everything did.
    pub fn every_action(&self) -> impl Iterator<Item = Action> + '_ {
        let lessons = self.lessons.iter().flat_map(|l| {
            let lesson = || l.slug.clone();
            std::iter::once(Action::LessonCompleted { lesson: lesson() })
                .chain(
                    (0..l.simulations)
                        .map(move |sim| Action::SimulationExplored { lesson: lesson(), sim }),
                )
                .chain(
                    (0..l.quizzes).map(move |quiz| Action::QuizPassed { lesson: lesson(), quiz }),
                )
        });
        let exercises =
            self.exercises.iter().map(|e| Action::ExercisePassed { exercise: e.clone() });
        lessons.chain(exercises)
    }

    /// The most XP the course can give: every level must be reachable below it.
    pub fn max_xp(&self) -> u32 {
        self.every_action().map(|a| xp_for(self, &a)).sum()
    }
}

/// Everything the header and the progress page show.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub xp: u32,
    pub level: Level,
    /// XP needed for the next level in all, and still to go; `None` at the top level.
    pub next_level_at: Option<u32>,
    pub lessons_done: u32,
    pub lessons_total: u32,
    pub achievements: Vec<Earned>,
    pub achievements_total: u32,
    /// What each counted event earned, in the order earned.
    pub ledger: Vec<(Action, u32)>,
}

/// An achievement and when it was earned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Earned {
    pub id: String,
    pub at: i64,
}

/// A learner's progress from their events (in any order; duplicates count once).
pub fn progress(course: &CourseFacts, events: &[Event]) -> Progress {
    // The first occurrence of each (kind, subject) counts; later ones are repeats.
    let mut sorted: Vec<&Event> = events.iter().filter(|e| course.knows(&e.action)).collect();
    sorted.sort_by(|a, b| (a.at, &a.action).cmp(&(b.at, &b.action)));
    let mut seen = BTreeSet::new();
    let mut ledger = Vec::new();
    let mut xp = 0u32;
    for e in &sorted {
        if seen.insert((e.action.kind(), e.action.subject())) {
            let earned = xp_for(course, &e.action);
            xp += earned;
            ledger.push((e.action.clone(), earned));
        }
    }
    let lessons_done = sorted
        .iter()
        .filter_map(|e| match &e.action {
            Action::LessonCompleted { lesson } => Some(lesson.as_str()),
            _ => None,
        })
        .collect::<BTreeSet<_>>()
        .len() as u32;
    let level = level_for(xp);
    let next_level_at = LEVELS.get(level.number as usize + 1).map(|l| l.0);
    let achievements = achievements::earned(course, &sorted);
    Progress {
        xp,
        level,
        next_level_at,
        lessons_done,
        lessons_total: course.lessons.len() as u32,
        achievements,
        achievements_total: ACHIEVEMENTS.len() as u32,
        ledger,
    }
}

/// What recording `new` changed: the XP it earned, a level reached, achievements earned. For
/// the toast the page shows at once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Gain {
    pub xp: u32,
    pub level: Option<Level>,
    pub achievements: Vec<String>,
}

/// The difference between progress before and after.
pub fn gain(before: &Progress, after: &Progress) -> Gain {
    let had: BTreeMap<&str, i64> =
        before.achievements.iter().map(|a| (a.id.as_str(), a.at)).collect();
    Gain {
        xp: after.xp.saturating_sub(before.xp),
        level: (after.level.number > before.level.number).then_some(after.level),
        achievements: after
            .achievements
            .iter()
            .filter(|a| !had.contains_key(a.id.as_str()))
            .map(|a| a.id.clone())
            .collect(),
    }
}

#[cfg(test)]
pub(crate) mod test_course;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_course::{course, event};

    #[test]
    fn nothing_done_is_level_0_with_the_first_threshold_to_go() {
        let p = progress(&course(), &[]);
        assert_eq!((p.xp, p.level.number, p.next_level_at, p.level.from_xp), (0, 0, Some(120), 0));
        assert_eq!(
            (p.lessons_done, p.lessons_total, p.achievements.len(), p.achievements_total),
            (0, 3, 0, 14)
        );
        assert_eq!(p.level.name.get(lockstep_lang::Lang::En), "Tensor Curious");
        assert_eq!(p.level.name.get(lockstep_lang::Lang::Ko), "텐서 호기심");
    }

    #[test]
    fn doing_everything_earns_the_course_maximum() {
        let c = course();
        assert_eq!(c.max_xp(), 150 + 5 * 10 + 3 * 20 + EXERCISE_XP);
        let all: Vec<Event> =
            c.every_action().enumerate().map(|(i, a)| event(a, i as i64)).collect();
        assert_eq!(progress(&c, &all).xp, c.max_xp());
    }

    #[test]
    fn actions_round_trip_through_their_stored_form() {
        let all = [
            Action::LessonCompleted { lesson: "ddp-allreduce".into() },
            Action::SimulationExplored { lesson: "ddp-allreduce".into(), sim: 1 },
            Action::QuizPassed { lesson: "a#b".into(), quiz: 0 },
            Action::QuizPerfect { lesson: "a".into(), quiz: 2 },
            Action::ExercisePassed { exercise: "ddp-conversion".into() },
            Action::ExerciseFirstTry { exercise: "ddp-conversion".into() },
        ];
        for a in all {
            assert_eq!(Action::from_stored(a.kind(), &a.subject()), Some(a.clone()), "{a:?}");
        }
        assert_eq!(Action::from_stored("simulation", "no-number"), None);
        assert_eq!(Action::from_stored("karma", "x"), None);
    }

    #[test]
    fn repeating_an_action_counts_once() {
        let done = Action::LessonCompleted { lesson: "a".into() };
        let once = progress(&course(), &[event(done.clone(), 10)]);
        let thrice = progress(
            &course(),
            &[event(done.clone(), 10), event(done.clone(), 20), event(done, 5)],
        );
        assert_eq!(once.xp, 50);
        assert_eq!(thrice.xp, once.xp);
        assert_eq!(thrice.ledger.len(), 1);
        assert_eq!(thrice.lessons_done, 1);
    }

    #[test]
    fn every_kind_of_action_earns_its_rule() {
        let c = course();
        let events = [
            event(Action::LessonCompleted { lesson: "a".into() }, 1),
            event(Action::SimulationExplored { lesson: "a".into(), sim: 0 }, 2),
            event(Action::QuizPassed { lesson: "a".into(), quiz: 0 }, 3),
            event(Action::ExercisePassed { exercise: "ddp".into() }, 4),
        ];
        let p = progress(&c, &events);
        let earned: Vec<u32> = p.ledger.iter().map(|(_, xp)| *xp).collect();
        assert_eq!(earned, [50, rules::SIMULATION_XP, rules::QUIZ_XP, rules::EXERCISE_XP]);
        assert_eq!(p.xp, earned.iter().sum::<u32>());
    }

    #[test]
    fn actions_the_course_does_not_have_earn_nothing() {
        let events = [
            event(Action::LessonCompleted { lesson: "gone".into() }, 1),
            event(Action::SimulationExplored { lesson: "a".into(), sim: 9 }, 2),
            event(Action::QuizPassed { lesson: "c".into(), quiz: 5 }, 3),
            event(Action::QuizPerfect { lesson: "c".into(), quiz: 5 }, 3),
            event(Action::ExercisePassed { exercise: "other".into() }, 4),
            event(Action::ExerciseFirstTry { exercise: "other".into() }, 4),
        ];
        let p = progress(&course(), &events);
        assert_eq!((p.xp, p.ledger.len(), p.achievements.len()), (0, 0, 0));
    }

    #[test]
    fn the_gain_names_the_new_level_and_achievements() {
        let c = course();
        let mut events = vec![event(Action::LessonCompleted { lesson: "a".into() }, 1)];
        let before = progress(&c, &events);
        events.push(event(Action::LessonCompleted { lesson: "b".into() }, 2));
        events.push(event(Action::ExercisePassed { exercise: "ddp".into() }, 3));
        events.push(event(Action::ExerciseFirstTry { exercise: "ddp".into() }, 3));
        let after = progress(&c, &events);
        let g = gain(&before, &after);
        assert_eq!(g.xp, 50 + rules::EXERCISE_XP);
        assert_eq!(g.level.as_ref().map(|l| l.number), Some(1));
        assert!(g.achievements.contains(&"exercise-first-try".to_string()), "{g:?}");
        assert!(!g.achievements.contains(&"first-lesson".to_string()), "already had it");
        assert_eq!(gain(&after, &after), Gain::default());
    }

    /// What the progress panel's bar is drawn from (`ProgressView` in lockstep-web turns it
    /// into the bar and its text).
    #[test]
    fn one_lesson_is_part_of_the_way_to_level_1() {
        let c = course();
        let p = progress(&c, &[event(Action::LessonCompleted { lesson: "a".into() }, 1)]);
        assert_eq!((p.xp, p.level.from_xp, p.next_level_at), (50, 0, Some(120)));
        assert_eq!((p.lessons_done, p.lessons_total), (1, 3));
    }
}
