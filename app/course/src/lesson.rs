//! One lesson file: front matter plus rendered body.

use std::collections::BTreeSet;

use crate::diagnostic::Diagnostic;
use crate::front_matter::{self, FrontMatter};
use crate::markdown::{self, Block, Exercise, LessonLink, Outline, TocEntry};
use crate::prose::{self, Prose};
use crate::publishing::Visibility;
use crate::reading::Reading;
use crate::slug::slug_for_file;

/// A lesson that parsed and rendered without problems.
#[derive(Debug, Clone)]
pub struct Lesson {
    pub slug: String,
    pub file: String,
    pub front: FrontMatter,
    /// Rendered markdown, cut where simulations are embedded.
    pub body: Vec<Block>,
    pub toc: Vec<TocEntry>,
    /// Every heading id, of all levels: what a link's `#id` may name.
    pub anchors: BTreeSet<String>,
    /// The graded exercises it declares.
    pub exercises: Vec<Exercise>,
    /// What it takes to read: its minutes on the page.
    pub reading: Reading,
    pub outline: Outline,
    /// The first 12 hex digits of the SHA-256 of the file: what a translation names in
    /// `translated_from`.
    pub version: String,
    /// Whether learners see it, its course's schedule included (a translation's is its
    /// source's: see [`crate::edition`]).
    pub visibility: Visibility,
    /// The slug of the course it is in, once the catalogue has read it.
    pub course: String,
}

impl Lesson {
    /// The body's HTML without the simulations.
    pub fn html(&self) -> String {
        self.body
            .iter()
            .filter_map(|b| if let Block::Html(h) = b { Some(h.as_str()) } else { None })
            .collect()
    }
}

/// A lesson file as the course sees it: ready to serve, or broken with the reasons why.
#[derive(Debug, Clone)]
pub enum LessonEntry {
    Ready(Lesson),
    Broken {
        slug: String,
        file: String,
        /// What could be read of the front matter, so the index can still place the lesson.
        front: Option<FrontMatter>,
        /// What could be read of the body.
        reading: Reading,
        problems: Vec<Diagnostic>,
        /// As much as its front matter says: a broken draft is no learner's business.
        visibility: Visibility,
    },
}

impl LessonEntry {
    /// The lesson, when it is ready to serve.
    pub fn ready(&self) -> Option<&Lesson> {
        match self {
            LessonEntry::Ready(l) => Some(l),
            LessonEntry::Broken { .. } => None,
        }
    }

    pub fn slug(&self) -> &str {
        match self {
            LessonEntry::Ready(l) => &l.slug,
            LessonEntry::Broken { slug, .. } => slug,
        }
    }

    pub fn file(&self) -> &str {
        match self {
            LessonEntry::Ready(l) => &l.file,
            LessonEntry::Broken { file, .. } => file,
        }
    }

    pub fn front(&self) -> Option<&FrontMatter> {
        match self {
            LessonEntry::Ready(l) => Some(&l.front),
            LessonEntry::Broken { front, .. } => front.as_ref(),
        }
    }

    pub fn reading(&self) -> Reading {
        match self {
            LessonEntry::Ready(l) => l.reading,
            LessonEntry::Broken { reading, .. } => *reading,
        }
    }

    pub fn visibility(&self) -> Visibility {
        match self {
            LessonEntry::Ready(l) => l.visibility,
            LessonEntry::Broken { visibility, .. } => *visibility,
        }
    }

    /// A published lesson without a `publish_at` was published when it was first seen
    /// published, at `at`: that is its instant from then on.
    pub(crate) fn first_published(&mut self, at: std::time::SystemTime) {
        let visibility = match self {
            LessonEntry::Ready(l) => &mut l.visibility,
            LessonEntry::Broken { visibility, .. } => visibility,
        };
        if *visibility == Visibility::Published {
            *visibility = Visibility::Scheduled(at);
        }
    }

    /// Places the lesson in its course: its slug, and its schedule, which publishes nothing
    /// before it.
    pub(crate) fn place_in(&mut self, course: &str, schedule: Visibility) {
        let visibility = match self {
            LessonEntry::Ready(l) => {
                l.course = course.to_string();
                &mut l.visibility
            }
            LessonEntry::Broken { visibility, .. } => visibility,
        };
        *visibility = visibility.within(schedule);
    }

