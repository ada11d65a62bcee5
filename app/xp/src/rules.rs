//! How much XP each action earns. The numbers are here and nowhere else; the rules page shows
//! [`RULES`].

use lockstep_lang::{words, Words};

use crate::{Action, CourseFacts};

pub const SIMULATION_XP: u32 = 10;
pub const QUIZ_XP: u32 = 20;
pub const EXERCISE_XP: u32 = 100;

/// What an action earns, as the rules page says it (in the interface's words for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Earns {
    /// The lesson's own XP, set by its author.
    TheLessons,
    /// This much XP each time.
    Each(u32),
}

/// The rules, for learners: what, and what it earns. The numbers are the constants above.
pub const RULES: [(Words, Earns); 4] = [
    (words! { En: "Complete a lesson", Ko: "레슨 하나 마치기" }, Earns::TheLessons),
    (
        words! {
            En: "Explore a simulation to its end (step or play it to its last state)",
            Ko: "시뮬레이션을 끝까지 돌려 보기 (다음 단계를 누르거나 재생해서 마지막 상태까지)",
        },
        Earns::Each(SIMULATION_XP),
    ),
    (
        words! { En: "Pass a quiz (retries allowed)", Ko: "퀴즈 통과하기 (다시 풀기 가능)" },
        Earns::Each(QUIZ_XP),
    ),
    (
        words! { En: "Pass a graded exercise (every check)", Ko: "채점 과제 통과하기 (모든 항목)" },
        Earns::Each(EXERCISE_XP),
    ),
];

/// What a marked quiz earns: its pass, and a perfect score when this is the learner's first
/// answer to it ever (a reset lesson's quiz is one its learner has already seen answered).
pub fn quiz_answered(
    lesson: &str,
    quiz: u32,
    passed: bool,
    perfect: bool,
    first: bool,
) -> Vec<Action> {
    let mut actions = Vec::new();
    if passed {
        actions.push(Action::QuizPassed { lesson: lesson.into(), quiz });
    }
    if perfect && first {
        actions.push(Action::QuizPerfect { lesson: lesson.into(), quiz });
    }
    actions
}

/// What a passing verdict earns: the exercise, and a first try when it grades the learner's
/// first submission of it.
pub fn exercise_passed(exercise: &str, first_submission: bool) -> Vec<Action> {
    let mut actions = vec![Action::ExercisePassed { exercise: exercise.into() }];
    if first_submission {
        actions.push(Action::ExerciseFirstTry { exercise: exercise.into() });
    }
    actions
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_perfect_score_counts_only_at_the_first_answer_ever() {
        let pass = Action::QuizPassed { lesson: "l".into(), quiz: 1 };
        let perfect = Action::QuizPerfect { lesson: "l".into(), quiz: 1 };
        assert_eq!(quiz_answered("l", 1, true, true, true), [pass.clone(), perfect]);
        assert_eq!(quiz_answered("l", 1, true, true, false), [pass]);
        assert_eq!(quiz_answered("l", 1, false, false, true), []);
    }

    #[test]
    fn a_first_try_counts_only_for_the_first_submission() {
        let passed = Action::ExercisePassed { exercise: "e".into() };
        let first = Action::ExerciseFirstTry { exercise: "e".into() };
        assert_eq!(exercise_passed("e", true), [passed.clone(), first]);
        assert_eq!(exercise_passed("e", false), [passed]);
    }
}
