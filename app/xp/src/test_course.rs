//! Small courses for the tests.

use crate::{Action, CourseFacts, Event, LessonFacts};

fn lesson(slug: &str, xp: u32, simulations: u32, quizzes: u32) -> LessonFacts {
    LessonFacts { slug: slug.into(), course: "c".into(), since: None, xp, simulations, quizzes }
}

/// Three lessons of 50 XP: `a` with 3 simulations and `b`, `c` with one each; one quiz each;
/// one exercise, `ddp`.
pub fn course() -> CourseFacts {
    CourseFacts {
        lessons: vec![lesson("a", 50, 3, 1), lesson("b", 50, 1, 1), lesson("c", 50, 1, 1)],
        exercises: vec!["ddp".into()],
    }
}

pub fn course_with_quizzes(per_lesson: u32) -> CourseFacts {
    let mut c = course();
    for l in &mut c.lessons {
        l.quizzes = per_lesson;
    }
    c
}

/// Ten lessons of 100 XP.
pub fn big_course() -> CourseFacts {
    CourseFacts {
        lessons: (0..10).map(|i| lesson(&format!("l{i}"), 100, 0, 0)).collect(),
        exercises: vec![],
    }
}

pub fn event(action: Action, at: i64) -> Event {
    Event { action, at, day: at.div_euclid(86_400) }
}