    /// Adds problems found by a check from outside the lesson: a ready lesson with any becomes
    /// broken.
    pub fn add_problems(&mut self, more: impl IntoIterator<Item = Diagnostic>) {
        let mut more: Vec<Diagnostic> = more.into_iter().collect();
        if more.is_empty() {
            return;
        }
        match self {
            LessonEntry::Broken { problems, .. } => problems.append(&mut more),
            LessonEntry::Ready(lesson) => {
                *self = LessonEntry::Broken {
                    slug: lesson.slug.clone(),
                    file: lesson.file.clone(),
                    front: Some(lesson.front.clone()),
                    reading: lesson.reading,
                    problems: more,
                    visibility: lesson.visibility,
                };
            }
        }
    }

    pub fn problems(&self) -> &[Diagnostic] {
        match self {
            LessonEntry::Ready(_) => &[],
            LessonEntry::Broken { problems, .. } => problems,
        }
    }
}

/// A lesson file parsed on its own, before the checks that need the whole course.
pub(crate) struct Parsed {
    pub slug: String,
    pub file: String,
    pub front: Option<FrontMatter>,
    pub order_line: usize,
    pub body: Vec<Block>,
    pub toc: Vec<TocEntry>,
    pub anchors: BTreeSet<String>,
    pub links: Vec<LessonLink>,
    pub exercises: Vec<Exercise>,
    /// Its text, for the checks across lessons.
    pub prose: Prose,
    pub outline: Outline,
    pub version: String,
    pub visibility: Visibility,
    pub problems: Vec<Diagnostic>,
}

impl Parsed {
    pub fn reading(&self) -> Reading {
        let count = |f: fn(&Block) -> usize| self.body.iter().map(f).sum();
        Reading {
            words: self.prose.words(),
            code_lines: self.prose.code_lines,
            questions: count(|b| if let Block::Quiz(q) = b { q.questions.len() } else { 0 }),
            simulations: count(|b| usize::from(matches!(b, Block::Simulation(_)))),
        }
    }

    pub fn into_entry(self) -> LessonEntry {
        let reading = self.reading();
        match self.front {
            Some(front) if self.problems.is_empty() => LessonEntry::Ready(Lesson {
                slug: self.slug,
                file: self.file,
                front,
                body: self.body,
                toc: self.toc,
                anchors: self.anchors,
                exercises: self.exercises,
                reading,
                outline: self.outline,
                version: self.version,
                visibility: self.visibility,
                course: String::new(),
            }),
            front => LessonEntry::Broken {
                slug: self.slug,
                file: self.file,
                front,
                reading,
                problems: self.problems,
                visibility: self.visibility,
            },
        }
    }
}

/// The first 12 hex digits of the SHA-256 of a lesson file's text.
pub fn version(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())[..6].iter().map(|b| format!("{b:02x}")).collect()
}

pub(crate) fn parse(file: &str, text: &str, lang: lockstep_i18n::Lang) -> Parsed {
    let split = front_matter::split(file, text);
    let mut problems = Vec::new();
    let front = match split.front {
        Ok(front) => Some(front),
        Err(mut p) => {
            problems.append(&mut p);
            None
        }
    };
    let mut rendered = markdown::render(file, split.body, split.body_first_line, lang);
    let prose = prose::read(split.body, split.body_first_line);
    problems.append(&mut rendered.problems);
    Parsed {
        slug: slug_for_file(file),
        file: file.to_string(),
        front,
        order_line: split.order_line,
        body: rendered.blocks,
        toc: rendered.toc,
        anchors: rendered.anchors,
        links: rendered.links,
        exercises: rendered.exercises,
        prose,
        outline: rendered.outline,
        version: version(text),
        visibility: split.visibility,
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_front_matter_still_renders_body_and_collects_all_problems() {
        let p = parse(
            "x.md",
            "+++\ntitle = \"T\"\n+++\n## Hello\n\n```py nope\n```\n",
            lockstep_i18n::Lang::En,
        );
        assert!(p.front.is_none());
        assert_eq!(p.problems.len(), 2, "{:?}", p.problems);
        assert_eq!(p.problems[1].line, 6);
        assert!(p.anchors.contains("hello"));
        assert!(matches!(p.into_entry(), LessonEntry::Broken { .. }));
    }
}
