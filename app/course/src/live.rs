//! The course as the server sees it: reloaded when a lesson file changes, so an instructor's
//! edit shows on the next page load without restarting anything.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::SystemTime;

use lockstep_i18n::Lang;

use crate::edition::Edition;
use crate::load::{
    is_lesson_file, load, load_translation, translation_dir, Course, CourseError, COURSE_FILE,
};

/// Names, sizes and modification times of the files the course is read from. Comparing it
/// costs one directory listing, which is far cheaper than re-rendering every lesson.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Fingerprint(Vec<(String, u64, Option<SystemTime>)>);

impl Fingerprint {
    /// The course's files and its translations'.
    fn of(dir: &Path) -> Fingerprint {
        let mut files = Vec::new();
        Self::add(dir, "", &mut files);
        for lang in translations() {
            Self::add(&translation_dir(dir, lang), lang.code(), &mut files);
        }
        files.sort();
        Fingerprint(files)
    }

    fn add(dir: &Path, prefix: &str, files: &mut Vec<(String, u64, Option<SystemTime>)>) {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if !(is_lesson_file(&name) || name == COURSE_FILE) {
                    continue;
                }
                let meta = entry.metadata().ok();
                files.push((
                    format!("{prefix}/{name}"),
                    meta.as_ref().map_or(0, |m| m.len()),
                    meta.and_then(|m| m.modified().ok()),
                ));
            }
        }
    }
}

/// The languages a course may be translated into: all but its own.
fn translations() -> impl Iterator<Item = Lang> {
    Lang::ALL.into_iter().filter(|l| *l != Lang::En)
}

/// The course and its editions, loaded together so a page never mixes two versions.
pub struct Loaded {
    pub course: Arc<Course>,
    editions: Vec<Arc<Edition>>,
}

impl Loaded {
    fn load(dir: &Path) -> Result<Loaded, CourseError> {
        let course = load(dir)?;
        let editions = Lang::ALL
            .into_iter()
            .map(|lang| {
                if lang == Lang::En {
                    return Arc::new(Edition::source(course.clone()));
                }
                let tdir = translation_dir(dir, lang);
                // A translation that cannot be read leaves the source in its place.
                let translation =
                    tdir.is_dir().then(|| load_translation(&course, &tdir, lang).ok()).flatten();
                Arc::new(Edition::translated(&course, translation.as_ref(), lang))
            })
            .collect();
        Ok(Loaded { course: Arc::new(course), editions })
    }

    pub fn edition(&self, lang: Lang) -> Arc<Edition> {
        let i = Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0);
        self.editions[i].clone()
    }
}

type ReloadHook = Box<dyn Fn(&Course) + Send + Sync>;

pub struct LiveCourse {
    dir: PathBuf,
    watch: bool,
    current: RwLock<(Fingerprint, Arc<Loaded>)>,
    on_reload: ReloadHook,
}

impl LiveCourse {
    /// Loads the course once. With `watch`, [`LiveCourse::current`] reloads it whenever a file
    /// changed; without, it is read once (for deployments where lessons are baked in).
    /// `on_reload` sees every freshly loaded course, the first one included: the server logs
    /// its diagnostics there.
    pub fn open(
        dir: impl Into<PathBuf>,
        watch: bool,
        on_reload: impl Fn(&Course) + Send + Sync + 'static,
    ) -> Result<Self, CourseError> {
        let dir = dir.into();
        let fingerprint = Fingerprint::of(&dir);
        let loaded = Loaded::load(&dir)?;
        on_reload(&loaded.course);
        Ok(Self {
            dir,
            watch,
            current: RwLock::new((fingerprint, Arc::new(loaded))),
            on_reload: Box::new(on_reload),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The course as it is on disk now.
    /// The course in its own language: the authority on lessons, quizzes and XP.
    pub fn current(&self) -> Arc<Course> {
        self.loaded().course.clone()
    }

    /// The course as a reader of `lang` gets it.
    pub fn edition(&self, lang: Lang) -> Arc<Edition> {
        self.loaded().edition(lang)
    }

    /// The course and its editions, as they are on disk now when watching.
    pub fn loaded(&self) -> Arc<Loaded> {
        if !self.watch {
            return self.read().1.clone();
        }
        let now = Fingerprint::of(&self.dir);
        {
            let guard = self.read();
            if guard.0 == now {
                return guard.1.clone();
            }
        }
        let mut guard = self.current.write().unwrap_or_else(|e| e.into_inner());
        if guard.0 != now {
            // A directory that vanished keeps the last good course rather than serving nothing.
            if let Ok(loaded) = Loaded::load(&self.dir) {
                (self.on_reload)(&loaded.course);
                *guard = (now, Arc::new(loaded));
            }
        }
        guard.1.clone()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, (Fingerprint, Arc<Loaded>)> {
        self.current.read().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[test]
    fn reloads_on_change_only() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(COURSE_FILE), "title = \"C\"\nsummary = \"S\"\n").unwrap();
        let lesson = |title: &str| {
            format!("+++\ntitle = \"{title}\"\norder = 1\nxp = 1\nsummary = \"s\"\n+++\nbody\n")
        };
        std::fs::write(dir.path().join("01-a.md"), lesson("First")).unwrap();
        let loads = Arc::new(AtomicUsize::new(0));
        let counter = loads.clone();
        let live = LiveCourse::open(dir.path(), true, move |_| {
            counter.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap();
        assert_eq!(live.current().lessons[0].front().unwrap().title, "First");
        assert_eq!(live.current().lessons[0].front().unwrap().title, "First");
        assert_eq!(loads.load(Ordering::SeqCst), 1);

        // A different length guarantees a new fingerprint even within one mtime tick.
        std::fs::write(dir.path().join("01-a.md"), lesson("Second, edited")).unwrap();
        assert_eq!(live.current().lessons[0].front().unwrap().title, "Second, edited");
        assert_eq!(loads.load(Ordering::SeqCst), 2);

        // Not translated yet: the Korean edition serves the source, and says so.
        let ko = live.edition(Lang::Ko);
        assert_eq!(ko.course.lessons[0].front().unwrap().title, "Second, edited");
        assert!(ko.untranslated.contains("a"));
        // A translation appears without a restart, and is served once it matches its source.
        let source = std::fs::read_to_string(dir.path().join("01-a.md")).unwrap();
        std::fs::create_dir(dir.path().join("ko")).unwrap();
        std::fs::write(
            dir.path().join("ko").join(COURSE_FILE),
            "title = \"코\"\nsummary = \"요\"\n",
        )
        .unwrap();
        let translated = format!(
            "+++\ntitle = \"두 번째\"\norder = 1\nxp = 1\nsummary = \"s\"\ntranslated_from = \"{}\"\n+++\n본문\n",
            crate::lesson::version(&source)
        );
        std::fs::write(dir.path().join("ko").join("01-a.md"), translated).unwrap();
        let ko = live.edition(Lang::Ko);
        assert_eq!(ko.course.lessons[0].front().unwrap().title, "두 번째");
        assert_eq!(ko.course.meta.title, "코");
        assert!(ko.untranslated.is_empty());
        assert_eq!(
            live.edition(Lang::En).course.lessons[0].front().unwrap().title,
            "Second, edited"
        );
    }
}
