//! Every check's lesson link names a section that exists in the real course.

use grading_protocol::CheckId;
use lockstep_course::LessonEntry;

#[test]
fn every_lesson_link_names_a_real_heading() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons");
    let course = lockstep_course::load(&dir).unwrap();
    for id in CheckId::ALL {
        let url = grading_checks::lessons::url(id);
        let (slug, anchor) =
            lockstep_routes::parse_lesson_section(&url).unwrap_or_else(|| panic!("{id}: {url}"));
        let Some((_, LessonEntry::Ready(lesson))) = course.find(slug) else {
            panic!("{id}: {url}: no lesson {slug}")
        };
        let anchor = anchor.unwrap_or_else(|| panic!("{id}: {url} names no section"));
        assert!(
            lesson.toc.iter().any(|h| h.id == anchor),
            "{id}: {url}: no heading #{anchor} in {slug}"
        );
    }
}
