//! The course's types as the pages' serde models (`crate::model`): what crosses from the
//! server to the browser.

use lockstep_course::{Block, Course, LessonEntry};

use crate::model::{
    BodyBlock, CourseOverview, LessonCard, LessonLookup, LessonView, NeighbourLink, TocItem,
};

pub fn overview(course: &Course, completed: &[String]) -> CourseOverview {
    let lessons: Vec<LessonCard> = course
        .lessons
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let front = entry.front();
            LessonCard {
                slug: entry.slug().to_string(),
                position: i + 1,
                title: front.map_or_else(|| entry.file().to_string(), |f| f.title.clone()),
                minutes: front.map_or(0, |f| f.minutes),
                tags: front.map(|f| f.tags.clone()).unwrap_or_default(),
                summary: front.map(|f| f.summary.clone()).unwrap_or_default(),
                xp: front.map_or(0, |f| f.xp),
                completed: completed.iter().any(|s| s == entry.slug()),
                available: matches!(entry, LessonEntry::Ready(_)),
            }
        })
        .collect();
    CourseOverview {
        title: course.meta.title.clone(),
        summary: course.meta.summary.clone(),
        completed: lessons.iter().filter(|l| l.completed).count(),
        lessons,
    }
}

pub fn lookup(course: &Course, slug: &str, completed: &[String]) -> LessonLookup {
    let Some((index, entry)) = course.find(slug) else {
        return LessonLookup::Missing;
    };
    let lesson = match entry {
        LessonEntry::Ready(lesson) => lesson,
        LessonEntry::Broken { file, front, problems, .. } => {
            return LessonLookup::Broken {
                title: front.as_ref().map_or_else(|| file.clone(), |f| f.title.clone()),
                problems: problems.iter().map(|p| p.to_string()).collect(),
            }
        }
    };
    let neighbour = |i: usize| {
        course.lessons.get(i).map(|e| NeighbourLink {
            slug: e.slug().to_string(),
            title: e.front().map_or_else(|| e.file().to_string(), |f| f.title.clone()),
        })
    };
    LessonLookup::Found(LessonView {
        slug: lesson.slug.clone(),
        position: index + 1,
        total: course.lessons.len(),
        title: lesson.front.title.clone(),
        minutes: lesson.front.minutes,
        tags: lesson.front.tags.clone(),
        xp: lesson.front.xp,
        summary: lesson.front.summary.clone(),
        body: lesson
            .body
            .iter()
            .map(|b| match b {
                Block::Html(h) => BodyBlock::Html(h.clone()),
                Block::Simulation(s) => BodyBlock::Simulation(s.clone()),
            })
            .collect(),
        toc: lesson
            .toc
            .iter()
            .map(|t| TocItem { level: t.level, id: t.id.clone(), title: t.title.clone() })
            .collect(),
        prev: index.checked_sub(1).and_then(neighbour),
        next: neighbour(index + 1),
        completed: completed.iter().any(|s| s == slug),
    })
}
