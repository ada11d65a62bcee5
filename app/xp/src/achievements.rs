//! Achievements and their rules. Each is earned at the moment its rule first holds, replaying
//! the learner's events in time order.

use std::collections::BTreeSet;

use lockstep_lang::{words, Words};

use crate::{Action, CourseFacts, Earned, Event, LessonFacts};

pub struct Achievement {
    pub id: &'static str,
    pub name: Words,
    /// The rule, in words, for the rules page.
    pub rule: Words,
}

const fn a(id: &'static str, name: Words, rule: Words) -> Achievement {
    Achievement { id, name, rule }
}

pub const ACHIEVEMENTS: [Achievement; 14] = [
    a(
        "first-lesson",
        words! { En: "First step", Ko: "첫걸음" },
        words! { En: "Complete a lesson.", Ko: "레슨 하나를 마칩니다." },
    ),
    a(
        "halfway",
        words! { En: "Halfway there", Ko: "반환점" },
        words! { En: "Complete half the lessons of a course.", Ko: "한 코스의 레슨 절반을 마칩니다." },
    ),
    a(
        "all-lessons",
        words! { En: "Course complete", Ko: "완주" },
        words! { En: "Complete every lesson of a course.", Ko: "한 코스의 모든 레슨을 마칩니다." },
    ),
    a(
        "first-simulation",
        words! { En: "Hands on", Ko: "직접 해보기" },
        words! { En: "Explore a simulation to its end.", Ko: "시뮬레이션 하나를 끝까지 돌려 봅니다." },
    ),
    a(
        "all-simulations",
        words! { En: "Simulated everything", Ko: "모든 시뮬레이션" },
        words! { En: "Explore every simulation of a course to its end.", Ko: "한 코스의 모든 시뮬레이션을 끝까지 돌려 봅니다." },
    ),
    a(
        "first-quiz",
        words! { En: "Quiz taker", Ko: "퀴즈 도전" },
        words! { En: "Pass a quiz.", Ko: "퀴즈 하나를 통과합니다." },
    ),
    a(
        "perfect-quiz",
        words! { En: "Flawless", Ko: "만점" },
        words! { En: "Answer every question of a quiz right at your first attempt at it.", Ko: "퀴즈의 첫 시도에서 모든 문제를 맞힙니다." },
    ),
    a(
        "all-quizzes",
        words! { En: "Quiz master", Ko: "퀴즈 마스터" },
        words! { En: "Pass every quiz of a course.", Ko: "한 코스의 모든 퀴즈를 통과합니다." },
    ),
    a(
        "exercise-passed",
        words! { En: "It really runs", Ko: "진짜로 돈다" },
        words! { En: "Pass a graded exercise.", Ko: "채점 과제 하나를 통과합니다." },
    ),
    a(
        "exercise-first-try",
        words! { En: "First try", Ko: "한 번에" },
        words! { En: "Pass a graded exercise with its first submission.", Ko: "채점 과제를 첫 제출에 통과합니다." },
    ),
    a(
        "streak-3",
        words! { En: "Three days running", Ko: "3일 연속" },
        words! { En: "Earn XP on three consecutive days (in your time zone).", Ko: "내 시간대 기준으로 사흘 연속 XP를 얻습니다." },
    ),
    a(
        "streak-7",
        words! { En: "A week in lockstep", Ko: "7일 연속" },
        words! { En: "Earn XP on seven consecutive days (in your time zone).", Ko: "내 시간대 기준으로 이레 연속 XP를 얻습니다." },
    ),
    a(
        "five-days",
        words! { En: "Regular", Ko: "단골" },
        words! { En: "Earn XP on five different days.", Ko: "서로 다른 닷새 동안 XP를 얻습니다." },
    ),
    a(
        "level-3",
        words! { En: "Rank Zero reached", Ko: "랭크 제로 달성" },
        words! { En: "Reach level 3.", Ko: "레벨 3에 도달합니다." },
    ),
];

#[derive(Default)]
struct State {
    lessons: BTreeSet<String>,
    simulations: BTreeSet<String>,
    quizzes: BTreeSet<String>,
    perfect_quiz: bool,
    exercises: BTreeSet<String>,
    first_try: bool,
    days: BTreeSet<i64>,
    xp: u32,
}

