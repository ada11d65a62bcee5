//! The catalogue: every course under the lessons root. A course is a folder with its own
//! `course.toml` (`lessons/ddp/course.toml`, its lessons beside it, its translations in `ko/`);
//! a root that has a `course.toml` itself is one course, the layout from before there were
//! several, so a deployment that kept it goes on serving.
//!
//! A lesson keeps its address, `/lessons/<slug>`, whatever course it is in, and a learner's
//! progress is recorded by lesson slug: so a lesson slug names one lesson in the whole
//! catalogue, and a second lesson with it is broken, with a problem at its file that names the
//! other. One broken course never takes down another.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::lesson::LessonEntry;
use crate::load::{load, Course, CourseError, COURSE_FILE};

/// One course of the catalogue.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Its address segment: `course.toml`'s `slug`, else its folder's name.
    pub slug: String,
    /// Its folder under the root (the root itself for a single course).
    pub dir: PathBuf,
    pub course: Course,
}

#[derive(Debug, Clone)]
pub struct Catalogue {
    /// In catalogue order: `order`, then slug.
    pub courses: Vec<Entry>,
}

/// The folders under `root` that are courses, with their names; `root` alone when it is one.
pub fn course_dirs(root: &Path) -> Result<Vec<(String, PathBuf)>, CourseError> {
    // A root that is one course is named after its folder too, made an address segment: it
    // was never chosen as one (`lessons`, or a temporary folder's `.tmpA1b2`).
    let root_alone = || {
        let name = root.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
        vec![(segment(&name), root.to_path_buf())]
    };
    if root.join(COURSE_FILE).is_file() {
        return Ok(root_alone());
    }
    let read_dir_err = |source| CourseError::ReadDir { path: root.to_path_buf(), source };
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(root).map_err(read_dir_err)? {
        let entry = entry.map_err(read_dir_err)?;
        let path = entry.path();
        if path.is_dir() && path.join(COURSE_FILE).is_file() {
            dirs.push((entry.file_name().to_string_lossy().into_owned(), path));
        }
    }
    dirs.sort();
    if dirs.is_empty() {
        // No course at all: the root is read as one, whose missing course file is a problem
        // `lessons check` and the server's log name.
        return Ok(root_alone());
    }
    Ok(dirs)
}

/// `name` as an address segment: lowercase letters and digits, each run of anything else one
/// `-`; `course` for a name with neither.
fn segment(name: &str) -> String {
    let segment = name
        .to_lowercase()
        .split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit()))
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if segment.is_empty() {
        "course".to_string()
    } else {
        segment
    }
}

/// Reads every course under `root`; a problem in one is that course's (its lessons', its
/// `course.toml`'s), and the others load as they are.
pub fn load_catalogue(root: &Path) -> Result<Catalogue, CourseError> {
    let mut courses = Vec::new();
    for (name, dir) in course_dirs(root)? {
        let mut course = load(&dir)?;
        let slug = course.meta.slug.clone().unwrap_or(name);
        let fine = !slug.is_empty()
            && slug.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        let slug = if fine {
            slug
        } else {
            // Served at an address made of it, so that nothing else than those characters
            // ever reaches an address or a file name.
            let served = segment(&slug);
            let message = format!(
                "the course's address segment `{slug}` must be lowercase letters, digits and \
                 `-`: set `slug` here, or rename the folder (meanwhile it is served at {})",
                lockstep_routes::course(&served)
            );
            course.course_problems.push(Diagnostic::new(COURSE_FILE, 1, message));
            served
        };
        let schedule = course.visibility;
        for lesson in &mut course.lessons {
            lesson.place_in(&slug, schedule);
        }
        courses.push(Entry { slug, dir, course });
    }
    courses.sort_by(|a, b| {
        (a.course.meta.order.unwrap_or(u32::MAX), &a.slug)
            .cmp(&(b.course.meta.order.unwrap_or(u32::MAX), &b.slug))
    });
    let mut catalogue = Catalogue { courses };
    catalogue.break_shared_slugs();
    Ok(catalogue)
}

impl Catalogue {
    /// A lesson slug taken by an earlier course (in catalogue order) breaks the later lesson:
    /// its address and its learners' progress would be the other lesson's.
    fn break_shared_slugs(&mut self) {
        let mut first: BTreeMap<String, (String, String)> = BTreeMap::new();
        for entry in &mut self.courses {
            for lesson in &mut entry.course.lessons {
                let slug = lesson.slug().to_string();
                match first.get(&slug) {
                    Some((course, file)) if course != &entry.slug => {
                        let message = format!(
                            "slug `{slug}` is already lesson {file} of course `{course}`: lesson \
                             addresses are the same in every course, so rename one file"
                        );
                        let problem = Diagnostic::new(lesson.file().to_string(), 1, message);
                        lesson.add_problems([problem]);
                    }
                    Some(_) => {}
                    None => {
                        first.insert(slug, (entry.slug.clone(), lesson.file().to_string()));
                    }
                }
            }
        }
    }

