//! The `lessons` binary as instructors run it.

use std::path::Path;
use std::process::{Command, Output};

fn lessons(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lessons")).args(args).output().unwrap()
}

fn course_dir() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons").display().to_string()
}

#[test]
fn the_real_course_checks_clean() {
    let out = lessons(&["check", &course_dir()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).contains("lessons checked, no problems"));
    // Without DIR it checks ./lessons, as run from the repository root.
    let out = Command::new(env!("CARGO_BIN_EXE_lessons"))
        .arg("check")
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).contains("lessons checked, no problems"));
}

#[test]
fn a_broken_lesson_is_reported_at_its_line_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("course.toml"), "title = \"T\"\nsummary = \"S\"\n").unwrap();
    std::fs::write(
        dir.path().join("01-a.md"),
        "+++\ntitle = \"A\"\norder = 1\nxp = 10\nsummary = \"s\"\ntags = []\n+++\n\n```sim warp-drive\n```\n",
    )
    .unwrap();
    let out = lessons(&["check", &dir.path().display().to_string()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("01-a.md:9: simulation: unknown simulation `warp-drive`"), "{stdout}");
}

#[test]
fn a_translation_is_checked_against_its_source() {
    let dir = tempfile::tempdir().unwrap();
    let ko = dir.path().join("ko");
    std::fs::create_dir(&ko).unwrap();
    for d in [dir.path(), ko.as_path()] {
        std::fs::write(d.join("course.toml"), "title = \"T\"\nsummary = \"S\"\n").unwrap();
    }
    let quiz = |correct_second: bool| {
        format!(
            "```quiz\n[[question]]\nprompt = \"p\"\n[[question.option]]\ntext = \"a\"\ncorrect = {}\nexplain = \"e\"\n[[question.option]]\ntext = \"b\"\ncorrect = {correct_second}\nexplain = \"e\"\n```\n",
            !correct_second
        )
    };
    let lesson = |order: u32, heading: &str, quiz: &str| {
        format!("+++\ntitle = \"A\"\norder = {order}\nxp = 10\nsummary = \"s\"\n+++\n## {heading}\n\n{quiz}")
    };
    let source = lesson(1, "One", &quiz(false));
    let version = lockstep_course::lesson::version(&source);
    let translation = |quiz: &str, from: &str| {
        let from = format!("xp = 10\ntranslated_from = \"{from}\"\n");
        lesson(1, "하나", quiz).replacen("xp = 10\n", &from, 1)
    };
    std::fs::write(dir.path().join("01-a.md"), &source).unwrap();
    std::fs::write(dir.path().join("02-b.md"), lesson(2, "Two", &quiz(false))).unwrap();
    let check = || {
        let out = lessons(&["check", &dir.path().display().to_string()]);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code(), text)
    };

    // A faithful translation of one lesson: the other is not translated yet, a problem.
    std::fs::write(ko.join("01-a.md"), translation(&quiz(false), &version)).unwrap();
    let (code, text) = check();
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("ko/02-b.md:1: not translated yet: add 02-b.md"), "{text}");
    assert!(text.contains("3 lessons checked, 1 problem(s)"), "{text}");
    // Both translated: clean.
    let two = lesson(2, "둘", &quiz(false));
    let two_version = lockstep_course::lesson::version(&lesson(2, "Two", &quiz(false)));
    let two =
        two.replacen("xp = 10\n", &format!("xp = 10\ntranslated_from = \"{two_version}\"\n"), 1);
    std::fs::write(ko.join("02-b.md"), two).unwrap();
    let (code, text) = check();
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("4 lessons checked, no problems"), "{text}");

    // The correct option moved in translation: a problem at the quiz's line.
    std::fs::write(ko.join("01-a.md"), translation(&quiz(true), &version)).unwrap();
    let (code, text) = check();
    assert_eq!(code, Some(1), "{text}");
    let moved =
        "ko/01-a.md:10: quiz 1, question 1: the correct options are [2], the source's are [1]";
    assert!(text.contains(moved), "{text}");

    // A translation must say what it was made from.
    std::fs::write(ko.join("01-a.md"), lesson(1, "하나", &quiz(false))).unwrap();
    let (code, text) = check();
    assert_eq!(code, Some(1), "{text}");
    let unnamed = format!(
        "ko/01-a.md:1: front matter: a translation names the version of its source it was made \
         from: add `translated_from = \"{version}\"`"
    );
    assert!(text.contains(&unnamed), "{text}");

    // The source changed since: the translator is told, and the translation still serves.
    std::fs::write(ko.join("01-a.md"), translation(&quiz(false), &version)).unwrap();
    let edited = source.replace("## One", "## One, edited");
    std::fs::write(dir.path().join("01-a.md"), &edited).unwrap();
    let (code, text) = check();
    assert_eq!(code, Some(0), "{text}");
    let now = lockstep_course::lesson::version(&edited);
    let stale = format!(
        "ko/01-a.md:1: warning: 01-a.md has changed since this translation was made from it \
         (version {version}, now {now})"
    );
    assert!(text.contains(&stale), "{text}");
}

