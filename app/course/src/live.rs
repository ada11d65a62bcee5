//! The course as the server sees it: reloaded when a lesson file changes, so an instructor's
//! edit shows on the next page load without restarting anything.
//!
//! # Lesson file → page
//!
//! `LiveCourse::current()` asks the kernel whether a file in the lessons root, a course folder or a
//! translation folder changed (inotify, one non-blocking read; the kernel queues the change before
//! the write that made it returns, so the next request sees a saved edit). Only then, or where
//! nothing can be watched, it compares the folder's fingerprint (file names, sizes and modification
//! times) with the one it last loaded, and when that differs it re-reads the catalogue and logs
//! every diagnostic; when a `publish_at` is reached it makes the learners' view again. Each request
//! then renders from an `Arc<Course>`. The page's server function turns a `Lesson` into a
//! `LessonView`. During SSR that data is serialized into the page, so hydration doesn't need a
//! second request. A broken lesson becomes `LessonLookup::Broken` and is shown as an error page
//! with status 500. The other lessons are unaffected.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::SystemTime;

use lockstep_i18n::{Lang, Languages};

use crate::catalogue::{course_dirs, load_catalogue, Catalogue, Entry};
use crate::edition::Edition;
use crate::lesson::LessonEntry;
use crate::load::{
    is_lesson_file, load_translation, translation_dir, Course, CourseError, CourseMeta, COURSE_FILE,
};
use crate::publishing::Visibility;

/// Names, sizes and modification times of the files the course is read from. Comparing it
/// costs a directory listing and a `stat` of every file: far cheaper than re-rendering every
/// lesson, but not than serving a kept page, so it is taken only when [`Watch`] says a file
/// may have changed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Fingerprint(Vec<(String, u64, Option<SystemTime>)>);

impl Fingerprint {
    /// Every course's files, its translations' and its exercises'.
    fn of(root: &Path) -> Fingerprint {
        let mut files = Vec::new();
        for (name, dir) in course_dirs(root).unwrap_or_default() {
            Self::add(&dir, &name, &mut files);
            for lang in translations() {
                Self::add(
                    &translation_dir(&dir, lang),
                    &format!("{name}/{}", lang.code()),
                    &mut files,
                );
            }
            for (folder, prefix) in exercise_dirs(&dir, &name) {
                Self::add_all(&folder, &prefix, &mut files);
            }
        }
        files.sort();
        Fingerprint(files)
    }

