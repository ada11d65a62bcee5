//! The course in `lessons/` itself: it must load without a single problem.

use std::path::Path;

use lockstep_course::{Block, LessonEntry};

#[test]
fn the_ddp_course_is_valid() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons/ddp");
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
            ("accumulation-and-mixed-precision", 7),
            ("debugging-hangs", 8),
            ("fault-tolerance", 9),
            ("when-ddp-is-not-enough", 10),
        ]
    );
    for lesson in &course.lessons {
        let LessonEntry::Ready(l) = lesson else { unreachable!() };
        assert!(l.html().contains("class=\"code-title\""), "{} has a titled code block", l.file);
        assert!(l.toc.len() >= 3, "{} has sections", l.file);
        // The second edition's promise: every lesson tests understanding and ends with a recap.
        let questions: usize = l
            .body
            .iter()
            .map(|b| match b {
                Block::Quiz(q) => q.questions.len(),
                _ => 0,
            })
            .sum();
        assert!(questions >= 4, "{} has a quiz of at least 4 questions, not {questions}", l.file);
        for id in ["check-your-understanding", "key-points", "external-links"] {
            assert!(l.toc.iter().any(|t| t.id == id), "{} has a section #{id}", l.file);
        }
    }
    let exercises: Vec<(&str, &str)> =
        course.exercises().map(|(l, e)| (l.slug.as_str(), e.id.as_str())).collect();
    assert_eq!(
        exercises,
        [("checkpoints-and-pitfalls", "ddp-conversion"), ("fault-tolerance", "survive-a-crash")]
    );
    let LessonEntry::Ready(last) = &course.lessons[5] else { unreachable!() };
    assert!(
        last.toc.iter().any(|t| t.id == "exercise-convert-a-single-gpu-script"),
        "lesson 6 ends with the exercise"
    );
    assert_eq!(
        last.html().matches("type=\"checkbox\"").count(),
        10,
        "the exercise lists the grader's ten checks"
    );
}
