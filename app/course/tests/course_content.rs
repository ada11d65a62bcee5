//! The course in `lessons/` itself: it must load without a single problem.

use std::path::Path;

use lockstep_course::LessonEntry;

#[test]
fn the_ddp_course_is_valid() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons");
    let course = lockstep_course::load(&dir).unwrap();
    let problems: Vec<String> = course.diagnostics().map(|d| d.to_string()).collect();
    assert!(problems.is_empty(), "lessons check finds problems:\n{}", problems.join("\n"));

    let titles: Vec<(&str, u32)> = course
        .lessons
        .iter()
        .map(|l| match l {
            LessonEntry::Ready(l) => (l.slug.as_str(), l.front.order),
            LessonEntry::Broken { .. } => unreachable!(),
        })
        .collect();
    assert_eq!(
        titles,
        vec![
            ("why-distributed", 1),
            ("dataparallel", 2),
            ("ddp-allreduce", 3),
            ("distributed-sampler", 4),
            ("torchrun", 5),
            ("checkpoints-and-pitfalls", 6),
        ]
    );
    for lesson in &course.lessons {
        let LessonEntry::Ready(l) = lesson else { unreachable!() };
        assert!(l.html().contains("class=\"code-title\""), "{} has a titled code block", l.file);
        assert!(l.toc.len() >= 3, "{} has sections", l.file);
    }
    let LessonEntry::Ready(last) = &course.lessons[5] else { unreachable!() };
    assert!(
        last.toc.iter().any(|t| t.id == "exercise-convert-a-single-gpu-script"),
        "lesson 6 ends with the exercise"
    );
    assert_eq!(
        last.html().matches("type=\"checkbox\"").count(),
        3,
        "the exercise lists its three checks"
    );
}
