//! The instructor's view, computed from the store's report rows and the course as it is now:
//! XP and levels by today's rules, answers marked against today's quizzes. Also as CSV.

use std::sync::Arc;

use lockstep_course::live::{LiveCourse, Loaded};
use lockstep_course::{Block, Course, LessonEntry};
use lockstep_store::{LearnerRow, QuizAnswerRow};

use lockstep_rules::progress::facts;
use lockstep_web::model::{LearnerSummary, ProgressView, QuestionStat};
use lockstep_web::Lang;

/// What the instructor view and its downloads are of: the whole site, or one course of it,
/// named by a slug the view listed. Its questions are of the course as instructors see it
/// (drafts too: an instructor tries their quizzes before learners get them); its learners'
/// lessons and quizzes are of the course as learners have it.
pub struct Scope {
    /// Instructors' view of the site.
    pub all: Arc<Loaded>,
    /// Learners' view of the site.
    pub published: Arc<Loaded>,
    /// The course's place in `all`'s catalogue; `None` for the whole site.
    course: Option<usize>,
}

impl Scope {
    /// The scope of `slug`, or of the whole site; `Err` says why a slug names no course.
    pub fn of(live: &LiveCourse, slug: Option<&str>) -> Result<Scope, String> {
        let all = live.loaded_for(true);
        let course = match slug {
            None => None,
            Some(slug) => Some(
                all.catalogue
                    .courses
                    .iter()
                    .position(|e| e.slug == slug)
                    .ok_or_else(|| format!("there is no course `{slug}`"))?,
            ),
        };
        Ok(Scope { all, published: live.loaded(), course })
    }

    /// The course's slug; `None` for the whole site.
    pub fn slug(&self) -> Option<&str> {
        self.course.map(|i| self.all.catalogue.courses[i].slug.as_str())
    }

    /// The course as instructors see it; `None` for the whole site.
    fn course(&self) -> Option<&Course> {
        self.course.map(|i| &self.all.catalogue.courses[i].course)
    }

    /// Every learner's progress, in the course's published lessons (none while it is a draft),
    /// their levels named in `lang`.
    pub fn learners(&self, rows: &[LearnerRow], lang: Lang) -> Vec<LearnerSummary> {
        let unpublished = Course::default();
        let course = self.slug().map(|slug| {
            let found = self.published.catalogue.courses.iter().find(|p| p.slug == slug);
            found.map_or(&unpublished, |p| &p.course)
        });
        learners(&self.published.course, course, rows, lang)
    }

    /// Every question of the course's quizzes, drafts' too, worded as the `lang` edition has
    /// them (the source's where a lesson is not translated).
    pub fn questions(&self, answers: &[QuizAnswerRow], lang: Lang) -> Vec<QuestionStat> {
        let edition = self.all.edition(lang);
        questions(self.course().unwrap_or(&self.all.course), &edition.course, answers)
    }
}

/// Every learner's progress: XP, level and achievements on the whole site; lessons and quizzes
/// in `course` (the whole site's when `None`).
fn learners(
    site: &Course,
    course: Option<&Course>,
    rows: &[LearnerRow],
    lang: Lang,
) -> Vec<LearnerSummary> {
    let on_site = facts(site);
    let in_course = course.map(facts);
    let mut learners: Vec<LearnerSummary> = rows
        .iter()
        .map(|row| {
            let p = lockstep_xp::progress(&on_site, &row.events);
            let c = in_course.as_ref().map(|f| lockstep_xp::progress(f, &row.events));
            let c = c.as_ref().unwrap_or(&p);
            LearnerSummary {
                who: row.email.clone().unwrap_or_else(|| {
                    format!("anonymous {}", row.learner_id.chars().take(8).collect::<String>())
                }),
                signed_up: row.email.is_some(),
                xp: p.xp,
                level: p.level.number,
                level_name: p.level.name.get(lang).to_string(),
                lessons_done: c.lessons_done,
                lessons_total: c.lessons_total,
                quizzes_passed: c
                    .ledger
                    .iter()
                    .filter(|(a, _)| matches!(a, lockstep_xp::Action::QuizPassed { .. }))
                    .count() as u32,
                achievements: p.achievements.len() as u32,
            }
        })
        .collect();
    learners.sort_by(|a, b| b.xp.cmp(&a.xp).then_with(|| a.who.cmp(&b.who)));
    learners
}