impl State {
    fn longest_streak(&self) -> usize {
        let (mut best, mut run, mut prev) = (0, 0, None);
        for &d in &self.days {
            run = if prev == Some(d - 1) { run + 1 } else { 1 };
            best = usize::max(best, run);
            prev = Some(d);
        }
        best
    }

    /// Whether achievement `id` holds after the events so far, the last at `at`.
    fn holds(&self, id: &str, course: &CourseFacts, at: i64) -> bool {
        match id {
            "first-lesson" => !self.lessons.is_empty(),
            "halfway" => self.some_course(course, at, |lessons| {
                let done = lessons.iter().filter(|l| self.lessons.contains(&l.slug)).count();
                done * 2 >= lessons.len()
            }),
            "all-lessons" => self.some_course(course, at, |lessons| {
                lessons.iter().all(|l| self.lessons.contains(&l.slug))
            }),
            "first-simulation" => !self.simulations.is_empty(),
            "all-simulations" => self.some_course(course, at, |lessons| {
                let all = |l: &&LessonFacts| {
                    (0..l.simulations)
                        .all(|s| self.simulations.contains(&format!("{}#{s}", l.slug)))
                };
                lessons.iter().any(|l| l.simulations > 0) && lessons.iter().all(all)
            }),
            "first-quiz" => !self.quizzes.is_empty(),
            "perfect-quiz" => self.perfect_quiz,
            "all-quizzes" => self.some_course(course, at, |lessons| {
                let all = |l: &&LessonFacts| {
                    (0..l.quizzes).all(|q| self.quizzes.contains(&format!("{}#{q}", l.slug)))
                };
                lessons.iter().any(|l| l.quizzes > 0) && lessons.iter().all(all)
            }),
            "exercise-passed" => !self.exercises.is_empty(),
            "exercise-first-try" => self.first_try,
            "streak-3" => self.longest_streak() >= 3,
            "streak-7" => self.longest_streak() >= 7,
            "five-days" => self.days.len() >= 5,
            "level-3" => crate::level_for(self.xp).number >= 3,
            other => unreachable!("achievement {other} has no rule"),
        }
    }

    /// Whether `rule` holds of some course's lessons published by `at` (a course with none
    /// then is no course yet). A lesson's `since` keeps an achievement earned before it was
    /// published: the events before it are judged without it, and what held holds.
    fn some_course(
        &self,
        course: &CourseFacts,
        at: i64,
        rule: impl Fn(&[&LessonFacts]) -> bool,
    ) -> bool {
        let mut courses: Vec<&str> = course.lessons.iter().map(|l| l.course.as_str()).collect();
        courses.sort_unstable();
        courses.dedup();
        courses.iter().any(|c| {
            let lessons: Vec<&LessonFacts> = course
                .lessons
                .iter()
                .filter(|l| l.course == *c && l.since.is_none_or(|since| since <= at))
                .collect();
            !lessons.is_empty() && rule(&lessons)
        })
    }
}

