//! The course as a reader of one language gets it: each lesson in that language where its
//! translation is ready, the source lesson in its place where it is not (missing, or with a
//! problem), in the source's order. Slugs, quizzes and XP are the source's in every edition
//! (the parity check holds translations to that), so progress is the learner's whatever they
//! read in.

use std::collections::{BTreeMap, BTreeSet};

use lockstep_i18n::Lang;

use crate::lesson::LessonEntry;
use crate::load::{Course, Translation};
use crate::parity::HeadingMap;

#[derive(Debug, Clone)]
pub struct Edition {
    pub lang: Lang,
    pub course: Course,
    /// The lessons served in the source's language: not translated yet, or translated with a
    /// problem.
    pub untranslated: BTreeSet<String>,
    /// Per translated lesson (by slug), its heading ids with the source's each stands for.
    pub headings: BTreeMap<String, HeadingMap>,
}

impl Edition {
    /// The source course as its own edition, in the language it is written in.
    pub fn source(course: Course) -> Edition {
        let lang = course.lang();
        Edition { lang, course, untranslated: BTreeSet::new(), headings: BTreeMap::new() }
    }

    /// The edition of `translation`'s language; the source alone while there is none.
    pub fn translated(source: &Course, translation: Option<&Translation>, lang: Lang) -> Edition {
        let Some(translation) = translation else {
            let untranslated = source.lessons.iter().map(|l| l.slug().to_string()).collect();
            let course = source.clone();
            return Edition { lang, course, untranslated, headings: BTreeMap::new() };
        };
        let mut untranslated = BTreeSet::new();
        let lessons = source
            .lessons
            .iter()
            .map(|s| {
                let ready = translation
                    .course
                    .lessons
                    .iter()
                    .find(|t| t.file() == s.file())
                    .filter(|t| t.ready().is_some());
                ready.cloned().unwrap_or_else(|| {
                    untranslated.insert(s.slug().to_string());
                    s.clone()
                })
            })
            .collect::<Vec<LessonEntry>>();
        let course = Course {
            meta: translation.course.meta.clone(),
            lessons,
            course_problems: translation.course.course_problems.clone(),
            visibility: source.visibility,
            link_warnings: translation.course.link_warnings.clone(),
            terms: source.terms.clone(),
            exercises: source.exercises.clone(),
        };
        Edition { lang, course, untranslated, headings: translation.headings.clone() }
    }

    /// The site's edition in one language: every course's edition in that language, its
    /// lessons one after the other in catalogue order. The site's title and summary are the
    /// first course's (the catalogue's own page shows each course's).
    pub fn union(lang: Lang, parts: Vec<Edition>) -> Edition {
        let mut parts = parts.into_iter();
        let Some(mut site) = parts.next() else {
            return Edition { lang, ..Edition::source(Course::default()) };
        };
        site.lang = lang;
        for part in parts {
            site.course.lessons.extend(part.course.lessons);
            site.course.course_problems.extend(part.course.course_problems);
            site.course.terms.extend(part.course.terms);
            site.course.exercises.extend(part.course.exercises);
            site.untranslated.extend(part.untranslated);
            site.headings.extend(part.headings);
        }
        site
    }

    /// Keeps the lessons whose slug `keep` keeps.
    pub fn retain_lessons(&mut self, keep: impl Fn(&str) -> bool) {
        self.course.lessons.retain(|l| keep(l.slug()));
        self.untranslated.retain(|slug| keep(slug));
        self.headings.retain(|slug, _| keep(slug));
    }

    /// A heading id of the source lesson `slug` as this edition's page of it names it.
    pub fn heading<'a>(&'a self, slug: &str, source_id: &'a str) -> &'a str {
        self.headings
            .get(slug)
            .and_then(|map| map.iter().find(|(_, s)| s == source_id))
            .map_or(source_id, |(t, _)| t.as_str())
    }
}

#[cfg(test)]
mod union_tests {
    use super::*;

    fn course(slugs: &[&str]) -> Course {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(crate::COURSE_FILE), "title = \"C\"\nsummary = \"S\"\n")
            .unwrap();
        for (n, slug) in slugs.iter().enumerate() {
            let text = format!(
                "+++\ntitle = \"{slug}\"\norder = {}\nxp = 1\nsummary = \"s\"\n+++\nBody.\n",
                n + 1
            );
            std::fs::write(dir.path().join(format!("{:02}-{slug}.md", n + 1)), text).unwrap();
        }
        crate::load(dir.path()).unwrap()
    }

    #[test]
    fn the_site_edition_is_every_course_in_catalogue_order() {
        let (a, b) = (course(&["one", "two"]), course(&["three"]));
        let parts =
            vec![Edition::translated(&a, None, Lang::Ko), Edition::translated(&b, None, Lang::Ko)];
        let site = Edition::union(Lang::Ko, parts);
        let slugs: Vec<&str> = site.course.lessons.iter().map(|l| l.slug()).collect();
        assert_eq!(slugs, ["one", "two", "three"]);
        assert_eq!(site.untranslated.len(), 3);
        assert_eq!(site.lang, Lang::Ko);
        let empty = Edition::union(Lang::Ko, Vec::new());
        assert!(empty.course.lessons.is_empty());
        assert_eq!(empty.lang, Lang::Ko);
    }
}