#[test]
fn stats_count_what_a_lesson_holds_and_its_minutes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("course.toml"), "title = \"T\"\nsummary = \"S\"\n").unwrap();
    let words = "word ".repeat(399);
    let code = "x = 1\n".repeat(24);
    let quiz = "```quiz\n[[question]]\nprompt = \"p\"\n[[question.option]]\ntext = \"a\"\ncorrect = true\nexplain = \"e\"\n[[question.option]]\ntext = \"b\"\nexplain = \"e\"\n```\n";
    let lesson = format!(
        "+++\ntitle = \"A\"\norder = 1\nxp = 10\nsummary = \"s\"\n+++\n## One\n\n{words}\n\n```python\n{code}```\n\n{quiz}\n```sim sampler\n```\n"
    );
    std::fs::write(dir.path().join("01-a.md"), lesson).unwrap();
    let out = lessons(&["stats", &dir.path().display().to_string()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    // 400 words (the heading's one too) are 2 minutes, 24 lines of code 2, a question 1 and a
    // simulation 1.5: 6.5, rounded up.
    assert!(stdout.starts_with("T ("), "each course under its title: {stdout}");
    let row: Vec<&str> = stdout.lines().nth(2).unwrap().split_whitespace().collect();
    assert_eq!(row, ["01-a.md", "400", "24", "1", "1", "7"], "{stdout}");
}

#[test]
fn every_course_of_a_catalogue_is_checked_and_named_by_its_folder() {
    let root = tempfile::tempdir().unwrap();
    let lesson = "+++\ntitle = \"A\"\norder = 1\nxp = 10\nsummary = \"s\"\n+++\nBody.\n";
    for (course, meta) in [("ddp", "title = \"D\"\nsummary = \"S\"\n"), ("fsdp", "title = 1\n")] {
        let dir = root.path().join(course);
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("course.toml"), meta).unwrap();
        std::fs::write(dir.join(format!("01-{course}-intro.md")), lesson).unwrap();
    }
    let out = lessons(&["check", &root.path().display().to_string()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    let at = format!("{}:1: ", root.path().join("fsdp/course.toml").display());
    assert!(lines[0].starts_with(&at), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 lessons checked, 1 problem(s)"));
}

#[test]
fn help_version_and_usage_errors() {
    let out = lessons(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("check"));
    assert_eq!(lessons(&["--version"]).status.code(), Some(0));
    let out = lessons(&["check", "--strict"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unexpected argument '--strict'"));
    let out = lessons(&["check", "/nonexistent/lessons"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("lessons: "));
}

/// A copy of the real course, in a folder of its own.
fn copy_of_the_course() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let to = root.path().join("ddp");
    let status = Command::new("cp")
        .args(["-r", &format!("{}/ddp", course_dir()), &to.display().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    root
}

/// An exercise's folder is course content, checked with it: each of its problems at its file
/// and line, a lesson's exercise without a folder at its fence, a folder no lesson gives out.
#[test]
fn exercise_folders_are_checked_with_the_course() {
    let root = copy_of_the_course();
    let check = || {
        let out = lessons(&["check", &root.path().join("ddp").display().to_string()]);
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (code, stdout) = check();
    assert_eq!(code, Some(0), "{stdout}");

    let exercises = root.path().join("ddp/exercises");
    let declaration = exercises.join("ddp-conversion/exercise.toml");
    let toml = std::fs::read_to_string(&declaration).unwrap();
    let broken = toml
        .replacen("heading = \"the-barrier-deadlock\"", "heading = \"the-deadlock\"", 1)
        .replacen("fails = [\"rank0_logging\"]", "fails = [\"rank0_printing\"]", 1);
    std::fs::write(&declaration, broken).unwrap();
    std::fs::write(exercises.join("survive-a-crash/wrong/starts_over.diff"), "not a patch")
        .unwrap();
    std::fs::create_dir(exercises.join("left-over")).unwrap();
    let (code, stdout) = check();
    assert_eq!(code, Some(1), "{stdout}");
    let line_of = |needle: &str| toml.lines().position(|l| l.contains(needle)).unwrap() + 1;
    for expected in [
        format!(
            "exercises/ddp-conversion/exercise.toml:{}: check `no_deadlock`: lesson \
             `checkpoints-and-pitfalls` has no heading `the-deadlock`",
            line_of("the-barrier-deadlock")
        ),
        format!(
            "exercises/ddp-conversion/exercise.toml:{}: wrong answer `all_ranks_log`: \
             `rank0_printing` is not a check of this exercise",
            line_of("fails = [\"rank0_logging\"]")
        ),
        "exercises/survive-a-crash/exercise.toml:".to_string(),
        "wrong answer `starts_over`: wrong/starts_over.diff does not apply to solution.py"
            .to_string(),
        "exercises/left-over/exercise.toml:1: cannot read it".to_string(),
        "exercises/left-over/exercise.toml:1: exercise `left-over` is given to no learner"
            .to_string(),
    ] {
        assert!(stdout.contains(&expected), "{expected}\n{stdout}");
    }

    // A lesson's exercise without its folder is a problem at its fence.
    std::fs::remove_dir_all(exercises.join("survive-a-crash")).unwrap();
    let (_, stdout) = check();
    assert!(
        stdout.contains("09-fault-tolerance.md:481: exercise `survive-a-crash` has no folder"),
        "{stdout}"
    );
}
