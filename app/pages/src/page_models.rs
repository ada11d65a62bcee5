//! The course's types as the pages' serde models (`lockstep_web::model`): what crosses from the
//! server to the browser.

use lockstep_course::live::Loaded;
use lockstep_course::{Block, Course, LessonEntry, Quiz, Visibility};
use lockstep_i18n::Lang;
use lockstep_store::LastAnswers;
use lockstep_xp::Progress;

use lockstep_web::model::{
    AchievementView, BodyBlock, CatalogueView, CourseCard, CourseOverview, CourseXp, LessonCard,
    LessonLearner, LessonLookup, LessonView, NeighbourLink, ProgressView, Progressed, QuizBlock,
    QuizLearner, QuizQuestion, QuizReview, ReviewedOption, TocItem, Unpublished, XpRules,
};

/// A course's page in `lang`, as `loaded` (the reader's view of the site) has it; `None` for a
/// course it does not have.
pub fn overview(
    loaded: &Loaded,
    slug: &str,
    lang: Lang,
    completed: &[String],
    progress: ProgressView,
) -> Option<CourseOverview> {
    let entry = loaded.catalogue.courses.iter().find(|e| e.slug == slug)?;
    let meta = loaded.course_meta(entry, lang);
    let edition = loaded.edition(lang);
    let lessons: Vec<LessonCard> = entry
        .course
        .lessons
        .iter()
        .map(|source| edition.course.find(source.slug()).map_or(source, |(_, e)| e))
        .enumerate()
        .map(|(i, entry)| {
            let front = entry.front();
            LessonCard {
                slug: entry.slug().to_string(),
                position: i + 1,
                title: front.map_or_else(|| entry.file().to_string(), |f| f.title.clone()),
                minutes: entry.reading().minutes(),
                tags: front.map(|f| f.tags.clone()).unwrap_or_default(),
                summary: front.map(|f| f.summary.clone()).unwrap_or_default(),
                xp: front.map_or(0, |f| f.xp),
                completed: completed.iter().any(|s| s == entry.slug()),
                available: matches!(entry, LessonEntry::Ready(_)),
                unpublished: loaded.is_draft(entry.slug()),
            }
        })
        .collect();
    Some(CourseOverview {
        slug: slug.to_string(),
        title: meta.title.clone(),
        summary: meta.summary.clone(),
        authors: entry.course.meta.authors.clone(),
        completed: lessons.iter().filter(|l| l.completed).count(),
        lessons,
        progress,
        unpublished: loaded.drafts.courses.contains_key(slug),
    })
}

/// The catalogue in `lang`, as `loaded` has it.
pub fn catalogue(
    loaded: &Loaded,
    lang: Lang,
    completed: &[String],
    progress: ProgressView,
) -> CatalogueView {
    let courses: Vec<CourseOverview> = loaded
        .catalogue
        .courses
        .iter()
        .filter_map(|e| overview(loaded, &e.slug, lang, completed, progress.clone()))
        .collect();
    let cards = courses
        .iter()
        .map(|c| CourseCard {
            slug: c.slug.clone(),
            title: c.title.clone(),
            summary: c.summary.clone(),
            authors: c.authors.clone(),
            lessons: c.lessons.len(),
            minutes: c.lessons.iter().map(|l| l.minutes).sum(),
            completed: c.completed,
            next: c
                .lessons
                .iter()
                .find(|l| !l.completed)
                .map(|l| NeighbourLink { slug: l.slug.clone(), title: l.title.clone() }),
            unpublished: c.unpublished,
        })
        .collect();
    let only = match <[CourseOverview; 1]>::try_from(courses) {
        Ok([only]) => Some(only),
        Err(_) => None,
    };
    CatalogueView { courses: cards, progress, only }
}

/// Who a lesson page is for: a learner's view has only what is published.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    Learner,
    Instructor,
    /// An instructor seeing a lesson as learners will once it is published.
    Preview,
}

