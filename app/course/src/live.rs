//! The course as the server sees it: reloaded when a lesson file changes, so an instructor's
//! edit shows on the next page load without restarting anything.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::SystemTime;

use crate::load::{is_lesson_file, load, Course, CourseError, COURSE_FILE};

/// Names, sizes and modification times of the files the course is read from. Comparing it
/// costs one directory listing, which is far cheaper than re-rendering every lesson.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Fingerprint(Vec<(String, u64, Option<SystemTime>)>);

impl Fingerprint {
    fn of(dir: &Path) -> Fingerprint {
        let mut files = Vec::new();
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if !(is_lesson_file(&name) || name == COURSE_FILE) {
                    continue;
                }
                let meta = entry.metadata().ok();
                files.push((
                    name,
                    meta.as_ref().map_or(0, |m| m.len()),
                    meta.and_then(|m| m.modified().ok()),
                ));
            }
        }
        files.sort();
        Fingerprint(files)
    }
}

type ReloadHook = Box<dyn Fn(&Course) + Send + Sync>;

pub struct LiveCourse {
    dir: PathBuf,
    watch: bool,
    current: RwLock<(Fingerprint, Arc<Course>)>,
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
        let course = load(&dir)?;
        on_reload(&course);
        Ok(Self {
            dir,
            watch,
            current: RwLock::new((fingerprint, Arc::new(course))),
            on_reload: Box::new(on_reload),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The course as it is on disk now.
    pub fn current(&self) -> Arc<Course> {
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
            if let Ok(course) = load(&self.dir) {
                (self.on_reload)(&course);
                *guard = (now, Arc::new(course));
            }
        }
        guard.1.clone()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, (Fingerprint, Arc<Course>)> {
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
    }
}