/// The quizzes of a lesson, in page order.
fn quizzes_of(lesson: &lockstep_course::Lesson) -> impl Iterator<Item = &lockstep_course::Quiz> {
    lesson.body.iter().filter_map(|b| match b {
        Block::Quiz(q) => Some(q),
        _ => None,
    })
}

/// Every question of every quiz in the course, in course order, with how many answered it
/// (in their first answer to its quiz) and how many of those got it right; titles and prompts
/// from `worded` (an edition of the site) where it has the lesson, as answers are marked
/// against `course`'s quizzes, whose translations keep their order.
fn questions(course: &Course, worded: &Course, answers: &[QuizAnswerRow]) -> Vec<QuestionStat> {
    let mut stats = Vec::new();
    for entry in &course.lessons {
        let LessonEntry::Ready(lesson) = entry else { continue };
        let translated = match worded.find(&lesson.slug) {
            Some((_, LessonEntry::Ready(t))) => t,
            _ => lesson,
        };
        for (index, quiz) in quizzes_of(lesson).enumerate() {
            let words = quizzes_of(translated).nth(index);
            let index = index as u32;
            let first = stats.len();
            for (n, question) in quiz.questions.iter().enumerate() {
                let prompt = words.and_then(|q| q.questions.get(n)).unwrap_or(question);
                stats.push(QuestionStat {
                    lesson: lesson.slug.clone(),
                    lesson_title: translated.front.title.clone(),
                    quiz: index,
                    question: n as u32 + 1,
                    prompt: plain_text(&prompt.prompt_html),
                    answered: 0,
                    right: 0,
                });
            }
            let mine = answers.iter().filter(|a| a.lesson == lesson.slug && a.quiz == index);
            for row in mine {
                // Answers to an older shape of the quiz no longer fit; they are left out.
                let Ok(marked) = quiz.grade(&row.answers) else { continue };
                for (stat, (chosen, right)) in stats[first..].iter_mut().zip(&marked.answers) {
                    if !chosen.is_empty() {
                        stat.answered += 1;
                        stat.right += u32::from(*right);
                    }
                }
            }
        }
    }
    stats
}

pub fn learners_csv(learners: &[LearnerSummary]) -> String {
    let mut out = String::from("learner,signed_up,xp,level,level_name,lessons_done,lessons_total,quizzes_passed,achievements\n");
    for l in learners {
        let row = [
            l.who.clone(),
            l.signed_up.to_string(),
            l.xp.to_string(),
            l.level.to_string(),
            l.level_name.clone(),
            l.lessons_done.to_string(),
            l.lessons_total.to_string(),
            l.quizzes_passed.to_string(),
            l.achievements.to_string(),
        ];
        out += &csv_row(&row);
    }
    out
}

pub fn questions_csv(questions: &[QuestionStat]) -> String {
    let mut out = String::from("lesson,quiz,question,prompt,answered,right,percent_right\n");
    for q in questions {
        let row = [
            q.lesson.clone(),
            (q.quiz + 1).to_string(),
            q.question.to_string(),
            q.prompt.clone(),
            q.answered.to_string(),
            q.right.to_string(),
            q.percent_right().map_or_else(String::new, |p| p.to_string()),
        ];
        out += &csv_row(&row);
    }
    out
}

/// One RFC 4180 line. A field a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first:
/// an email can start with one) is prefixed with `'`.
fn csv_row(fields: &[String]) -> String {
    let cells: Vec<String> = fields
        .iter()
        .map(|f| {
            let f = if f.starts_with(['=', '+', '-', '@', '\t', '\r']) {
                format!("'{f}")
            } else {
                f.clone()
            };
            if f.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", f.replace('"', "\"\""))
            } else {
                f
            }
        })
        .collect();
    cells.join(",") + "\r\n"
}

/// The text of rendered markdown: tags dropped, the five escapes undone.
fn plain_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
        .trim()
        .to_string()
}

