//! A translated lesson against the lesson it translates: the words differ, the structure must
//! not. The same front matter numbers (order, XP, tags), the same simulations with the same
//! parameters, the same quizzes (as many questions, each with as many options and the same
//! correct ones: answers are kept by position and marked by the server, whatever the language),
//! the same exercises with the same code (comments aside), a heading for each heading, and as
//! many footnotes. Each difference is reported on the translation's line where it has one.

use crate::markdown::{Block, TocEntry};
use crate::quiz::Quiz;
use crate::{Lesson, Simulation};

/// A translation's heading ids, each with the source heading it stands for: how a reader
/// switching language keeps their place.
pub type HeadingMap = Vec<(String, String)>;

/// The differences between `translation` and `source`, as (line in the translation, message),
/// and the heading map when the headings correspond.
pub fn compare(translation: &Lesson, source: &Lesson) -> (Vec<(usize, String)>, HeadingMap) {
    let mut problems = Vec::new();
    let (t, s) = (&translation.front, &source.front);
    if (t.order, t.xp, &t.tags) != (s.order, s.xp, &s.tags) {
        problems.push((
            1,
            format!(
                "front matter: order, xp and tags must be the source's ({}, {}, {:?}), not ({}, {}, {:?})",
                s.order, s.xp, s.tags, t.order, t.xp, t.tags
            ),
        ));
    }
    if (t.status, t.publish_at) != Default::default() {
        let message = "front matter: `status` and `publish_at` are the source lesson's to set: \
                       a translation is published with it, so remove them here";
        problems.push((1, message.to_string()));
    }
    simulations(translation, source, &mut problems);
    quizzes(translation, source, &mut problems);
    exercises(translation, source, &mut problems);
    let map = headings(&translation.toc, &source.toc, &mut problems);
    if translation.outline.footnotes != source.outline.footnotes {
        problems.push((
            1,
            format!(
                "{} footnotes, the source has {}",
                translation.outline.footnotes, source.outline.footnotes
            ),
        ));
    }
    (problems, map)
}

fn simulations(translation: &Lesson, source: &Lesson, problems: &mut Vec<(usize, String)>) {
    let (t, s) = (simulations_of(translation), simulations_of(source));
    let lines = &translation.outline.simulations;
    for (i, (ts, ss)) in t.iter().zip(&s).enumerate() {
        if ts != ss {
            let message =
                format!("simulation {}: `{ts:?}` differs from the source's `{ss:?}`", i + 1);
            problems.push((lines[i], message));
        }
    }
    if t.len() != s.len() {
        let line = lines.get(s.len()).or(lines.last()).copied().unwrap_or(1);
        problems.push((line, format!("{} simulations, the source has {}", t.len(), s.len())));
    }
}

fn quizzes(translation: &Lesson, source: &Lesson, problems: &mut Vec<(usize, String)>) {
    let (t, s) = (quizzes_of(translation), quizzes_of(source));
    for (n, (tq, sq)) in t.iter().zip(&s).enumerate() {
        let at = tq.line;
        let n = n + 1;
        if tq.questions.len() != sq.questions.len() {
            let message = format!(
                "quiz {n}: {} questions, the source has {}",
                tq.questions.len(),
                sq.questions.len()
            );
            problems.push((at, message));
            continue;
        }
        for (k, (a, b)) in tq.questions.iter().zip(&sq.questions).enumerate() {
            let k = k + 1;
            if a.options.len() != b.options.len() {
                let message = format!(
                    "quiz {n}, question {k}: {} options, the source has {}",
                    a.options.len(),
                    b.options.len()
                );
                problems.push((at, message));
            } else if a.multiple != b.multiple
                || a.options.iter().zip(&b.options).any(|(x, y)| x.correct != y.correct)
            {
                let correct = |q: &crate::quiz::Question| -> Vec<usize> {
                    q.options
                        .iter()
                        .enumerate()
                        .filter(|(_, o)| o.correct)
                        .map(|(i, _)| i + 1)
                        .collect()
                };
                let message = format!(
                    "quiz {n}, question {k}: the correct options are {:?}, the source's are {:?} \
                     (answers are kept by position)",
                    correct(a),
                    correct(b)
                );
                problems.push((at, message));
            }
        }
    }
    if t.len() != s.len() {
        let line = t.last().map_or(1, |q| q.line);
        problems.push((line, format!("{} quizzes, the source has {}", t.len(), s.len())));
    }
}

