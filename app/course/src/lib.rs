//! The course as instructors write it: one markdown file per lesson under `lessons/`, each with
//! TOML front matter, plus `course.toml`.
//!
//! Parsing and rendering ([`lesson`], [`markdown`], [`front_matter`]) are pure functions of a
//! file's name and text, so every error message can be tested without touching the disk.
//! [`load`] reads a directory and adds the checks that need the whole course (duplicate
//! orders, links between lessons); [`live::LiveCourse`] reloads it when a file changes.
//!
//! A problem never stops the course from loading: it becomes a [`Diagnostic`] attached to the
//! lesson it belongs to, that lesson becomes [`LessonEntry::Broken`], and every other lesson is
//! served as usual.
//!
//! # What is where
//!
//! The lesson format: TOML front matter (`front_matter.rs`), quizzes (`quiz.rs`: the `quiz` fence's
//! TOML, checked, and marking answers), markdown → blocks of HTML (`markdown.rs`: the render loop
//! over pulldown-cmark events, with MathML from pulldown-latex, admonitions and links between
//! lessons), code fences and the `sim` fence (`fence.rs`), slugs and heading ids (`slug.rs`: the
//! letters of every script kept, as GitHub does, through `lockstep_routes::is_anchor_char`), the
//! table of contents. A second pass reads the lesson as a reader meets it (`prose.rs`: sentences of
//! plain text with their links to lessons, and the code), from which the reading time is computed
//! with one rule (`reading.rs`: words, lines of code, quiz questions and simulations; never
//! declared) and references in words to other lessons are checked (`references.rs`: "lesson N"
//! names a lesson, a link reading "lesson N" goes there, a phrase quoted from a lesson is in it).
//! It checks the whole course (`load.rs`: unique orders and URLs, broken links, those references,
//! every exercise against the grader: an id the runner grades, and a heading for each check it
//! reports, from `grading_checks::lessons`; and the `languages` a `course.toml` declares against
//! its translation folders) and reports every problem as `file:line: message`. `LiveCourse` reloads
//! the course when a file changes. A lesson's body is a list of blocks: rendered HTML, cut wherever
//! a simulation is embedded. A translation (`lessons/ko/`) loads as a course of its own, rendered
//! in its language (its interface words and links under `/ko`), and is compared lesson by lesson
//! with its source (`parity.rs`: the same simulations, quiz answers by position, exercise code, a
//! heading for each heading, which gives the map from a translated heading id to the source's, and
//! footnotes; `load_translation`). `edition.rs` makes what a reader of one language gets: each
//! lesson translated where its translation is ready, the source lesson in its place where not; The
//! lessons root is a catalogue of courses (`catalogue.rs`): each folder with its own `course.toml`
//! is a course, and a root that has one itself is a single course (today's layout); a lesson slug
//! names one lesson across all courses (a later course's lesson with a taken slug is broken, its
//! problem naming the other), since addresses and progress are by lesson slug. Drafts and
//! publishing (`publishing.rs`): a lesson's front matter or a course's `course.toml` says `status =
//! "draft"` or `publish_at = <instant with offset>`; `Visibility` (published, draft, scheduled) is
//! read even from front matter with other mistakes, so a broken draft stays a draft, and a lesson's
//! is folded with its course's. `LiveCourse` loads the catalogue and the site's editions together,
//! so a page never mixes two versions, and makes two views of each load (`Loaded`): the learners'
//! (published lessons of published courses, what `loaded()`, `current()` and `edition()` give, so
//! code that does not ask for more cannot leak a draft) and the instructors' (`loaded_for(true)`:
//! everything, each unpublished lesson and course named in `Loaded::drafts`); each view has the
//! site in every language (every course's edition in catalogue order, `Edition::union`), the
//! catalogue, and each course's title in each language. A `publish_at` reached makes the views
//! again without reading a file. `set_publications` gives it when each lesson was first seen
//! published (the server keeps that in the database), which a published lesson carries as its
//! instant (`Visibility::Scheduled` in the past) for the achievements' rules. It also provides the
//! `lessons` binary (`check`, and `stats`: each lesson's counts and minutes). It has no web or
//! database code.

pub mod catalogue;
mod diagnostic;
pub mod edition;
pub mod fence;
pub mod front_matter;
pub mod lesson;
pub mod live;
mod load;
pub mod markdown;
pub mod parity;
pub mod prose;
pub mod publishing;
pub mod quiz;
pub mod reading;
pub mod references;
pub mod slug;
pub mod terms;

pub use catalogue::{load_catalogue, Catalogue};
pub use diagnostic::Diagnostic;
pub use edition::Edition;
pub use front_matter::FrontMatter;
pub use lesson::{Lesson, LessonEntry};
pub use load::{
    load, load_translation, translation_dir, Course, CourseError, CourseMeta, Translation,
    COURSE_FILE,
};
pub use lockstep_embed::Simulation;
pub use markdown::{Block, Exercise, TocEntry};
pub use publishing::{Status, Visibility};
pub use quiz::Quiz;
pub use reading::Reading;
pub use slug::slug_for_file;
pub use terms::{Term, TERMS_FILE};