/// The lesson page's model in `lang`: the same for every learner. `loaded` is the view of the
/// site the viewer has (drafts in it for an instructor). Its position and neighbours are its
/// course's.
pub fn lookup(loaded: &Loaded, lang: Lang, slug: &str, viewer: Viewer) -> LessonLookup {
    let edition = loaded.edition(lang);
    let course = &edition.course;
    let Some((_, entry)) = course.find(slug) else {
        return LessonLookup::Missing;
    };
    let lesson = match entry {
        LessonEntry::Ready(lesson) => lesson,
        LessonEntry::Broken { file, front, problems, .. } => {
            return LessonLookup::Broken {
                title: front.as_ref().map_or_else(|| file.clone(), |f| f.title.clone()),
                problems: problems.iter().map(|p| p.to_string()).collect(),
            }
        }
    };
    let owner = loaded.catalogue.find(slug).map(|(owner, _)| owner);
    // Its course's lessons, as this viewer gets them: a preview leaves the other drafts out.
    let siblings: Vec<&str> = owner
        .map(|owner| owner.course.lessons.iter().map(LessonEntry::slug).collect())
        .unwrap_or_else(|| vec![slug])
        .into_iter()
        .filter(|s| *s == slug || viewer != Viewer::Preview || !loaded.is_draft(s))
        .collect();
    let index = siblings.iter().position(|s| *s == slug).unwrap_or(0);
    let neighbour = |i: usize| {
        let e = course.find(siblings.get(i)?)?.1;
        Some(NeighbourLink {
            slug: e.slug().to_string(),
            title: e.front().map_or_else(|| e.file().to_string(), |f| f.title.clone()),
        })
    };
    let unpublished = loaded.drafts.lessons.get(slug).map(|v| Unpublished {
        scheduled: match v {
            Visibility::Scheduled(at) => {
                Some(crate::moment(lockstep_course::publishing::unix(*at) * 1000))
            }
            _ => None,
        },
        preview: viewer == Viewer::Preview,
        version: lesson.version.clone(),
    });
    let course = owner.map(|owner| NeighbourLink {
        slug: owner.slug.clone(),
        title: loaded.course_meta(owner, lang).title.clone(),
    });
    LessonLookup::Found(LessonView {
        slug: lesson.slug.clone(),
        course,
        position: index + 1,
        total: siblings.len(),
        title: lesson.front.title.clone(),
        minutes: lesson.reading.minutes(),
        tags: lesson.front.tags.clone(),
        xp: lesson.front.xp,
        summary: lesson.front.summary.clone(),
        body: {
            let mut quizzes = 0u32;
            lesson
                .body
                .iter()
                .map(|b| match b {
                    Block::Html(h) => BodyBlock::Html(h.clone()),
                    Block::Simulation(s) => BodyBlock::Simulation(s.clone().into()),
                    Block::Quiz(q) => {
                        quizzes += 1;
                        BodyBlock::Quiz(quiz_block(lang, slug, quizzes - 1, q))
                    }
                })
                .collect()
        },
        toc: lesson
            .toc
            .iter()
            .map(|t| TocItem { level: t.level, id: t.id.clone(), title: t.title.clone() })
            .collect(),
        prev: index.checked_sub(1).and_then(neighbour),
        next: neighbour(index + 1),
        untranslated: edition
            .untranslated
            .contains(slug)
            .then(|| owner.map_or(Lang::En, |o| o.course.lang())),
        sections: loaded
            .editions()
            .filter_map(|e| {
                let lesson = e.course.find(slug)?.1.ready()?;
                Some((e.lang, lesson.toc.iter().map(|t| t.id.clone()).collect()))
            })
            .collect(),
        request_parts: Vec::new(),
        unpublished,
    })
}