fn simulations_of(lesson: &Lesson) -> Vec<&Simulation> {
    let sims = lesson.body.iter();
    sims.filter_map(|b| if let Block::Simulation(s) = b { Some(s) } else { None }).collect()
}

fn quizzes_of(lesson: &Lesson) -> Vec<&Quiz> {
    lesson.body.iter().filter_map(|b| if let Block::Quiz(q) = b { Some(q) } else { None }).collect()
}

fn exercises(translation: &Lesson, source: &Lesson, problems: &mut Vec<(usize, String)>) {
    let (t, s) = (&translation.exercises, &source.exercises);
    for (te, se) in t.iter().zip(s) {
        if te.id != se.id || te.file_name != se.file_name {
            let message = format!(
                "exercise `{}` ({}) stands where the source has `{}` ({})",
                te.id, te.file_name, se.id, se.file_name
            );
            problems.push((te.line, message));
        } else if code_without_comments(&te.starter) != code_without_comments(&se.starter) {
            let message = format!(
                "exercise `{}`: the starting script's code differs from the source's (only \
                 comments may be translated)",
                te.id
            );
            problems.push((te.line, message));
        }
    }
    if t.len() != s.len() {
        let line = t.last().map_or(1, |e| e.line);
        problems.push((line, format!("{} exercises, the source has {}", t.len(), s.len())));
    }
}

/// A Python script's lines without comments and blank lines: a `#` line, and a trailing
/// comment after code (two spaces and `#`, as PEP 8 writes them). A `#` inside a string stays
/// unless two spaces precede it; both scripts are cut the same way, so only a change after such
/// a `#` would go unseen.
fn code_without_comments(script: &str) -> Vec<&str> {
    script
        .lines()
        .map(|l| l.split_once("  #").map_or(l, |(code, _)| code).trim_end())
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect()
}