    /// Every problem, each file named from the root (`ddp/04-distributed-sampler.md:3: …`),
    /// in the order `lessons check` prints them.
    pub fn diagnostics(&self, root: &Path) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for entry in &self.courses {
            let prefix = entry.dir.strip_prefix(root).unwrap_or(&entry.dir);
            for d in entry.course.diagnostics() {
                let file = prefix.join(&d.file).to_string_lossy().into_owned();
                out.push(Diagnostic::new(file, d.line, d.message.clone()));
            }
        }
        out
    }

    /// The lesson with this slug, in whichever course has it.
    pub fn find(&self, slug: &str) -> Option<(&Entry, &LessonEntry)> {
        self.courses.iter().find_map(|e| e.course.find(slug).map(|(_, l)| (e, l)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn course(dir: &Path, meta: &str, lessons: &[(&str, &str)]) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(COURSE_FILE), meta).unwrap();
        for (file, title) in lessons {
            let order: u32 = file[..2].parse().unwrap();
            let text = format!(
                "+++\ntitle = \"{title}\"\norder = {order}\nxp = 10\nsummary = \"s\"\n+++\nBody.\n"
            );
            std::fs::write(dir.join(file), text).unwrap();
        }
    }

    #[test]
    fn a_root_with_its_own_course_file_is_one_course() {
        let root = tempfile::tempdir().unwrap();
        course(root.path(), "title = \"C\"\nsummary = \"S\"\n", &[("01-a.md", "A")]);
        let catalogue = load_catalogue(root.path()).unwrap();
        assert_eq!(catalogue.courses.len(), 1);
        assert_eq!(catalogue.courses[0].dir, root.path());
        assert!(catalogue.find("a").is_some());
        assert!(catalogue.diagnostics(root.path()).is_empty());
    }

    #[test]
    fn courses_come_in_order_and_a_shared_lesson_slug_breaks_the_later_lesson_only() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        course(
            &r.join("fsdp"),
            "title = \"FSDP\"\nsummary = \"S\"\norder = 2\n",
            &[("01-intro.md", "Intro"), ("02-shards.md", "Shards")],
        );
        course(
            &r.join("ddp"),
            "title = \"DDP\"\nsummary = \"S\"\norder = 1\nslug = \"pytorch-ddp\"\n",
            &[("01-intro.md", "Why")],
        );
        std::fs::create_dir_all(r.join("drafts-without-a-course-file")).unwrap();
        let catalogue = load_catalogue(r).unwrap();
        let slugs: Vec<&str> = catalogue.courses.iter().map(|c| c.slug.as_str()).collect();
        assert_eq!(slugs, ["pytorch-ddp", "fsdp"]);
        let (owner, lesson) = catalogue.find("intro").unwrap();
        assert_eq!((owner.slug.as_str(), lesson.ready().is_some()), ("pytorch-ddp", true));
        let problems: Vec<String> =
            catalogue.diagnostics(r).iter().map(ToString::to_string).collect();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("fsdp/01-intro.md:1: slug `intro` is already lesson 01-intro.md of course `pytorch-ddp`"),
            "{problems:?}"
        );
        let fsdp = &catalogue.courses[1].course;
        assert!(fsdp.find("shards").unwrap().1.ready().is_some(), "the rest of it serves");
        assert!(fsdp.find("intro").unwrap().1.ready().is_none());
    }

    #[test]
    fn a_broken_course_file_breaks_that_course_only() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        course(&r.join("a"), "title = \"A\"\nsummary = \"S\"\n", &[("01-x.md", "X")]);
        course(&r.join("b"), "title = \"B\"\nsumary = \"typo\"\n", &[("01-y.md", "Y")]);
        let catalogue = load_catalogue(r).unwrap();
        assert_eq!(catalogue.courses.len(), 2);
        let problems: Vec<String> =
            catalogue.diagnostics(r).iter().map(ToString::to_string).collect();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("b/course.toml:2:"), "{problems:?}");
        assert!(catalogue.find("x").unwrap().1.ready().is_some());
        assert!(catalogue.find("y").unwrap().1.ready().is_some());
    }
}
