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