/// Heading for heading, level for level: the map from the translation's ids to the source's.
fn headings(
    translation: &[TocEntry],
    source: &[TocEntry],
    problems: &mut Vec<(usize, String)>,
) -> HeadingMap {
    for (t, s) in translation.iter().zip(source) {
        if t.level != s.level {
            let message = format!(
                "heading \"{}\" is level {}, but the source's heading in its place, \"{}\", is \
                 level {}",
                t.title, t.level, s.title, s.level
            );
            problems.push((t.line, message));
            return Vec::new();
        }
    }
    if translation.len() != source.len() {
        let line = translation.get(source.len()).or(translation.last()).map_or(1, |t| t.line);
        let message = format!(
            "{} headings, the source has {}: each heading translates one heading",
            translation.len(),
            source.len()
        );
        problems.push((line, message));
        return Vec::new();
    }
    translation.iter().zip(source).map(|(t, s)| (t.id.clone(), s.id.clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::{parse, LessonEntry};

    const FRONT: &str =
        "+++\ntitle = \"T\"\norder = 2\ntags = [\"a\"]\nxp = 10\nsummary = \"s\"\n+++\n";
    const QUIZ: &str = "```quiz\n[[question]]\nprompt = \"p\"\n[[question.option]]\ntext = \"a\"\ncorrect = true\nexplain = \"e\"\n[[question.option]]\ntext = \"b\"\nexplain = \"e\"\n```\n";
    const CODE: &str = "```python title=\"x.py\" exercise=\"ddp-conversion\"\n# start here\nimport torch  # the library\nx = \"#1\"\n```\n";

    fn lesson(md: &str) -> Lesson {
        match parse("02-x.md", &format!("{FRONT}{md}"), lockstep_i18n::Lang::En).into_entry() {
            LessonEntry::Ready(l) => l,
            LessonEntry::Broken { problems, .. } => panic!("{problems:?}"),
        }
    }

    fn source() -> Lesson {
        lesson(&format!(
            "## One\n\n### Two {{#two}}\n\nText[^n].\n\n[^n]: note\n\n```sim sampler len=8\n```\n\n{QUIZ}\n{CODE}"
        ))
    }

    fn problems(md: &str) -> Vec<String> {
        compare(&lesson(md), &source()).0.into_iter().map(|(l, m)| format!("{l}: {m}")).collect()
    }

    #[test]
    fn a_faithful_translation_maps_its_headings() {
        let ko = lesson(&format!(
            "## 하나\n\n### 둘\n\n본문[^n].\n\n[^n]: 주석\n\n```sim sampler len=8\n```\n\n{}\n{}",
            QUIZ.replace("\"b\"", "\"나\""),
            CODE.replace("# start here", "# 여기서 시작").replace("# the library", "# 라이브러리")
        ));
        let (problems, map) = compare(&ko, &source());
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(map, [("하나".into(), "one".into()), ("둘".into(), "two".into())]);
    }

    #[test]
    fn each_kind_of_difference_is_reported_at_its_line() {
        let base = "## 하나\n\n### 둘\n\n본문[^n].\n\n[^n]: 주석\n\n";
        let sim = "```sim sampler len=8\n```\n\n";
        let ok = |s: &str| format!("{base}{sim}{QUIZ}\n{s}");
        // Simulation parameters.
        let p = problems(&format!("{base}```sim sampler len=9\n```\n\n{QUIZ}\n{CODE}"));
        assert!(p[0].starts_with("16: simulation 1: "), "{p:?}");
        // The correct option moved.
        let swapped = QUIZ
            .replacen("correct = true\n", "", 1)
            .replace("text = \"b\"\n", "text = \"b\"\ncorrect = true\n");
        let p = problems(&format!("{base}{sim}{swapped}\n{CODE}"));
        assert_eq!(p, ["19: quiz 1, question 1: the correct options are [2], the source's are [1] (answers are kept by position)"]);
        // An option more.
        let more =
            QUIZ.replace("```\n", "[[question.option]]\ntext = \"c\"\nexplain = \"e\"\n```\n");
        let p = problems(&format!("{base}{sim}{more}\n{CODE}"));
        assert_eq!(p, ["19: quiz 1, question 1: 3 options, the source has 2"], "{p:?}");
        // Code, not a comment, changed in the exercise.
        let p = problems(&ok(&CODE.replace("x = \"#1\"", "x = \"#2\"")));
        assert_eq!(p, ["31: exercise `ddp-conversion`: the starting script's code differs from the source's (only comments may be translated)"]);
        // A heading missing, a heading at another level, a footnote missing.
        let p = problems(&format!("## 하나\n\n본문[^n].\n\n[^n]: 주석\n\n{sim}{QUIZ}\n{CODE}"));
        assert_eq!(p, ["8: 1 headings, the source has 2: each heading translates one heading"]);
        let p = problems(&format!(
            "## 하나\n\n## 둘\n\n본문[^n].\n\n[^n]: 주석\n\n{sim}{QUIZ}\n{CODE}"
        ));
        assert!(p[0].starts_with("10: heading \"둘\" is level 2"), "{p:?}");
        let p = problems(&format!("## 하나\n\n### 둘\n\n본문.\n\n{sim}{QUIZ}\n{CODE}"));
        assert_eq!(p, ["1: 0 footnotes, the source has 1"]);
        // Another order or XP.
        let ko = lesson(&ok(CODE));
        let mut other = ko.clone();
        other.front.xp = 20;
        assert!(compare(&other, &source()).0[0].1.starts_with("front matter: order, xp and tags"));
    }
}
