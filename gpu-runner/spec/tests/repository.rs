//! The course's exercise folders (`lessons/*/exercises/*/`) as the grader knows its exercises
//! today: while the runner still grades by its registry (`grading_checks::exercises`), each
//! folder declares exactly what the registry does (checks, order, sections, words, runs).
//! (Its wrong answers were proved equal, byte for byte, to the scripts they replaced when they
//! were made; the runner's tests now grade them.)

use std::path::{Path, PathBuf};

use exercise_spec::{Course, Exercise};
use grading_protocol::CheckId;
use lockstep_routes::Lang;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every exercise folder of every course in the repository, read.
fn exercises() -> Vec<Exercise> {
    let mut found = Vec::new();
    for course in std::fs::read_dir(repository().join("lessons")).unwrap() {
        let dir = course.unwrap().path().join("exercises");
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries {
            let any_heading = |_: &str, _: &str| true;
            let course = Course { languages: &[Lang::En, Lang::Ko], has_heading: &any_heading };
            let path = entry.unwrap().path();
            let read = exercise_spec::read(&path, &course);
            found.push(read.unwrap_or_else(|p| panic!("{}: {p:?}", path.display())));
        }
    }
    found.sort_by(|a, b| a.id.cmp(&b.id));
    found
}

#[test]
fn each_folder_declares_what_the_registry_does() {
    let exercises = exercises();
    let ids: Vec<&str> = exercises.iter().map(|e| e.id.as_str()).collect();
    let mut registered: Vec<&str> = grading_checks::exercises::ALL.iter().map(|e| e.id).collect();
    registered.sort_unstable();
    assert_eq!(ids, registered);
    for e in &exercises {
        let r = grading_checks::exercises::find(&e.id).unwrap();
        assert_eq!(e.runs, r.runs, "{}", e.id);
        let declared: Vec<(CheckId, &str, &str)> =
            e.checks.iter().map(|c| (c.id, c.lesson.as_str(), c.heading.as_str())).collect();
        let taught: Vec<(CheckId, &str, &str)> =
            r.checks.iter().map(|t| (t.check, t.lesson, t.heading)).collect();
        assert_eq!(declared, taught, "{}", e.id);
        for c in &e.checks {
            for lang in [Lang::En, Lang::Ko] {
                assert_eq!(c.title.get(lang), c.id.title_in(lang), "{} {lang:?}", c.id);
                assert_eq!(c.asks.get(lang), c.id.asks_in(lang), "{} {lang:?}", c.id);
            }
        }
        let survives = e.id == "survive-a-crash";
        assert_eq!(e.max_restarts, survives.then_some(1), "{}", e.id);
    }
}
