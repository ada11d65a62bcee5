//! How much XP each action earns. The numbers are here and nowhere else; the rules page shows
//! [`RULES`].

use crate::{Action, CourseFacts};

pub const SIMULATION_XP: u32 = 10;
pub const QUIZ_XP: u32 = 20;
pub const EXERCISE_XP: u32 = 100;

/// The rules in words, for learners: (what, XP). A lesson's XP is its own, set by its author.
pub const RULES: [(&str, &str); 4] = [
    ("Complete a lesson", "the lesson's XP, shown on its page"),
    ("Explore a simulation to its end (step or play it to its last state)", "10 XP each"),
    ("Pass a quiz (retries allowed)", "20 XP each"),
    ("Pass a graded exercise (every check)", "100 XP each"),
];

/// XP for one action, the first time it is recorded.
pub fn xp_for(course: &CourseFacts, action: &Action) -> u32 {
    match action {
        Action::LessonCompleted { lesson } => course.lesson(lesson).map_or(0, |l| l.xp),
        Action::SimulationExplored { .. } => SIMULATION_XP,
        Action::QuizPassed { .. } => QUIZ_XP,
        Action::QuizPerfect { .. } => 0,
        Action::ExercisePassed { .. } => EXERCISE_XP,
        Action::ExerciseFirstTry { .. } => 0,
    }
}