/// The instructor's page, for a viewer already checked to be an instructor.
/// The instructor view of `scope`: its learners, its questions and its exercises'
/// submissions.
pub fn view(
    scope: &Scope,
    rows: &[LearnerRow],
    answers: &[QuizAnswerRow],
    submissions: &[lockstep_store::Submission],
    progress: ProgressView,
    lang: Lang,
) -> lockstep_web::model::InstructorView {
    let course = scope.course();
    let exercises: Vec<&str> =
        course.map_or_else(Vec::new, |c| c.exercises().map(|(_, e)| e.id.as_str()).collect());
    let in_course = |s: &&lockstep_store::Submission| {
        course.is_none() || exercises.contains(&s.exercise.as_str())
    };
    let who = |learner: &str| {
        rows.iter()
            .find(|r| r.learner_id == learner)
            .and_then(|r| r.email.clone())
            .unwrap_or_else(|| learner.to_string())
    };
    lockstep_web::model::InstructorView {
        learners: scope.learners(rows, lang),
        questions: scope.questions(answers, lang),
        submissions: submissions
            .iter()
            .filter(in_course)
            .map(|s| (who(&s.learner_id), s.exercise.clone(), crate::grading::row(s)))
            .collect(),
        reports: Vec::new(),
        hold_first_comments: false,
        progress,
        courses: Vec::new(),
        course: scope.slug().map(str::to_string),
    }
}

/// The reports as the instructor view lists them, in `lang`.
pub fn reports(
    rules: &lockstep_rules::Rules,
    reports: &[lockstep_store::Report],
    lang: lockstep_web::Lang,
) -> Vec<lockstep_web::model::ReportRow> {
    let loaded = rules.course.loaded();
    let edition = loaded.edition(lang);
    let report_words = &lockstep_i18n::t(lang).report;
    reports
        .iter()
        .map(|r| {
            let title = crate::talk::title_of(rules, &r.place, lang);
            let page = crate::talk::href_of(&r.place, None, lang).unwrap_or_default();
            let mut place = title;
            let mut href = page.clone();
            if let Some(section) = &r.section {
                let heading = match lockstep_routes::Place::parse(&r.place) {
                    Some(lockstep_routes::Place::Lesson(slug)) => edition
                        .course
                        .sections(&slug)
                        .into_iter()
                        .find_map(|(id, title)| (&id == section).then_some(title)),
                    _ => None,
                };
                place = format!("{place} › {}", heading.unwrap_or_else(|| section.clone()));
                href = format!("{page}#{section}");
            }
            if let Some((quiz, n)) = r.question.as_deref().and_then(|q| q.split_once('.')) {
                if let (Ok(quiz), Ok(n)) = (quiz.parse::<u32>(), n.parse::<u32>()) {
                    place = format!("{place} › {}", (report_words.question)(quiz, n));
                }
            }
            if let Some(id) = r.submission_id.as_deref().and_then(|s| s.parse::<i64>().ok()) {
                place = format!("{place} › #{id}");
                href = lang.path(&lockstep_routes::submission(id));
            }
            lockstep_web::model::ReportRow {
                id: r.id,
                when: crate::moment(r.created_ms),
                place,
                href,
                from: r.email.clone(),
                body: r.body.clone(),
                status: r.status.clone(),
                reply: r.reply.clone().unwrap_or_default(),
            }
        })
        .collect()
}

pub fn reports_csv(reports: &[lockstep_web::model::ReportRow]) -> String {
    let mut out = String::from("id,when,where,from,report,status,answer\n");
    for r in reports {
        let row = [
            r.id.to_string(),
            r.when.utc.clone(),
            r.place.clone(),
            r.from.clone().unwrap_or_default(),
            r.body.clone(),
            r.status.clone(),
            r.reply.clone(),
        ];
        out += &csv_row(&row);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_and_defuses_formulas() {
        let row = csv_row(&["=HYPERLINK(\"x\")".into(), "a,b".into(), "plain".into()]);
        assert_eq!(row, "\"'=HYPERLINK(\"\"x\"\")\",\"a,b\",plain\r\n");
    }

    #[test]
    fn html_becomes_plain_text() {
        assert_eq!(
            plain_text("<p>Batch <code>6</code> on 4 GPUs &amp; <em>one</em> idle?</p>"),
            "Batch 6 on 4 GPUs & one idle?"
        );
    }
}