/// The lesson page's learner. `learner`: their id, when they have one; `quiz_answers`: their
/// last answers to this lesson's quizzes, reviewed on the page.
pub fn lesson_learner(
    course: &Course,
    slug: &str,
    learner: Option<&str>,
    completed: &[String],
    quiz_answers: &[LastAnswers],
    progress: ProgressView,
    has_progress: bool,
) -> LessonLearner {
    let quizzes = match course.find(slug) {
        Some((_, LessonEntry::Ready(lesson))) => lesson
            .body
            .iter()
            .filter_map(|b| match b {
                Block::Quiz(q) => Some(q),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    LessonLearner {
        progress,
        completed: completed.iter().any(|s| s == slug),
        has_progress,
        quizzes: quizzes
            .into_iter()
            .zip(0u32..)
            .map(|(quiz, index)| {
                let key = quiz_key(learner, slug, index);
                let last = quiz_answers.iter().find(|a| a.quiz == index);
                let attempt = last.map_or(0, |a| a.attempts);
                QuizLearner {
                    attempt,
                    own_order: learner.is_some(),
                    order: quiz.order(&key, attempt),
                    // In the order the attempt was answered in: a visitor's first answer was
                    // given on a page in the visitors' order.
                    review: last.and_then(|a| {
                        let shown = if a.visitor_order { None } else { learner };
                        let key = quiz_key(shown, slug, index);
                        review(quiz, &a.answers, &quiz.order(&key, a.attempts.saturating_sub(1)))
                    }),
                }
            })
            .collect(),
    }
}

/// What fixes a learner's order of a quiz's options (with the attempt): the learner, or for
/// a browser not yet given an id the same for everyone, so such pages can be cached.
pub use lockstep_rules::quiz::quiz_key;

/// The review of the learner's last answers (`shown`: the order that attempt showed), when
/// they still fit the quiz as it is now. The right answers only once passed.
fn review(quiz: &Quiz, answers: &[Vec<usize>], shown: &[Vec<usize>]) -> Option<QuizReview> {
    let marked = quiz.grade(answers).ok()?;
    let revealed = marked.passed;
    Some(QuizReview {
        right: marked.right as u32,
        passed: marked.passed,
        questions: quiz
            .questions
            .iter()
            .zip(&marked.answers)
            .zip(shown)
            .map(|((question, (chosen, right)), order)| {
                let options = order
                    .iter()
                    .filter_map(|&o| Some((o, question.options.get(o)?)))
                    .map(|(o, option)| {
                        let chosen = chosen.contains(&o);
                        ReviewedOption {
                            option: o,
                            chosen,
                            correct: revealed.then_some(option.correct),
                            explain_html: (revealed || chosen).then(|| option.explain_html.clone()),
                        }
                    })
                    .collect();
                (*right, options)
            })
            .collect(),
    })
}

/// A quiz without its answers.
fn quiz_block(lang: Lang, slug: &str, index: u32, quiz: &Quiz) -> QuizBlock {
    QuizBlock {
        index,
        action: lang.path(&lockstep_routes::quiz_answers(slug, index)),
        questions: quiz
            .questions
            .iter()
            .map(|q| QuizQuestion {
                prompt_html: q.prompt_html.clone(),
                multiple: q.multiple,
                options_html: q.options.iter().map(|o| o.text_html.clone()).collect(),
            })
            .collect(),
        pass_mark: quiz.pass_mark() as u32,
    }
}

/// What the XP rules need to know of the course: each ready lesson's XP and how many
/// simulations and quizzes it embeds. (A broken lesson's events are kept and count again once
/// it is mended.)
/// `account`: the signed-in account's email.
pub fn progress_view(p: &Progress, account: Option<&str>) -> ProgressView {
    ProgressView {
        xp: p.xp,
        level: p.level.number,
        level_name: p.level.name.into(),
        level_from: p.level.from_xp,
        next_level_at: p.next_level_at,
        lessons_done: p.lessons_done,
        lessons_total: p.lessons_total,
        achievements: p.achievements.len() as u32,
        achievements_total: p.achievements_total,
        account: account.map(str::to_string),
        notice: None,
    }
}

/// What one recorded action changed, for the toast.
pub fn progressed(before: &Progress, after: &Progress, account: Option<&str>) -> Progressed {
    let gain = lockstep_xp::gain(before, after);
    Progressed {
        progress: progress_view(after, account),
        xp: gain.xp,
        level: gain.level.map(|l| (l.number, l.name.into())),
        achievements: gain
            .achievements
            .iter()
            .filter_map(|id| lockstep_xp::ACHIEVEMENTS.iter().find(|a| a.id == id))
            .map(|a| a.name.into())
            .collect(),
    }
}

pub fn xp_rules(loaded: &Loaded, lang: Lang, progress: &Progress, view: ProgressView) -> XpRules {
    let w = &lockstep_i18n::t(lang).xp;
    let earns = |earns: &lockstep_xp::Earns| match *earns {
        lockstep_xp::Earns::TheLessons => w.earns_the_lessons.to_string(),
        lockstep_xp::Earns::Each(xp) => (w.earns_each)(xp),
    };
    XpRules {
        rules: lockstep_xp::RULES
            .iter()
            .map(|(what, xp)| (what.get(lang).to_string(), earns(xp)))
            .collect(),
        levels: lockstep_xp::LEVELS
            .iter()
            .enumerate()
            .map(|(n, (from, name))| (n as u32, *from, name.get(lang).to_string()))
            .collect(),
        achievements: lockstep_xp::ACHIEVEMENTS
            .iter()
            .map(|a| AchievementView {
                name: a.name.get(lang).into(),
                rule: a.rule.get(lang).into(),
                earned: progress.achievements.iter().any(|e| e.id == a.id),
            })
            .collect(),
        progress: view,
        courses: loaded
            .catalogue
            .courses
            .iter()
            .map(|e| course_xp(loaded, e, lang, progress))
            .collect(),
    }
}

/// What the learner earned in one course, of what it gives.
fn course_xp(
    loaded: &Loaded,
    entry: &lockstep_course::catalogue::Entry,
    lang: Lang,
    progress: &Progress,
) -> CourseXp {
    let facts = lockstep_rules::progress::facts(&entry.course);
    let exercises: Vec<&str> = entry.course.exercises().map(|(_, e)| e.id.as_str()).collect();
    let in_course = |action: &lockstep_xp::Action| match action {
        lockstep_xp::Action::ExercisePassed { exercise }
        | lockstep_xp::Action::ExerciseFirstTry { exercise } => {
            exercises.contains(&exercise.as_str())
        }
        other => other.lesson().is_some_and(|l| entry.course.find(l).is_some()),
    };
    let earned = progress.ledger.iter().filter(|(action, _)| in_course(action));
    let title = loaded.course_meta(entry, lang).title.clone();
    CourseXp {
        slug: entry.slug.clone(),
        title,
        lessons_done: earned
            .clone()
            .filter(|(a, _)| matches!(a, lockstep_xp::Action::LessonCompleted { .. }))
            .count(),
        lessons: facts.lessons.len(),
        xp: earned.map(|(_, xp)| xp).sum(),
        xp_max: facts.max_xp(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_rules::progress::facts;
    use lockstep_xp::{progress, CourseFacts, Event, LEVELS};

    fn course_facts() -> CourseFacts {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons/ddp");
        facts(&lockstep_course::load(&dir).expect("the course loads"))
    }

    /// Levels are fixed numbers and the course changes: a lesson taken out must not leave the
    /// top level out of reach.
    #[test]
    fn every_level_is_reachable_from_the_course() {
        let facts = course_facts();
        let (top, ..) = LEVELS[LEVELS.len() - 1];
        assert!(
            top <= facts.max_xp(),
            "the top level needs {top} XP; the course gives {}",
            facts.max_xp()
        );
        let everything: Vec<Event> =
            facts.every_action().map(|action| Event { action, at: 0, day: 0 }).collect();
        let p = progress(&facts, &everything);
        assert_eq!(p.level.number as usize, LEVELS.len() - 1);
    }

    /// The bar and the text under it tell the same story at every XP the course allows.
    #[test]
    fn the_bar_and_its_text_agree() {
        let facts = course_facts();
        let actions: Vec<_> = facts.every_action().collect();
        for n in 0..=actions.len() {
            let events: Vec<Event> =
                actions[..n].iter().map(|a| Event { action: a.clone(), at: 0, day: 0 }).collect();
            let p = progress(&facts, &events);
            let view = progress_view(&p, None);
            let text = view.bar_text(lockstep_i18n::Lang::En);
            let percent = view.level_percent();
            match p.next_level_at {
                None => assert_eq!((text.as_str(), percent), ("Top level reached", 100)),
                Some(next) => {
                    let into = p.xp - p.level.from_xp;
                    let span = next - p.level.from_xp;
                    assert!(
                        text.starts_with(&format!(
                            "{into}/{span} XP to level {} · ",
                            p.level.number + 1
                        )),
                        "{text}"
                    );
                    assert!(
                        text.ends_with(&format!("· {} XP to go · {percent}%", next - p.xp)),
                        "{text}"
                    );
                    assert_eq!(percent, 100 * into / span, "{text}");
                }
            }
        }
    }
}