    /// Every file in `dir`, whatever its name: an exercise's folder holds Python and patches.
    fn add_all(dir: &Path, prefix: &str, files: &mut Vec<(String, u64, Option<SystemTime>)>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let meta = entry.metadata().ok();
            if meta.as_ref().is_some_and(|m| m.is_file()) {
                let name = entry.file_name().to_string_lossy().into_owned();
                files.push((
                    format!("{prefix}/{name}"),
                    meta.as_ref().map_or(0, |m| m.len()),
                    meta.and_then(|m| m.modified().ok()),
                ));
            }
        }
    }

    fn add(dir: &Path, prefix: &str, files: &mut Vec<(String, u64, Option<SystemTime>)>) {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if !(is_lesson_file(&name) || name == COURSE_FILE || name == crate::TERMS_FILE) {
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

/// The folders of a course's exercises, with their names under the lessons root: `exercises/`
/// itself (where a new exercise's folder appears), each exercise's, and its `wrong/`.
fn exercise_dirs(course: &Path, name: &str) -> Vec<(PathBuf, String)> {
    let root = course.join(crate::load::EXERCISES_DIR);
    let prefix = format!("{name}/{}", crate::load::EXERCISES_DIR);
    let mut dirs = vec![(root.clone(), prefix.clone())];
    for entry in std::fs::read_dir(&root).into_iter().flatten().flatten() {
        if entry.path().is_dir() {
            let id = entry.file_name().to_string_lossy().into_owned();
            dirs.push((entry.path().join(exercise_spec::WRONG), format!("{prefix}/{id}/wrong")));
            dirs.push((entry.path(), format!("{prefix}/{id}")));
        }
    }
    dirs
}

/// The languages a course's translation folders may be named by: every one but its own, which
/// is not known before its `course.toml` is read (a folder of its own language is a problem
/// `lessons check` reports).
fn translations() -> impl Iterator<Item = Lang> {
    Lang::ALL.into_iter()
}

/// The courses and the site's editions, loaded together so a page never mixes two versions:
/// as learners see them (published lessons of published courses), or as instructors do.
pub struct Loaded {
    /// The site as it is written: every course's lessons in the course's own language, in
    /// catalogue order.
    pub course: Arc<Course>,
    /// The languages of [`Loaded::editions`], in order: those the site serves, and the language
    /// each course is written in.
    langs: Vec<Lang>,
    editions: Vec<Arc<Edition>>,
    pub catalogue: Arc<Catalogue>,
    /// What learners do not see now, in a view that has it: empty in the learners' own.
    pub drafts: Arc<Drafts>,
    /// Each course's title and summary in each of [`Loaded::langs`], by course slug.
    metas: BTreeMap<String, Vec<CourseMeta>>,
}

/// The lessons and courses learners do not see, by slug, with why: a draft, or published
/// later. A lesson of a course that is not published is here with its course's visibility.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Drafts {
    pub lessons: BTreeMap<String, Visibility>,
    pub courses: BTreeMap<String, Visibility>,
}

impl Loaded {
    /// The site in `lang`; in English where the site does not serve `lang`.
    pub fn edition(&self, lang: Lang) -> Arc<Edition> {
        self.editions[self.index(lang)].clone()
    }

    /// Each edition there is, in each language the site serves (and each course's own).
    pub fn editions(&self) -> impl Iterator<Item = &Arc<Edition>> {
        self.editions.iter()
    }

    fn index(&self, lang: Lang) -> usize {
        self.langs.iter().position(|l| *l == lang).unwrap_or(0)
    }

    /// A course's title and summary as a reader of `lang` gets them: its translation's where
    /// it has one.
    pub fn course_meta<'a>(&'a self, course: &'a Entry, lang: Lang) -> &'a CourseMeta {
        let i = self.index(lang);
        self.metas.get(&course.slug).and_then(|m| m.get(i)).unwrap_or(&course.course.meta)
    }

    /// Whether learners see this lesson (in this view: a view without it says no).
    pub fn is_draft(&self, slug: &str) -> bool {
        self.drafts.lessons.contains_key(slug)
    }
}

/// Everything under the lessons root, drafts too: what both views are made of.
struct Everything {
    catalogue: Catalogue,
    /// The site's languages, English first, then each course's own where the site does not
    /// serve it (its lessons as written are the authority on XP).
    langs: Vec<Lang>,
    /// Per course (in catalogue order), its edition in each of `langs`.
    editions: Vec<Vec<Edition>>,
}

impl Everything {
    fn load(root: &Path, languages: &Languages) -> Result<Everything, CourseError> {
        let catalogue = load_catalogue(root)?;
        let mut langs: Vec<Lang> = languages.iter().collect();
        for entry in &catalogue.courses {
            if !langs.contains(&entry.course.lang()) {
                langs.push(entry.course.lang());
            }
        }
        let editions = catalogue
            .courses
            .iter()
            .map(|e| {
                let placed = |mut edition: Edition| {
                    // A translated lesson is in its source's course, on its source's schedule.
                    for lesson in &mut edition.course.lessons {
                        let source = e.course.find(lesson.slug()).map(|(_, s)| s.visibility());
                        lesson.place_in(&e.slug, source.unwrap_or_default());
                    }
                    edition
                };
                langs.iter().map(|lang| placed(edition(&e.course, &e.dir, *lang))).collect()
            })
            .collect();
        Ok(Everything { catalogue, langs, editions })
    }

    /// The instructors' view and the learners' at `now`, and the next instant the learners'
    /// changes by itself (a `publish_at` reached).
    /// `published`: when each lesson was first seen published, once known (see
    /// [`LiveCourse::set_publications`]); a lesson published now and not recorded yet was
    /// published `now`.
    fn views(self: &Arc<Self>, now: SystemTime, published: Option<&Publications>) -> Views {
        let mut drafts = Drafts::default();
        let mut next_change: Option<SystemTime> = None;
        let mut note = |v: Visibility| {
            if let Some(at) = v.changes_after(now) {
                next_change = Some(next_change.map_or(at, |n| n.min(at)));
            }
        };
        for entry in &self.catalogue.courses {
            let course = entry.course.visibility;
            note(course);
            if !course.published_at(now) {
                drafts.courses.insert(entry.slug.clone(), course);
            }
            for lesson in &entry.course.lessons {
                let own = lesson.visibility();
                note(own);
                let hidden = if course.published_at(now) { own } else { course };
                if !hidden.published_at(now) {
                    drafts.lessons.insert(lesson.slug().to_string(), hidden);
                }
            }
        }
        let since = |lesson: &mut LessonEntry| {
            if let Some(published) = published {
                lesson.first_published(published.get(lesson.slug()).copied().unwrap_or(now));
            }
        };
        let learners = self.view(
            |course| !drafts.courses.contains_key(course),
            |lesson| !drafts.lessons.contains_key(lesson),
            &since,
            Drafts::default(),
        );
        let all = self.view(|_| true, |_| true, &since, drafts);
        Views {
            all: Arc::new(all),
            published: Arc::new(learners),
            next_change,
            everything: self.clone(),
            publications: published.cloned(),
        }
    }

    /// The courses `keep_course` keeps, with the lessons `keep` keeps.
    fn view(
        &self,
        keep_course: impl Fn(&str) -> bool,
        keep: impl Fn(&str) -> bool,
        since: &impl Fn(&mut LessonEntry),
        drafts: Drafts,
    ) -> Loaded {
        let mut courses = Vec::new();
        let mut metas = BTreeMap::new();
        let mut parts: Vec<Vec<Edition>> = self.langs.iter().map(|_| Vec::new()).collect();
        // Each course as it is written, in its own language.
        let mut sources = Vec::new();
        for (entry, editions) in self.catalogue.courses.iter().zip(&self.editions) {
            if !keep_course(&entry.slug) {
                continue;
            }
            let mut entry = entry.clone();
            entry.course.lessons.retain(|l| keep(l.slug()));
            entry.course.lessons.iter_mut().for_each(since);
            metas.insert(
                entry.slug.clone(),
                editions.iter().map(|e| e.course.meta.clone()).collect(),
            );
            let own = entry.course.lang();
            courses.push(entry);
            for ((part, edition), lang) in
                parts.iter_mut().zip(editions).zip(self.langs.iter().copied())
            {
                let mut edition = edition.clone();
                edition.retain_lessons(&keep);
                edition.course.lessons.iter_mut().for_each(since);
                if lang == own {
                    sources.push(edition.clone());
                }
                part.push(edition);
            }
        }
        let editions: Vec<Arc<Edition>> = self
            .langs
            .iter()
            .copied()
            .zip(parts)
            .map(|(lang, parts)| Arc::new(Edition::union(lang, parts)))
            .collect();
        Loaded {
            course: Arc::new(Edition::union(Lang::default(), sources).course),
            langs: self.langs.clone(),
            editions,
            catalogue: Arc::new(Catalogue { courses }),
            drafts: Arc::new(drafts),
            metas,
        }
    }
}

/// Both views of one load of the files, and when the learners' changes by itself.
struct Views {
    all: Arc<Loaded>,
    published: Arc<Loaded>,
    next_change: Option<SystemTime>,
    /// What they are made of, for making them again when a `publish_at` is reached.
    everything: Arc<Everything>,
    /// What they were made with.
    publications: Option<Publications>,
}

/// When each lesson was first seen published, by slug.
pub type Publications = BTreeMap<String, SystemTime>;

impl Views {
    fn due(&self, now: SystemTime) -> bool {
        self.next_change.is_some_and(|at| at <= now)
    }
}

/// One course's edition in `lang`: its translation there where it has one that can be read,
/// the source in its place where not.
fn edition(course: &Course, dir: &Path, lang: Lang) -> Edition {
    if lang == course.lang() {
        return Edition::source(course.clone());
    }
    let tdir = translation_dir(dir, lang);
    let translation = tdir.is_dir().then(|| load_translation(course, &tdir, lang).ok()).flatten();
    // A lesson not translated is served as written, but its links and the renderer's words are
    // the page's: a reader of `/ko` who follows a link stays in Korean.
    let translated = |slug: &str| {
        translation
            .as_ref()
            .is_some_and(|t| t.course.find(slug).is_some_and(|(_, l)| l.ready().is_some()))
    };
    let framed = course
        .lessons
        .iter()
        .any(|l| !translated(l.slug()))
        .then(|| crate::load::load_for(dir, lang).ok())
        .flatten();
    Edition::translated(framed.as_ref().unwrap_or(course), translation.as_ref(), lang)
}

type ReloadHook = Box<dyn Fn(&Course) + Send + Sync>;

pub struct LiveCourse {
    dir: PathBuf,
    languages: Languages,
    watch: Option<Watch>,
    current: RwLock<(Fingerprint, Arc<Views>)>,
    on_reload: ReloadHook,
}

impl LiveCourse {
    /// Loads the courses once. With `watch`, [`LiveCourse::loaded`] reloads them whenever a
    /// file changed; without, they are read once (for deployments where lessons are baked in).
    /// Either way a lesson or course whose `publish_at` is reached is published then.
    /// `on_reload` sees every freshly loaded site, drafts included, the first one too: the
    /// server logs its diagnostics there. Editions are made in the `languages` the site serves.
    pub fn open(
        dir: impl Into<PathBuf>,
        watch: bool,
        languages: &Languages,
        on_reload: impl Fn(&Course) + Send + Sync + 'static,
    ) -> Result<Self, CourseError> {
        let dir = dir.into();
        let watch = watch.then(|| Watch::new(&dir));
        let fingerprint = Fingerprint::of(&dir);
        let views = Self::views_of(Everything::load(&dir, languages)?, None);
        on_reload(&views.all.course);
        Ok(Self {
            dir,
            languages: languages.clone(),
            watch,
            current: RwLock::new((fingerprint, Arc::new(views))),
            on_reload: Box::new(on_reload),
        })
    }

    fn views_of(everything: Everything, published: Option<&Publications>) -> Views {
        Arc::new(everything).views(SystemTime::now(), published)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The site in its own language as learners see it: the authority on lessons, quizzes
    /// and XP.
    pub fn current(&self) -> Arc<Course> {
        self.loaded().course.clone()
    }

    /// The site as a learner reading `lang` gets it.
    pub fn edition(&self, lang: Lang) -> Arc<Edition> {
        self.loaded().edition(lang)
    }

    /// The courses and their editions as learners see them now (as they are on disk when
    /// watching): published lessons of published courses only.
    pub fn loaded(&self) -> Arc<Loaded> {
        self.views().published.clone()
    }

    /// [`LiveCourse::loaded`] for whom it is: instructors see drafts too, each named in
    /// [`Loaded::drafts`].
    pub fn loaded_for(&self, instructor: bool) -> Arc<Loaded> {
        let views = self.views();
        if instructor {
            views.all.clone()
        } else {
            views.published.clone()
        }
    }

    /// When each lesson was first seen published, as the site's database keeps it: the views
    /// are made again with it when it changed. Until it is set, lessons carry only their
    /// `publish_at`.
    pub fn set_publications(&self, publications: Publications) {
        let mut guard = self.current.write().unwrap_or_else(|e| e.into_inner());
        if guard.1.publications.as_ref() != Some(&publications) {
            let views = guard.1.everything.views(SystemTime::now(), Some(&publications));
            guard.1 = Arc::new(views);
        }
    }

    fn views(&self) -> Arc<Views> {
        let now = SystemTime::now();
        let may_have_changed = self.watch.as_ref().is_some_and(|w| w.may_have_changed(&self.dir));
        if !may_have_changed {
            let guard = self.read();
            if !guard.1.due(now) {
                return guard.1.clone();
            }
        }
        let fingerprint = may_have_changed.then(|| Fingerprint::of(&self.dir));
        let changed = |kept: &Fingerprint| fingerprint.as_ref().is_some_and(|f| f != kept);
        {
            let guard = self.read();
            if !changed(&guard.0) && !guard.1.due(now) {
                return guard.1.clone();
            }
        }
        let mut guard = self.current.write().unwrap_or_else(|e| e.into_inner());
        if changed(&guard.0) {
            // A directory that vanished keeps the last good course rather than serving nothing.
            if let (Ok(everything), Some(fingerprint)) =
                (Everything::load(&self.dir, &self.languages), fingerprint)
            {
                let views = Self::views_of(everything, guard.1.publications.as_ref());
                (self.on_reload)(&views.all.course);
                *guard = (fingerprint, Arc::new(views));
            }
        } else if guard.1.due(now) {
            guard.1 = Arc::new(guard.1.everything.views(now, guard.1.publications.as_ref()));
        }
        guard.1.clone()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, (Fingerprint, Arc<Views>)> {
        self.current.read().unwrap_or_else(|e| e.into_inner())
    }
}

/// Tells whether a course file may have changed since it was last asked, without touching
/// the files: the kernel queues a change to a watched folder (inotify) before the write that
/// made it returns, so a page requested after an edit is saved sees the edit, and asking costs
/// one non-blocking `read` that finds nothing. Where the kernel cannot watch (another system,
/// a folder that is gone) every call says yes, and the fingerprint decides, as it always may.
struct Watch {
    #[cfg(target_os = "linux")]
    inotify: Option<rustix::fd::OwnedFd>,
    /// Whether the course folder itself is watched: until it is, every call says yes.
    watching: std::sync::atomic::AtomicBool,
}

impl Watch {
    fn new(dir: &Path) -> Watch {
        #[cfg(target_os = "linux")]
        let inotify = {
            use rustix::fs::inotify::{init, CreateFlags};
            init(CreateFlags::NONBLOCK | CreateFlags::CLOEXEC).ok()
        };
        let watch = Watch {
            #[cfg(target_os = "linux")]
            inotify,
            watching: false.into(),
        };
        watch.rewatch(dir);
        watch
    }

    /// Watches the course folder and the translation folders it has now. Called again after
    /// every change, so a translation folder made later (its creation is a change of the
    /// course folder) is watched from then on, and a course folder replaced by another is too.
    /// Watching a folder twice is the same one watch.
    fn rewatch(&self, dir: &Path) {
        #[cfg(target_os = "linux")]
        if let Some(fd) = &self.inotify {
            use rustix::fs::inotify::{add_watch, WatchFlags};
            let changes = WatchFlags::CREATE
                | WatchFlags::DELETE
                | WatchFlags::MODIFY
                | WatchFlags::ATTRIB
                | WatchFlags::CLOSE_WRITE
                | WatchFlags::MOVED_FROM
                | WatchFlags::MOVED_TO
                | WatchFlags::DELETE_SELF
                | WatchFlags::MOVE_SELF;
            // The root, for course folders made later; each course, and its translations.
            let root = add_watch(fd, dir, changes).is_ok();
            for (name, course) in course_dirs(dir).unwrap_or_default() {
                let _ = add_watch(fd, &course, changes);
                for lang in translations() {
                    // A translation folder that is not there yet is watched once it is made.
                    let _ = add_watch(fd, translation_dir(&course, lang), changes);
                }
                for (folder, _) in exercise_dirs(&course, &name) {
                    let _ = add_watch(fd, folder, changes);
                }
            }
            self.watching.store(root, std::sync::atomic::Ordering::SeqCst);
        }
        #[cfg(not(target_os = "linux"))]
        let _ = dir;
    }

    /// Whether a course file may have changed since the last call that said yes: consumes what
    /// the kernel queued. A yes is followed by a fingerprint, which decides.
    fn may_have_changed(&self, dir: &Path) -> bool {
        #[cfg(target_os = "linux")]
        if let (Some(fd), true) =
            (&self.inotify, self.watching.load(std::sync::atomic::Ordering::SeqCst))
        {
            let mut buf = [0u8; 4096];
            let mut changed = false;
            loop {
                match rustix::io::read(fd, &mut buf) {
                    Ok(0) | Err(rustix::io::Errno::AGAIN) => break,
                    Ok(_) => changed = true,
                    // Another error (an event larger than the buffer cannot happen: names
                    // are at most 255 bytes): let the fingerprint decide.
                    Err(_) => {
                        changed = true;
                        break;
                    }
                }
            }
            if changed {
                self.rewatch(dir);
            }
            return changed;
        }
        self.rewatch(dir);
        true
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
        let live = LiveCourse::open(dir.path(), true, &Default::default(), move |_| {
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
        assert_eq!(live.current().lessons[0].front().unwrap().title, "Second, edited");
        assert_eq!(loads.load(Ordering::SeqCst), 2, "nothing changed: nothing reloaded");

        // Editors save by writing a hidden file and renaming it over the lesson.
        std::fs::write(dir.path().join(".01-a.md.swp"), lesson("Third, saved by rename")).unwrap();
        std::fs::rename(dir.path().join(".01-a.md.swp"), dir.path().join("01-a.md")).unwrap();
        assert_eq!(live.current().lessons[0].front().unwrap().title, "Third, saved by rename");
        std::fs::write(dir.path().join("01-a.md"), lesson("Second, edited")).unwrap();

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

    /// An exercise is course content: a new folder, an edited declaration and an edited wrong
    /// answer are read on the next request, as an edited lesson is.
    #[test]
    fn exercise_folders_are_watched_and_a_new_one_joins_the_course() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(COURSE_FILE), "title = \"C\"\nsummary = \"S\"\n").unwrap();
        let lesson = "+++\ntitle = \"A\"\norder = 1\nxp = 1\nsummary = \"s\"\n+++\n## One\n";
        std::fs::write(dir.path().join("01-a.md"), lesson).unwrap();
        let live = LiveCourse::open(dir.path(), true, &Default::default(), |_| {}).unwrap();
        assert!(live.current().exercises.is_empty());

        let folder = dir.path().join(crate::load::EXERCISES_DIR).join("tiny");
        let write = |title: &str, changed_to: &str| {
            std::fs::create_dir_all(folder.join("wrong")).unwrap();
            let declaration = format!(
                "id = \"tiny\"\ntitle.en = \"{title}\"\n[grade]\nruns = [\"ddp\"]\n\
                 [[check]]\nid = \"launched\"\nlesson = \"a\"\nheading = \"one\"\n\
                 title.en = \"Launched\"\nasks.en = \"It starts.\"\n\
                 [[wrong]]\nname = \"w\"\nfails = [\"launched\"]\n"
            );
            std::fs::write(folder.join(exercise_spec::DECLARATION), declaration).unwrap();
            std::fs::write(folder.join(exercise_spec::SOLUTION), "a = 1\n").unwrap();
            let patch = format!("--- a\n+++ b\n@@ -1 +1 @@\n-a = 1\n+{changed_to}\n");
            std::fs::write(folder.join("wrong/w.diff"), patch).unwrap();
        };
        let shown = |live: &LiveCourse| {
            let course = live.current();
            let e = course
                .exercises
                .first()
                .map(|e| (e.title.get(Lang::En).to_string(), e.wrong[0].script.clone()));
            e.unwrap_or_default()
        };
        write("Tiny", "a = 2");
        assert_eq!(shown(&live), ("Tiny".into(), "a = 2\n".into()), "a folder made later");
        write("Tiny, renamed", "a = 2");
        assert_eq!(shown(&live).0, "Tiny, renamed", "an edited declaration");
        write("Tiny, renamed", "a = 3");
        assert_eq!(shown(&live).1, "a = 3\n", "an edited wrong answer");
    }

    #[test]
    fn a_course_folder_replaced_by_another_is_read_and_watched() {
        let parent = tempfile::tempdir().unwrap();
        let dir = parent.path().join("lessons");
        let write = |dir: &Path, title: &str| {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join(COURSE_FILE), "title = \"C\"\nsummary = \"S\"\n").unwrap();
            let lesson = format!(
                "+++\ntitle = \"{title}\"\norder = 1\nxp = 1\nsummary = \"s\"\n+++\nbody\n"
            );
            std::fs::write(dir.join("01-a.md"), lesson).unwrap();
        };
        write(&dir, "Old");
        let live = LiveCourse::open(&dir, true, &Default::default(), |_| {}).unwrap();
        assert_eq!(live.current().lessons[0].front().unwrap().title, "Old");
        std::fs::rename(&dir, parent.path().join("old")).unwrap();
        write(&parent.path().join("new"), "New");
        std::fs::rename(parent.path().join("new"), &dir).unwrap();
        assert_eq!(live.current().lessons[0].front().unwrap().title, "New");
        write(&dir, "Newer");
        assert_eq!(live.current().lessons[0].front().unwrap().title, "Newer");
    }

    #[test]
    fn a_catalogue_is_watched_course_by_course_and_a_new_course_joins_it() {
        let root = tempfile::tempdir().unwrap();
        let write = |course: &str, order: u32, slug: &str, title: &str| {
            let dir = root.path().join(course);
            std::fs::create_dir_all(&dir).unwrap();
            let meta = format!("title = \"{course}\"\nsummary = \"S\"\norder = {order}\n");
            std::fs::write(dir.join(COURSE_FILE), meta).unwrap();
            let lesson = format!(
                "+++\ntitle = \"{title}\"\norder = 1\nxp = 1\nsummary = \"s\"\n+++\nbody\n"
            );
            std::fs::write(dir.join(format!("01-{slug}.md")), lesson).unwrap();
        };
        write("ddp", 1, "a", "A");
        let live = LiveCourse::open(root.path(), true, &Default::default(), |_| {}).unwrap();
        let titles = |live: &LiveCourse| -> Vec<String> {
            live.current().lessons.iter().map(|l| l.front().unwrap().title.clone()).collect()
        };
        assert_eq!(titles(&live), ["A"]);
        write("fsdp", 2, "b", "B");
        assert_eq!(titles(&live), ["A", "B"], "a course folder made later");
        write("fsdp", 2, "b", "B, edited");
        assert_eq!(titles(&live), ["A", "B, edited"], "an edit in the second course");
        assert_eq!(live.loaded().catalogue.courses.len(), 2);
        assert_eq!(live.edition(Lang::Ko).course.lessons.len(), 2, "served untranslated");
    }

    #[test]
    fn learners_see_published_lessons_of_published_courses_and_instructors_see_all() {
        let root = tempfile::tempdir().unwrap();
        let write = |course: &str, meta: &str, file: &str, extra: &str| {
            let dir = root.path().join(course);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(
                dir.join(COURSE_FILE),
                format!("title = \"{course}\"\nsummary = \"S\"\n{meta}"),
            )
            .unwrap();
            let order: u32 = file[..2].parse().unwrap();
            let lesson = format!(
                "+++\ntitle = \"{file}\"\norder = {order}\nxp = 1\nsummary = \"s\"\n{extra}+++\nbody\n"
            );
            std::fs::write(dir.join(file), lesson).unwrap();
        };
        let soon = SystemTime::now() + std::time::Duration::from_secs(2);
        let soon_text = crate::publishing::rfc3339(soon);
        write("ddp", "order = 1\n", "01-a.md", "");
        write("ddp", "order = 1\n", "02-b.md", "status = \"draft\"\n");
        write("ddp", "order = 1\n", "03-c.md", &format!("publish_at = {soon_text}\n"));
        write("fsdp", "order = 2\nstatus = \"draft\"\n", "01-d.md", "");
        let live = LiveCourse::open(root.path(), true, &Default::default(), |_| {}).unwrap();
        let slugs = |l: &Loaded| -> Vec<String> {
            l.course.lessons.iter().map(|l| l.slug().to_string()).collect()
        };
        let learners = live.loaded_for(false);
        assert_eq!(slugs(&learners), ["a"]);
        assert_eq!(learners.catalogue.courses.len(), 1);
        assert!(learners.drafts.lessons.is_empty());
        assert_eq!(live.edition(Lang::Ko).course.lessons.len(), 1);
        let instructors = live.loaded_for(true);
        assert_eq!(slugs(&instructors), ["a", "b", "c", "d"]);
        assert_eq!(instructors.catalogue.courses.len(), 2);
        assert_eq!(instructors.drafts.lessons["b"], Visibility::Draft);
        assert!(matches!(instructors.drafts.lessons["c"], Visibility::Scheduled(_)));
        assert_eq!(instructors.drafts.lessons["d"], Visibility::Draft, "its course's");
        assert_eq!(instructors.drafts.courses["fsdp"], Visibility::Draft);
        assert!(instructors.is_draft("b") && !instructors.is_draft("a"));

        // Its instant reached, the scheduled lesson is published without a file changing.
        let kept = live.loaded();
        assert!(Arc::ptr_eq(&kept, &live.loaded()), "nothing changed: the same view");
        std::thread::sleep(soon.duration_since(SystemTime::now()).unwrap_or_default());
        assert_eq!(slugs(&live.loaded()), ["a", "c"]);
        assert!(!live.loaded_for(true).is_draft("c"));

        // Publishing the course is an edit of its course.toml.
        write("fsdp", "order = 2\n", "01-d.md", "");
        assert_eq!(slugs(&live.loaded()), ["a", "c", "d"]);
        assert!(live.loaded_for(true).drafts.courses.is_empty());
    }
}
