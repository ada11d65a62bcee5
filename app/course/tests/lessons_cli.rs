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
        "+++\ntitle = \"A\"\norder = 1\nminutes = 5\nxp = 10\nsummary = \"s\"\ntags = []\n+++\n\n```sim warp-drive\n```\n",
    )
    .unwrap();
    let out = lessons(&["check", &dir.path().display().to_string()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("01-a.md:10: simulation: unknown simulation `warp-drive`"), "{stdout}");
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
