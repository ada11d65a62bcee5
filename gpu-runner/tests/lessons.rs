//! Every check's hint points at a section that exists in the real course.

use gpu_runner::checks::lessons;
use lockstep_course::LessonEntry;

#[test]
fn every_lesson_link_names_a_real_heading() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons");
    let course = lockstep_course::load(&dir).unwrap();
    for link in lessons::ALL {
        let (slug, anchor) = link.strip_prefix("/lessons/").and_then(|l| l.split_once('#')).unwrap_or_else(|| panic!("{link}"));
        let Some((_, LessonEntry::Ready(lesson))) = course.find(slug) else { panic!("{link}: no lesson {slug}") };
        assert!(lesson.toc.iter().any(|h| h.id == anchor), "{link}: no heading #{anchor} in {slug}");
    }
}
