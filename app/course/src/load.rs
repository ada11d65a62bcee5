//! Reading a lessons directory into a [`Course`], with the checks that need every lesson.

use lockstep_i18n::Lang;
use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::lesson::{self, LessonEntry, Parsed};
use crate::publishing::{Status, Visibility};
use crate::references;
use crate::{Exercise, Lesson};

/// The course metadata file beside the lessons.
pub const COURSE_FILE: &str = "course.toml";

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CourseMeta {
    pub title: String,
    pub summary: String,
    /// The course's address segment (`/courses/<slug>`); its folder's name when not given.
    #[serde(default)]
    pub slug: Option<String>,
    /// Its place in the catalogue: lower first, then by slug.
    #[serde(default)]
    pub order: Option<u32>,
    #[serde(default)]
    pub authors: Vec<String>,
    /// The languages the course is written in, its own first (the language of its lessons;
    /// translations follow, each in a folder named by its code): a declaration that `lessons
    /// check` holds against the translation folders. Without it, the course is written in `en`
    /// and its folders decide its translations.
    #[serde(default)]
    pub languages: Option<Vec<String>>,
    /// `draft` while it is being written: learners see none of it.
    #[serde(default)]
    pub status: Status,
    /// When a published course reaches learners, as a lesson's `publish_at`.
    #[serde(default)]
    pub publish_at: Option<toml::value::Datetime>,
}

impl CourseMeta {
    /// The language the course is written in: the first of its `languages`, `en` when it
    /// names none the site has.
    pub fn lang(&self) -> Lang {
        let first = self.languages.as_ref().and_then(|l| l.first());
        first.and_then(|code| Lang::from_code(code)).unwrap_or(Lang::En)
    }
}

#[derive(Debug, Clone, Default)]
pub struct Course {
    pub meta: CourseMeta,
    /// In course order (front matter `order`, then file name; broken lessons without a readable
    /// order last).
    pub lessons: Vec<LessonEntry>,
    /// Problems with `course.toml` itself.
    pub course_problems: Vec<Diagnostic>,
    /// Whether learners see the course, as its `course.toml` says (a translation's is its
    /// source's).
    pub visibility: Visibility,
    /// Published lessons' links to lessons learners cannot open yet: warnings.
    pub link_warnings: Vec<Diagnostic>,
    /// The course's terms in each language (`terms.toml`): a translation has its source's.
    pub terms: Vec<crate::Term>,
    /// Its graded exercises, each a folder `exercises/<id>/` ([`exercise_spec`]), read and
    /// checked against its lessons: a translation has its source's. One with a problem is left
    /// out, and the problem is among [`Course::course_problems`].
    pub exercises: Vec<exercise_spec::Exercise>,
}

impl Course {
    /// The language a source course is written in ([`CourseMeta::lang`]). A translation's
    /// `course.toml` names no languages: its language is the one it was loaded as.
    pub fn lang(&self) -> Lang {
        self.meta.lang()
    }
}