pub(crate) fn earned(course: &CourseFacts, events: &[&Event]) -> Vec<Earned> {
    let mut state = State::default();
    let mut when: Vec<Option<i64>> = vec![None; ACHIEVEMENTS.len()];
    let mut counted = BTreeSet::new();
    for e in events {
        let subject = e.action.subject();
        let first = counted.insert((e.action.kind(), subject.clone()));
        match &e.action {
            Action::LessonCompleted { .. } => drop(state.lessons.insert(subject)),
            Action::SimulationExplored { .. } => drop(state.simulations.insert(subject)),
            Action::QuizPassed { .. } => drop(state.quizzes.insert(subject)),
            Action::QuizPerfect { .. } => state.perfect_quiz = true,
            Action::ExercisePassed { .. } => drop(state.exercises.insert(subject)),
            Action::ExerciseFirstTry { .. } => state.first_try = true,
        }
        if first {
            state.xp += crate::xp_for(course, &e.action);
            state.days.insert(e.day);
        }
        for (i, a) in ACHIEVEMENTS.iter().enumerate() {
            if when[i].is_none() && state.holds(a.id, course, e.at) {
                when[i] = Some(e.at);
            }
        }
    }
    ACHIEVEMENTS
        .iter()
        .zip(when)
        .filter_map(|(a, at)| Some(Earned { id: a.id.to_string(), at: at? }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_course::{course, event};
    use crate::{progress, Action};

    const DAY: i64 = 86_400;

    fn ids(events: &[Event]) -> Vec<String> {
        progress(&course(), events).achievements.into_iter().map(|a| a.id).collect()
    }

    #[test]
    fn there_are_at_least_thirteen_with_unique_ids_and_rules() {
        assert!(ACHIEVEMENTS.len() >= 13);
        let unique: BTreeSet<&str> = ACHIEVEMENTS.iter().map(|a| a.id).collect();
        assert_eq!(unique.len(), ACHIEVEMENTS.len());
        let state = State::default();
        for a in &ACHIEVEMENTS {
            let _ = state.holds(a.id, &course(), 0); // every id has a rule (no panic)
        }
    }

    #[test]
    fn lessons_earn_first_halfway_and_all_at_the_right_moment() {
        let done = |l: &str, at| event(Action::LessonCompleted { lesson: l.into() }, at);
        let p = progress(&course(), &[done("a", 100), done("b", 200), done("c", 300)]);
        let at = |id: &str| p.achievements.iter().find(|a| a.id == id).map(|a| a.at);
        assert_eq!(
            (at("first-lesson"), at("halfway"), at("all-lessons")),
            (Some(100), Some(200), Some(300))
        );
    }

    #[test]
    fn a_course_is_complete_on_its_own_and_stays_so_when_a_lesson_is_published_later() {
        let done = |l: &str, at| event(Action::LessonCompleted { lesson: l.into() }, at);
        let mut two = course();
        let mut second = two.lessons.clone();
        for l in &mut second {
            l.course = "other".into();
            l.slug = format!("other-{}", l.slug);
        }
        two.lessons.extend(second);
        let earned = |c: &CourseFacts, events: &[Event]| -> Vec<String> {
            progress(c, events).achievements.into_iter().map(|a| a.id).collect()
        };
        // One course of two finished: complete, and half of all lessons is no course's half.
        let first = [done("a", 100), done("b", 200), done("c", 300)];
        assert!(earned(&two, &first).contains(&"all-lessons".to_string()));
        let spread = [done("a", 100), done("other-a", 200)];
        assert!(!earned(&two, &spread).contains(&"halfway".to_string()));

        // A lesson published at 1000 into the course finished at 300: still finished, and the
        // XP of what was done is the same. Finishing it before it counted changes nothing;
        // a learner who had not finished by then needs it too.
        let mut grown = course();
        let mut d = grown.lessons[0].clone();
        (d.slug, d.since) = ("d".into(), Some(1000));
        grown.lessons.push(d);
        assert!(earned(&grown, &first).contains(&"all-lessons".to_string()));
        assert_eq!(progress(&grown, &first).xp, progress(&course(), &first).xp);
        let late = [done("a", 1100), done("b", 1200), done("c", 1300)];
        assert!(!earned(&grown, &late).contains(&"all-lessons".to_string()));
        let all = [done("a", 1100), done("b", 1200), done("c", 1300), done("d", 1400)];
        assert!(earned(&grown, &all).contains(&"all-lessons".to_string()));
    }

    #[test]
    fn simulations_quizzes_and_exercises() {
        let c = course();
        let sims: Vec<Event> = c
            .lessons
            .iter()
            .flat_map(|l| {
                (0..l.simulations).map(move |s| {
                    event(Action::SimulationExplored { lesson: l.slug.clone(), sim: s }, 10)
                })
            })
            .collect();
        assert_eq!(ids(&sims[..1]), ["first-simulation"]);
        assert_eq!(ids(&sims), ["first-simulation", "all-simulations"]);
        let quiz = |l: &str, q, perfect: bool| {
            let e = |action| event(action, 10);
            let mut v = vec![e(Action::QuizPassed { lesson: l.into(), quiz: q })];
            if perfect {
                v.push(e(Action::QuizPerfect { lesson: l.into(), quiz: q }));
            }
            v
        };
        assert_eq!(ids(&[quiz("a", 0, false)].concat()), ["first-quiz"]);
        assert_eq!(
            ids(&[quiz("a", 0, false), quiz("a", 0, true)].concat()),
            ["first-quiz", "perfect-quiz"],
            "a later perfect attempt counts"
        );
        assert_eq!(
            ids(&[quiz("a", 0, true), quiz("b", 0, false)].concat()),
            ["first-quiz", "perfect-quiz"]
        );
        assert_eq!(
            ids(&[quiz("a", 0, true), quiz("b", 0, false), quiz("c", 0, false)].concat()),
            ["first-quiz", "perfect-quiz", "all-quizzes"]
        );
        let passed = event(Action::ExercisePassed { exercise: "ddp".into() }, 10);
        let first_try = event(Action::ExerciseFirstTry { exercise: "ddp".into() }, 10);
        assert_eq!(ids(std::slice::from_ref(&passed)), ["exercise-passed"]);
        assert_eq!(ids(&[passed, first_try]), ["exercise-passed", "exercise-first-try"]);
    }

    #[test]
    fn streak_days_are_the_learner_s_not_utc_s() {
        // 23:30, 00:30 and 00:30 a day later in Seoul (2025-11-29 to 12-01): three days there,
        // two in UTC; the store gave each its Seoul day.
        let at = [1_764_426_600, 1_764_430_200, 1_764_516_600];
        let days = [20_421, 20_422, 20_423];
        let events: Vec<Event> = at
            .iter()
            .zip(days)
            .enumerate()
            .map(|(i, (&at, day))| Event {
                action: Action::LessonCompleted { lesson: ["a", "b", "c"][i].into() },
                at,
                day,
            })
            .collect();
        assert!(ids(&events).contains(&"streak-3".to_string()));
        let utc: Vec<Event> = events.iter().map(|e| event(e.action.clone(), e.at)).collect();
        assert!(!ids(&utc).contains(&"streak-3".to_string()), "two UTC days only");
    }

    #[test]
    fn streaks_need_consecutive_days_and_repeats_do_not_count() {
        let sim = |s, day: i64| {
            event(Action::SimulationExplored { lesson: "a".into(), sim: s }, day * DAY + 3600)
        };
        assert!(!ids(&[sim(0, 1), sim(1, 2), sim(2, 4)]).contains(&"streak-3".to_string()));
        // Day 3 only repeats an action already counted: no XP, so not an active day.
        let repeat = event(Action::SimulationExplored { lesson: "a".into(), sim: 0 }, 3 * DAY);
        assert!(!ids(&[sim(0, 1), sim(1, 2), repeat.clone(), sim(2, 4)])
            .contains(&"streak-3".to_string()));
        let lesson =
            |l: &str, day: i64| event(Action::LessonCompleted { lesson: l.into() }, day * DAY);
        let got = ids(&[sim(0, 1), sim(1, 2), lesson("a", 3), lesson("b", 4), lesson("c", 9)]);
        assert!(
            got.contains(&"streak-3".to_string()) && got.contains(&"five-days".to_string()),
            "{got:?}"
        );
        assert!(!got.contains(&"streak-7".to_string()));
        let week: Vec<Event> = (0..7)
            .map(|d| {
                event(
                    Action::QuizPassed {
                        lesson: ["a", "b", "c"][d % 3].into(),
                        quiz: (d / 3) as u32,
                    },
                    d as i64 * DAY,
                )
            })
            .collect();
        let c = crate::test_course::course_with_quizzes(3);
        let p = progress(&c, &week);
        assert!(p.achievements.iter().any(|a| a.id == "streak-7"), "{:?}", p.achievements);
    }

    #[test]
    fn level_3_follows_the_xp() {
        let c = crate::test_course::big_course();
        let events: Vec<Event> = c
            .lessons
            .iter()
            .map(|l| event(Action::LessonCompleted { lesson: l.slug.clone() }, 1))
            .collect();
        let p = progress(&c, &events);
        assert!(p.level.number >= 3);
        assert!(p.achievements.iter().any(|a| a.id == "level-3"));
    }
}