impl Course {
    /// Every problem in the course, in the order `lessons check` prints them.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.course_problems.iter().chain(self.lessons.iter().flat_map(|l| l.problems()))
    }

    /// What `lessons check` warns about: not problems (the lessons serve), but worth an
    /// author's look.
    pub fn warnings(&self) -> Vec<Diagnostic> {
        let mut out = self.link_warnings.clone();
        for lesson in self.lessons.iter().filter_map(LessonEntry::ready) {
            let quizzes = lesson.body.iter().filter_map(|b| match b {
                crate::Block::Quiz(q) => Some(q),
                _ => None,
            });
            for (n, quiz) in quizzes.enumerate() {
                if let Some(why) = quiz.same_position_warning() {
                    let message = format!("warning: quiz {}: {why}", n + 1);
                    out.push(Diagnostic::new(&lesson.file, quiz.line, message));
                }
            }
        }
        out
    }

    /// The lesson with this slug and its 0-based position in the course.
    pub fn find(&self, slug: &str) -> Option<(usize, &LessonEntry)> {
        self.lessons.iter().enumerate().find(|(_, l)| l.slug() == slug)
    }

    /// The sections of a lesson that is ready, as (anchor id, heading): what a comment or a
    /// report may be about. None for a lesson that is missing or broken.
    pub fn sections(&self, slug: &str) -> Vec<(String, String)> {
        match self.find(slug) {
            Some((_, LessonEntry::Ready(lesson))) => {
                lesson.toc.iter().map(|e| (e.id.clone(), e.title.clone())).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Every graded exercise of the lessons that are ready, with its lesson, in course order.
    pub fn exercises(&self) -> impl Iterator<Item = (&Lesson, &Exercise)> {
        self.lessons
            .iter()
            .filter_map(LessonEntry::ready)
            .flat_map(|l| l.exercises.iter().map(move |e| (l, e)))
    }

    /// The exercise with this id, and its lesson.
    pub fn exercise(&self, id: &str) -> Option<(&Lesson, &Exercise)> {
        self.exercises().find(|(_, e)| e.id == id)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CourseError {
    #[error("cannot read the lessons directory {path}: {source}")]
    ReadDir { path: PathBuf, source: io::Error },
}

/// Is this directory entry a lesson? `README.md` documents the format for instructors.
pub(crate) fn is_lesson_file(name: &str) -> bool {
    name.ends_with(".md") && !name.eq_ignore_ascii_case("README.md")
}

pub fn load(dir: &Path) -> Result<Course, CourseError> {
    load_with(dir, None, None)
}

/// The course in `dir` as it is written, rendered for pages in `page`: its links to lessons go
/// to `page`'s, and the words the renderer adds (a code block's copy button, a note's label)
/// are `page`'s. What a page in a language with no translation of a lesson shows in its place.
pub fn load_for(dir: &Path, page: Lang) -> Result<Course, CourseError> {
    load_with(dir, None, Some(page))
}

/// What a translation's lessons may link to besides each other: the source lessons it has not
/// translated yet (served in their place, so a link to one is checked against the source).
struct SourceOf<'a> {
    lang: Lang,
    anchors: BTreeMap<&'a str, &'a BTreeSet<String>>,
}

fn load_with(
    dir: &Path,
    source: Option<&SourceOf<'_>>,
    page: Option<Lang>,
) -> Result<Course, CourseError> {
    let read_dir_err = |source| CourseError::ReadDir { path: dir.to_path_buf(), source };
    let mut names: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(read_dir_err)? {
        let entry = entry.map_err(read_dir_err)?;
        if let Some(name) = entry.file_name().to_str() {
            if is_lesson_file(name) && entry.path().is_file() {
                names.push(name.to_string());
            }
        }
    }
    names.sort();

    let (meta, mut course_problems, visibility) = read_meta(dir, source.is_some());
    // The lessons' own language, unless they are rendered for another's pages.
    let written_in = page.unwrap_or_else(|| source.map_or_else(|| meta.lang(), |s| s.lang));
    let mut texts = Vec::new();
    let parsed: Vec<Parsed> = names
        .iter()
        .map(|name| match std::fs::read(dir.join(name)) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => {
                    let parsed = lesson::parse(name, &text, written_in);
                    texts.push(text);
                    parsed
                }
                Err(e) => unreadable(
                    name,
                    format!("the file is not valid UTF-8 (byte {})", e.utf8_error().valid_up_to()),
                ),
            },
            Err(e) => unreadable(name, format!("cannot read the file: {e}")),
        })
        .collect();

    // The terms are the source course's, held against its lessons.
    let (terms, problems) = match source {
        None => {
            let file = std::fs::read_to_string(dir.join(crate::TERMS_FILE)).ok();
            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
            crate::terms::parse(file.as_deref(), &texts)
        }
        Some(_) => (Vec::new(), Vec::new()),
    };
    course_problems.extend(problems);
    let link_warnings = links_to_drafts(&parsed);
    let mut lessons = cross_check(parsed, source);
    let exercises = match source {
        None => read_exercises(dir, &meta, &mut lessons, &mut course_problems),
        Some(_) => Vec::new(),
    };
    Ok(Course { meta, lessons, course_problems, visibility, link_warnings, terms, exercises })
}

/// The folder of a course's translation into `lang` (`lessons/ddp/ko`): the same file names, each
/// lesson translating the source lesson of its name.
pub fn translation_dir(dir: &Path, lang: Lang) -> PathBuf {
    dir.join(lang.code())
}

/// A translation of `source`: loaded like any course, then each lesson compared with the
/// lesson it translates ([`crate::parity`]). A structural difference is a problem of the
/// translated lesson, which then does not serve; a source lesson not translated yet is listed in
/// [`Translation::missing`] (the source is served in its place); a translation made from an
/// older version of its source is a warning.
pub fn load_translation(
    source: &Course,
    dir: &Path,
    lang: Lang,
) -> Result<Translation, CourseError> {
    let anchors =
        source.lessons.iter().filter_map(LessonEntry::ready).map(|l| (l.file.as_str(), &l.anchors));
    let mut course = load_with(dir, Some(&SourceOf { lang, anchors: anchors.collect() }), None)?;
    let mut headings = BTreeMap::new();
    let mut warnings = Vec::new();
    for entry in &mut course.lessons {
        let found = source.lessons.iter().find(|s| s.file() == entry.file());
        let problems = match (found.and_then(LessonEntry::ready), entry.ready()) {
            (Some(src), Some(lesson)) => {
                let (mut problems, map) = crate::parity::compare(lesson, src);
                headings.insert(lesson.slug.clone(), map);
                match &lesson.front.translated_from {
                    None => problems.push((
                        1,
                        format!(
                            "front matter: a translation names the version of its source it was \
                             made from: add `translated_from = \"{}\"`",
                            src.version
                        ),
                    )),
                    Some(v) if *v != src.version => {
                        let message = format!(
                            "warning: {} has changed since this translation was made from it \
                             (version {v}, now {}): bring the changes over, then set \
                             `translated_from = \"{}\"`",
                            src.file, src.version, src.version
                        );
                        warnings.push(Diagnostic::new(&lesson.file, 1, message));
                    }
                    Some(_) => {}
                }
                problems
            }
            (None, _) if found.is_none() => {
                vec![(1, format!("there is no source lesson {} to translate", entry.file()))]
            }
            // A broken source or translation: its own problems say why.
            _ => Vec::new(),
        };
        let file = entry.file().to_string();
        entry.add_problems(problems.into_iter().map(|(line, m)| Diagnostic::new(&file, line, m)));
    }
    let missing = source
        .lessons
        .iter()
        .filter(|s| !course.lessons.iter().any(|t| t.file() == s.file()))
        .map(|s| {
            let message = format!(
                "not translated yet: add {0}, a translation of {0} (meanwhile {0} is served in \
                 its place)",
                s.file()
            );
            Diagnostic::new(s.file(), 1, message)
        })
        .collect::<Vec<_>>();
    Ok(Translation { course, headings, warnings, missing })
}

/// A course's translation, checked against its source.
#[derive(Debug, Clone)]
pub struct Translation {
    pub course: Course,
    /// Per translated lesson (by slug), its heading ids with the source's each stands for.
    pub headings: BTreeMap<String, crate::parity::HeadingMap>,
    /// Translations made from an older version of their source: the translation serves, but
    /// a translator has work.
    pub warnings: Vec<Diagnostic>,
    /// Source lessons with no translation: a problem for `lessons check`, though the source
    /// lesson serves in its place meanwhile.
    pub missing: Vec<Diagnostic>,
}

fn unreadable(name: &str, message: String) -> Parsed {
    Parsed {
        slug: crate::slug::slug_for_file(name),
        file: name.to_string(),
        front: None,
        order_line: 1,
        body: Vec::new(),
        toc: Vec::new(),
        anchors: BTreeSet::new(),
        links: Vec::new(),
        exercises: Vec::new(),
        prose: Default::default(),
        outline: Default::default(),
        version: String::new(),
        visibility: Visibility::Published,
        problems: vec![Diagnostic::new(name, 1, message)],
    }
}

fn read_meta(dir: &Path, translation: bool) -> (CourseMeta, Vec<Diagnostic>, Visibility) {
    let fallback = CourseMeta { title: "Course".into(), ..CourseMeta::default() };
    let text = match std::fs::read_to_string(dir.join(COURSE_FILE)) {
        Ok(text) => text,
        Err(e) => {
            let message =
                format!("cannot read {COURSE_FILE} (title and summary of the course): {e}");
            let problems = vec![Diagnostic::new(COURSE_FILE, 1, message)];
            return (fallback, problems, Visibility::Published);
        }
    };
    match toml::from_str::<CourseMeta>(&text) {
        Ok(meta) => {
            let line = crate::front_matter::key_line(&text, "publish_at").unwrap_or(1);
            let problems =
                crate::front_matter::publishing_problems(meta.status, meta.publish_at.as_ref())
                    .into_iter()
                    .map(|m| Diagnostic::new(COURSE_FILE, line, m))
                    .chain(language_problems(dir, &meta, &text, translation))
                    .collect();
            let visibility = Visibility::of(meta.status, meta.publish_at.as_ref());
            (meta, problems, visibility)
        }
        Err(e) => {
            let line = e.span().map_or(1, |s| LineIndex::new(&text, 1).line_of(s.start));
            let problems = vec![Diagnostic::new(COURSE_FILE, line, e.message().to_string())];
            (fallback, problems, Visibility::declared_in(&text))
        }
    }
}

/// Where `languages` and the translation folders disagree. A translation's own `course.toml`
/// may not declare them: the source course's list is the one that counts.
fn language_problems(
    dir: &Path,
    meta: &CourseMeta,
    text: &str,
    translation: bool,
) -> Vec<Diagnostic> {
    let Some(declared) = &meta.languages else { return Vec::new() };
    let line = crate::front_matter::key_line(text, "languages").unwrap_or(1);
    let problem = |message: String| Diagnostic::new(COURSE_FILE, line, message);
    if translation {
        let message = "languages: a translation's course.toml cannot declare them; list them in \
                       the source course's course.toml";
        return vec![problem(message.into())];
    }
    let known = Lang::ALL.map(Lang::code).join(", ");
    let mut problems = Vec::new();
    let mut langs = Vec::new();
    for code in declared {
        match Lang::from_code(code) {
            Some(lang) if langs.contains(&lang) => {
                problems.push(problem(format!("languages: `{code}` is listed twice")));
            }
            Some(lang) => langs.push(lang),
            None => problems.push(problem(format!(
                "languages: `{code}` is not a language Lockstep has words for ({known})"
            ))),
        }
    }
    let Some(&own) = langs.first() else {
        let message = "languages: name the language the course is written in first (its \
                       lessons' language), then its translations'";
        problems.push(problem(message.into()));
        return problems;
    };
    for lang in Lang::ALL {
        let folder = translation_dir(dir, lang);
        let name = lang.code();
        if lang == own {
            if folder.is_dir() {
                problems.push(problem(format!(
                    "languages: the course is written in `{name}` (listed first), so its lessons \
                     are this folder's own, and `{name}/` cannot be a translation"
                )));
            }
            continue;
        }
        match (langs.contains(&lang), folder.is_dir()) {
            (true, false) => problems.push(problem(format!(
                "languages: `{name}` is listed, but there is no translation folder `{name}/`"
            ))),
            (false, true) => problems.push(problem(format!(
                "languages: the translation in `{name}/` is not listed; add `{name}`, or move the \
                 folder away while it is not ready"
            ))),
            _ => {}
        }
    }
    problems
}

/// A published lesson's links to a draft or to a lesson published later: learners following one
/// get "not found" until it is published. Warnings, since the lessons serve as they are.
fn links_to_drafts(parsed: &[Parsed]) -> Vec<Diagnostic> {
    let unpublished: BTreeMap<&str, Visibility> = parsed
        .iter()
        .filter(|p| p.visibility != Visibility::Published)
        .map(|p| (p.file.as_str(), p.visibility))
        .collect();
    let mut out = Vec::new();
    for p in parsed.iter().filter(|p| p.visibility == Visibility::Published) {
        for link in &p.links {
            let Some(file) = link.file.as_deref() else { continue };
            let Some(visibility) = unpublished.get(file) else { continue };
            let when = match visibility {
                Visibility::Scheduled(at) => {
                    format!("is published at {}", crate::publishing::shown(*at))
                }
                _ => "is a draft".to_string(),
            };
            let message =
                format!("warning: the link to {file} leads learners to \"not found\": it {when}");
            out.push(Diagnostic::new(&p.file, link.line, message));
        }
    }
    out
}

/// Checks across lessons: unique orders and slugs, links that land on a lesson and a heading.
/// In a translation (`source`), a link may land on a source lesson not translated yet, and the
/// exercises' checks are not looked up: they name the source's headings, which the heading map
/// of [`crate::parity`] carries over.
fn cross_check(mut parsed: Vec<Parsed>, source: Option<&SourceOf<'_>>) -> Vec<LessonEntry> {
    let anchors: BTreeMap<String, BTreeSet<String>> =
        parsed.iter().map(|p| (p.file.clone(), p.anchors.clone())).collect();
    let mut orders: BTreeMap<u32, String> = BTreeMap::new();
    let mut slugs: BTreeMap<String, String> = BTreeMap::new();
    let mut exercises: BTreeMap<String, String> = BTreeMap::new();

    for p in &mut parsed {
        for e in &p.exercises {
            if let Some(first) = exercises.get(&e.id) {
                let message = format!("exercise `{}` is already declared in {first}", e.id);
                p.problems.push(Diagnostic::new(&p.file, e.line, message));
            } else {
                exercises.insert(e.id.clone(), p.file.clone());
            }
        }
        if let Some(front) = &p.front {
            if let Some(first) = orders.get(&front.order) {
                let message = format!("order {} is already used by {first}", front.order);
                p.problems.push(Diagnostic::new(&p.file, p.order_line, message));
            } else {
                orders.insert(front.order, p.file.clone());
            }
        }
        if let Some(first) = slugs.get(&p.slug) {
            let message = format!(
                "lesson URL {} is already used by {first}: rename one file",
                lockstep_routes::lesson(&p.slug)
            );
            p.problems.push(Diagnostic::new(&p.file, 1, message));
        } else {
            slugs.insert(p.slug.clone(), p.file.clone());
        }
        for link in &p.links {
            let target = link.file.as_deref().unwrap_or(&p.file);
            let shown = match (&link.file, &link.anchor) {
                (Some(f), Some(a)) => format!("{f}#{a}"),
                (Some(f), None) => f.clone(),
                (None, a) => format!("#{}", a.as_deref().unwrap_or("")),
            };
            let ids =
                anchors.get(target).or_else(|| source.and_then(|s| s.anchors.get(target).copied()));
            let message = match (ids, &link.anchor) {
                (None, _) => {
                    Some(format!("broken link `{shown}`: there is no lesson file {target}"))
                }
                (Some(ids), Some(a)) if !ids.contains(a) => {
                    Some(format!("broken link `{shown}`: {target} has no heading with id `{a}`"))
                }
                _ => None,
            };
            if let Some(message) = message {
                p.problems.push(Diagnostic::new(&p.file, link.line, message));
            }
        }
    }

    if source.is_none() {
        check_graded_exercises(&mut parsed, &slugs, &anchors);
    }
    check_references(&mut parsed);
    let mut entries: Vec<LessonEntry> = parsed.into_iter().map(Parsed::into_entry).collect();
    entries.sort_by(|a, b| {
        let key = |e: &LessonEntry| (e.front().map_or(u32::MAX, |f| f.order), e.file().to_string());
        key(a).cmp(&key(b))
    });
    entries
}

/// References in words to other lessons: see [`crate::references`].
fn check_references(parsed: &mut [Parsed]) {
    let lessons: references::Lessons<'_> = parsed
        .iter()
        .filter_map(|p| {
            let order = p.front.as_ref()?.order;
            Some((
                order,
                references::Cited { file: &p.file, text: references::searchable(&p.prose) },
            ))
        })
        .collect();
    let problems: Vec<Vec<Diagnostic>> = parsed
        .iter()
        .map(|p| {
            let this = p.front.as_ref().map_or(0, |f| f.order);
            let found = references::check(&p.prose, this, &lessons);
            found
                .into_iter()
                .map(|(line, message)| Diagnostic::new(&p.file, line, message))
                .collect()
        })
        .collect();
    for (p, mut found) in parsed.iter_mut().zip(problems) {
        p.problems.append(&mut found);
    }
}

/// The folder of a course's graded exercises: one folder per exercise, named by its id.
pub const EXERCISES_DIR: &str = "exercises";

/// The exercise folders of the course in `dir`, each read and checked against the course's
/// languages and its lessons' headings ([`exercise_spec::read`]), its problems reported as
/// `exercises/<id>/<file>:line`. A lesson's `exercise="<id>"` without a folder is a problem of
/// the lesson, at the fence; a folder no lesson gives a starting script for is one of the
/// course.
fn read_exercises(
    dir: &Path,
    meta: &CourseMeta,
    lessons: &mut [LessonEntry],
    problems: &mut Vec<Diagnostic>,
) -> Vec<exercise_spec::Exercise> {
    let languages = course_languages(dir, meta);
    let headings: BTreeMap<&str, &BTreeSet<String>> = lessons
        .iter()
        .filter_map(LessonEntry::ready)
        .map(|l| (l.slug.as_str(), &l.anchors))
        .collect();
    let has_heading = |slug: &str, id: &str| headings.get(slug).is_some_and(|ids| ids.contains(id));
    let course = exercise_spec::Course { languages: &languages, has_heading: &has_heading };
    let mut folders: Vec<PathBuf> = std::fs::read_dir(dir.join(EXERCISES_DIR))
        .map(|entries| entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    folders.sort();
    let mut exercises = Vec::new();
    let mut ids = BTreeSet::new();
    for folder in folders {
        let id = folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        ids.insert(id.clone());
        match exercise_spec::read(&folder, &course) {
            Ok(exercise) => exercises.push(exercise),
            Err(found) => problems.extend(found.into_iter().map(|p| {
                Diagnostic::new(format!("{EXERCISES_DIR}/{id}/{}", p.file), p.line, p.message)
            })),
        }
    }
    let mut used = BTreeSet::new();
    for lesson in lessons.iter_mut() {
        let Some(ready) = lesson.ready() else { continue };
        let file = ready.file.clone();
        let missing: Vec<Diagnostic> = ready
            .exercises
            .iter()
            .filter(|e| {
                used.insert(e.id.clone());
                !ids.contains(&e.id)
            })
            .map(|e| {
                let message = format!(
                    "exercise `{0}` has no folder: its declaration, solution and wrong answers go \
                     in {EXERCISES_DIR}/{0}/ (lessons/README.md, \"Writing a graded exercise\")",
                    e.id
                );
                Diagnostic::new(&file, e.line, message)
            })
            .collect();
        lesson.add_problems(missing);
    }
    for id in ids.difference(&used) {
        let message = format!(
            "exercise `{id}` is given to no learner: a lesson gives its starting script in a code \
             fence with `exercise=\"{id}\"`"
        );
        problems.push(Diagnostic::new(
            format!("{EXERCISES_DIR}/{id}/{}", exercise_spec::DECLARATION),
            1,
            message,
        ));
    }
    exercises
}

/// The languages of the course in `dir`, its own first: those its `course.toml` declares, else
/// its own and each translation folder it has.
fn course_languages(dir: &Path, meta: &CourseMeta) -> Vec<Lang> {
    if let Some(declared) = &meta.languages {
        let langs: Vec<Lang> = declared.iter().filter_map(|c| Lang::from_code(c)).collect();
        if !langs.is_empty() {
            return langs;
        }
    }
    let own = meta.lang();
    let translated =
        Lang::ALL.into_iter().filter(|l| *l != own && translation_dir(dir, *l).is_dir());
    std::iter::once(own).chain(translated).collect()
}

/// Every exercise must be one the grader grades, and every check the grader can report for it
/// links to a heading that exists: a learner's failed check sends them there. Reported at the
/// exercise's line, since that is what the grader's links hang on.
/// `slugs`: each lesson URL's file; `anchors`: each file's heading ids.
fn check_graded_exercises(
    parsed: &mut [Parsed],
    slugs: &BTreeMap<String, String>,
    anchors: &BTreeMap<String, BTreeSet<String>>,
) {
    for p in parsed.iter_mut() {
        let mut problems = Vec::new();
        for e in &p.exercises {
            let Some(exercise) = grading_checks::exercises::find(&e.id) else {
                let known = grading_checks::exercises::ALL.iter().map(|x| format!("`{}`", x.id));
                let message = format!(
                    "exercise `{}` has no grader: the runner grades {}",
                    e.id,
                    known.collect::<Vec<_>>().join(", ")
                );
                problems.push(Diagnostic::new(&p.file, e.line, message));
                continue;
            };
            for taught in exercise.checks {
                let (check, slug, anchor) = (taught.check, taught.lesson, taught.heading);
                let lesson = slugs.get(slug).and_then(|file| Some((file, anchors.get(file)?)));
                let missing = match lesson {
                    None => Some(format!("there is no lesson {}", lockstep_routes::lesson(slug))),
                    Some((file, ids)) if !ids.contains(anchor) => {
                        Some(format!("{file} has no heading with id `{anchor}`"))
                    }
                    Some(_) => None,
                };
                if let Some(why) = missing {
                    let message = format!(
                        "exercise `{}`: its check `{check}` links to {}, but {why}",
                        e.id,
                        lockstep_routes::lesson_section(slug, Some(anchor))
                    );
                    problems.push(Diagnostic::new(&p.file, e.line, message));
                }
            }
        }
        p.problems.extend(problems);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson(title: &str, order: u32, body: &str) -> String {
        format!(
            "+++\ntitle = \"{title}\"\norder = {order}\ntags = [\"t\"]\nxp = 10\nsummary = \"s\"\n+++\n{body}"
        )
    }

    fn course(files: &[(&str, String)]) -> (tempfile::TempDir, Course) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(COURSE_FILE), "title = \"C\"\nsummary = \"S\"\n").unwrap();
        std::fs::write(dir.path().join("README.md"), "not a lesson").unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let c = load(dir.path()).unwrap();
        (dir, c)
    }

    fn messages(c: &Course) -> Vec<String> {
        c.diagnostics().map(|d| d.to_string()).collect()
    }

    #[test]
    fn loads_in_order_and_skips_readme() {
        let (_d, c) = course(&[
            ("b.md", lesson("B", 2, "## Two\n")),
            ("a.md", lesson("A", 1, "## One\n[next](b.md#two)\n")),
        ]);
        assert_eq!(messages(&c), Vec::<String>::new());
        let slugs: Vec<_> = c.lessons.iter().map(|l| l.slug()).collect();
        assert_eq!(slugs, vec!["a", "b"]);
        assert_eq!(c.meta.title, "C");
        assert_eq!(c.find("b").unwrap().0, 1);
    }

    #[test]
    fn a_translation_links_to_a_lesson_it_has_not_translated_by_the_source() {
        let a = lesson("A", 1, "## One\n");
        let (_s, source) = course(&[("a.md", a.clone()), ("b.md", lesson("B", 2, "## Two\n"))]);
        let translated = format!(
            "+++\ntitle = \"가\"\norder = 1\ntags = [\"t\"]\nxp = 10\nsummary = \"s\"\n\
             translated_from = \"{}\"\n+++\n## 하나\n[다음](b.md#two)\n[없음](b.md#nowhere)\n",
            crate::lesson::version(&a)
        );
        let (dir, _) = course(&[("a.md", translated)]);
        let t = load_translation(&source, dir.path(), Lang::Ko).unwrap();
        assert_eq!(
            messages(&t.course),
            vec!["a.md:11: broken link `b.md#nowhere`: b.md has no heading with id `nowhere`"]
        );
    }

    #[test]
    fn duplicate_order_names_the_line_and_the_other_file() {
        let (_d, c) = course(&[("01-a.md", lesson("A", 1, "")), ("02-b.md", lesson("B", 1, ""))]);
        assert_eq!(messages(&c), vec!["02-b.md:3: order 1 is already used by 01-a.md"]);
        assert!(matches!(c.find("a").unwrap().1, LessonEntry::Ready(_)));
        assert!(matches!(c.find("b").unwrap().1, LessonEntry::Broken { .. }));
    }

    #[test]
    fn broken_links() {
        let body = "## Here\n\n[a](missing.md)\n[b](02-b.md#nowhere)\n[c](#here) [d](#gone)\n";
        let (_d, c) =
            course(&[("01-a.md", lesson("A", 1, body)), ("02-b.md", lesson("B", 2, "## There\n"))]);
        assert_eq!(
            messages(&c),
            vec![
                "01-a.md:10: broken link `missing.md`: there is no lesson file missing.md",
                "01-a.md:11: broken link `02-b.md#nowhere`: 02-b.md has no heading with id `nowhere`",
                "01-a.md:12: broken link `#gone`: 01-a.md has no heading with id `gone`",
            ]
        );
    }

    #[test]
    fn exercises_need_a_grader_and_its_checks_need_their_headings() {
        let fence = |id: &str| format!("## Try\n\n```python exercise=\"{id}\"\nx = 1\n```\n");
        let (_d, c) = course(&[("01-a.md", lesson("A", 1, &fence("warp-drive")))]);
        assert_eq!(
            messages(&c),
            ["01-a.md:10: exercise `warp-drive` has no grader: the runner grades `ddp-conversion`, `survive-a-crash`"]
        );
        // The grader's checks link into lessons this course does not have: one problem per
        // check, at the exercise, and the lesson is broken as it is by a broken link.
        let (_d, c) = course(&[("01-a.md", lesson("A", 1, &fence("ddp-conversion")))]);
        let problems = messages(&c);
        assert_eq!(problems.len(), 10, "{problems:?}");
        assert!(problems.contains(
            &"01-a.md:10: exercise `ddp-conversion`: its check `no_deadlock` links to \
              /lessons/checkpoints-and-pitfalls#the-barrier-deadlock, but there is no lesson \
              /lessons/checkpoints-and-pitfalls"
                .to_string()
        ));
        // A lesson with that URL but without the heading.
        let pitfalls = lesson("P", 2, "## The barrier deadlock, renamed\n");
        let (_d, c) = course(&[
            ("01-a.md", lesson("A", 1, &fence("ddp-conversion"))),
            ("06-checkpoints-and-pitfalls.md", pitfalls),
        ]);
        assert!(messages(&c).contains(
            &"01-a.md:10: exercise `ddp-conversion`: its check `no_deadlock` links to \
              /lessons/checkpoints-and-pitfalls#the-barrier-deadlock, but \
              06-checkpoints-and-pitfalls.md has no heading with id `the-barrier-deadlock`"
                .to_string()
        ));
        assert!(matches!(c.find("a").unwrap().1, LessonEntry::Broken { .. }));
    }

    #[test]
    fn one_broken_lesson_does_not_break_the_others() {
        let (_d, c) = course(&[
            ("01-a.md", lesson("A", 1, "fine\n")),
            ("02-b.md", "+++\ntitle = \"B\"\nlevel = 3\n+++\n".to_string()),
        ]);
        assert!(matches!(c.lessons[0], LessonEntry::Ready(_)));
        assert!(matches!(c.lessons[1], LessonEntry::Broken { .. }));
        assert_eq!(messages(&c)[0], "02-b.md:3: front matter: unknown field `level`, expected one of `title`, `order`, `tags`, `xp`, `summary`, `translated_from`, `status`, `publish_at`");
    }

    #[test]
    fn declared_languages_are_held_against_the_translation_folders() {
        let (dir, _) = course(&[("01-a.md", lesson("A", 1, ""))]);
        let with = |languages: &str| {
            let meta = format!("title = \"C\"\nsummary = \"S\"\nlanguages = {languages}\n");
            std::fs::write(dir.path().join(COURSE_FILE), meta).unwrap();
            load(dir.path())
                .unwrap()
                .course_problems
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<String>>()
        };
        let none: Vec<String> = Vec::new();
        assert_eq!(with("[\"en\"]"), none);
        assert_eq!(
            with("[\"en\", \"ko\"]"),
            ["course.toml:3: languages: `ko` is listed, but there is no translation folder `ko/`"]
        );
        // A course written in Korean: its own language needs no folder, a translation does.
        assert_eq!(
            with("[\"ko\", \"fr\"]"),
            ["course.toml:3: languages: `fr` is not a language Lockstep has words for (en, ko, ja)"]
        );
        assert_eq!(
            with("[\"ko\", \"en\"]"),
            ["course.toml:3: languages: `en` is listed, but there is no translation folder `en/`"]
        );
        assert_eq!(
            with("[]"),
            ["course.toml:3: languages: name the language the course is written in first (its \
              lessons' language), then its translations'"]
        );

        let ko = dir.path().join("ko");
        std::fs::create_dir(&ko).unwrap();
        assert_eq!(with("[\"en\", \"ko\"]"), none);
        assert_eq!(
            with("[\"ko\"]"),
            ["course.toml:3: languages: the course is written in `ko` (listed first), so its \
              lessons are this folder's own, and `ko/` cannot be a translation"]
        );
        assert_eq!(
            with("[\"en\"]"),
            ["course.toml:3: languages: the translation in `ko/` is not listed; add `ko`, or \
                 move the folder away while it is not ready"]
        );
        std::fs::write(ko.join(COURSE_FILE), "title = \"C\"\nsummary = \"S\"\nlanguages = []\n")
            .unwrap();
        let source = load(dir.path()).unwrap();
        let t = load_translation(&source, &ko, Lang::Ko).unwrap();
        assert_eq!(
            t.course.course_problems.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
            ["course.toml:3: languages: a translation's course.toml cannot declare them; list \
                 them in the source course's course.toml"]
        );
    }

    #[test]
    fn drafts_and_publish_dates_of_lessons_and_courses() {
        let draft = lesson("D", 2, "").replace("xp = 10", "xp = 10\nstatus = \"draft\"");
        let broken_draft = draft.replace("order = 2", "order = 3\nlevel = 1");
        let scheduled =
            lesson("S", 4, "").replace("xp = 10", "xp = 10\npublish_at = 2030-01-01T00:00:00Z");
        let both = scheduled.replace("order = 4", "order = 5\nstatus = \"draft\"");
        let (dir, c) = course(&[
            ("01-a.md", lesson("A", 1, "")),
            ("02-d.md", draft),
            ("03-b.md", broken_draft),
            ("04-s.md", scheduled),
            ("05-x.md", both),
        ]);
        let seen = |slug| c.find(slug).unwrap().1.visibility();
        assert_eq!(
            [seen("a"), seen("d"), seen("b")],
            [Visibility::Published, Visibility::Draft, Visibility::Draft]
        );
        assert!(c.find("b").unwrap().1.ready().is_none(), "broken, and still a draft");
        assert!(matches!(seen("s"), Visibility::Scheduled(_)));
        assert_eq!(seen("x"), Visibility::Draft);
        assert_eq!(
            messages(&c)[1],
            "05-x.md:7: front matter: `publish_at` publishes at that instant, and \
             `status = \"draft\"` never: remove one of them"
        );
        assert_eq!(c.visibility, Visibility::Published);

        let meta = "title = \"C\"\nsummary = \"S\"\nstatus = \"draft\"\n";
        std::fs::write(dir.path().join(COURSE_FILE), meta).unwrap();
        assert_eq!(load(dir.path()).unwrap().visibility, Visibility::Draft);
        let meta = "title = \"C\"\nsummary = \"S\"\npublish_at = 2030-01-01\n";
        std::fs::write(dir.path().join(COURSE_FILE), meta).unwrap();
        let c = load(dir.path()).unwrap();
        assert_eq!(c.visibility, Visibility::Draft, "an instant it cannot read publishes nothing");
        assert!(messages(&c)[0]
            .starts_with("course.toml:3: `publish_at`: `2030-01-01` is not an instant"));
    }

    #[test]
    fn a_published_lesson_linking_to_a_draft_is_warned_about() {
        let draft = lesson("D", 2, "## Two\n").replace("xp = 10", "xp = 10\nstatus = \"draft\"");
        let (_d, c) = course(&[
            ("01-a.md", lesson("A", 1, "## One\n[next](02-d.md#two)\n")),
            ("02-d.md", draft.replace("## Two\n", "## Two\n[back](01-a.md)\n")),
        ]);
        assert_eq!(messages(&c), Vec::<String>::new(), "a warning, not a problem");
        let warnings: Vec<String> = c.warnings().iter().map(ToString::to_string).collect();
        assert_eq!(
            warnings,
            ["01-a.md:9: warning: the link to 02-d.md leads learners to \"not found\": it is a draft"]
        );
    }

    #[test]
    fn invalid_utf8_and_bad_course_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(COURSE_FILE), "title = \"C\"\nsumary = \"S\"\n").unwrap();
        std::fs::write(dir.path().join("01-a.md"), b"+++\n\xff\n").unwrap();
        let c = load(dir.path()).unwrap();
        let m = messages(&c);
        assert!(m[0].starts_with("course.toml:2: unknown field `sumary`"), "{m:?}");
        assert!(m[1].starts_with("01-a.md:1: the file is not valid UTF-8"), "{m:?}");
    }

    #[test]
    fn missing_dir_is_an_error() {
        let err = load(Path::new("/nonexistent/lessons")).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/lessons"));
    }
}
