//! A course written in Korean first (`tests/data/korean-first/collectives`: `languages =
//! ["ko", "en"]`, its two lessons translated into English): it checks clean, each edition has
//! the lessons its readers should get, and its English edition falls back to a Korean lesson
//! not translated yet, as the Korean edition of an English course falls back to English ones.

use std::path::{Path, PathBuf};
use std::process::Command;

use lockstep_course::live::LiveCourse;
use lockstep_i18n::Lang;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/korean-first")
}

/// `lessons check DIR`: its exit code and what it printed.
fn check(dir: &Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lessons"))
        .args(["check", &dir.display().to_string()])
        .output()
        .unwrap();
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

/// A copy of the fixture that a test may change.
fn copy() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let status = Command::new("cp")
        .arg("-r")
        .arg(fixture().join("collectives"))
        .arg(root.path())
        .status()
        .unwrap();
    assert!(status.success());
    root
}

fn titles(live: &LiveCourse, lang: Lang) -> Vec<String> {
    let edition = live.edition(lang);
    edition.course.lessons.iter().map(|l| l.ready().unwrap().front.title.clone()).collect()
}

#[test]
fn a_korean_first_course_checks_clean() {
    let (code, text) = check(&fixture());
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("lessons checked, no problems"), "{text}");
}

#[test]
fn each_edition_has_its_language_and_falls_back_to_the_source() {
    let root = copy();
    std::fs::remove_file(root.path().join("collectives/en/01-ranks.md")).unwrap();
    let live = LiveCourse::open(root.path(), false, &Default::default(), |_| {}).unwrap();
    let loaded = live.loaded();
    let entry = &loaded.catalogue.courses[0];
    assert_eq!(entry.course.lang(), Lang::Ko);
    // Korean is the source: its edition is the lessons as written, nothing untranslated.
    let ko = live.edition(Lang::Ko);
    assert_eq!(ko.lang, Lang::Ko);
    assert!(ko.untranslated.is_empty());
    assert_eq!(titles(&live, Lang::Ko), ["rank와 world size", "all_reduce가 남기는 값"]);
    // English: the translated lesson in English, the other in Korean until it is translated.
    let en = live.edition(Lang::En);
    assert_eq!(titles(&live, Lang::En), ["rank와 world size", "What all_reduce leaves behind"]);
    assert_eq!(en.untranslated.iter().collect::<Vec<_>>(), ["ranks"]);
    // The course's title follows its translation; the site as written is Korean.
    assert_eq!(loaded.course_meta(entry, Lang::En).title, "Collective communication basics");
    assert_eq!(loaded.course_meta(entry, Lang::Ko).title, "collective 통신 기초");
    let written: Vec<_> =
        loaded.course.lessons.iter().map(|l| l.ready().unwrap().front.title.clone()).collect();
    assert_eq!(written, titles(&live, Lang::Ko));
    // Slugs, quizzes and XP are the source's in every edition.
    for lang in Lang::ALL {
        let edition = live.edition(lang);
        let slugs: Vec<_> = edition.course.lessons.iter().map(|l| l.slug().to_string()).collect();
        assert_eq!(slugs, ["ranks", "all-reduce"], "{lang:?}");
        let xp: Vec<_> =
            edition.course.lessons.iter().map(|l| l.ready().unwrap().front.xp).collect();
        assert_eq!(xp, [30, 40], "{lang:?}");
    }
}

#[test]
fn a_course_in_korean_only_serves_korean_in_every_edition() {
    let root = copy();
    let course = root.path().join("collectives");
    std::fs::remove_dir_all(course.join("en")).unwrap();
    let toml = std::fs::read_to_string(course.join("course.toml")).unwrap();
    let toml = toml.replace(r#"languages = ["ko", "en"]"#, r#"languages = ["ko"]"#);
    std::fs::write(course.join("course.toml"), toml).unwrap();
    let (code, text) = check(root.path());
    assert_eq!(code, Some(0), "{text}");
    let live = LiveCourse::open(root.path(), false, &Default::default(), |_| {}).unwrap();
    assert_eq!(titles(&live, Lang::En), titles(&live, Lang::Ko));
    assert_eq!(live.edition(Lang::En).untranslated.len(), 2);
    let loaded = live.loaded();
    assert_eq!(
        loaded.course_meta(&loaded.catalogue.courses[0], Lang::En).title,
        "collective 통신 기초"
    );
}

#[test]
fn the_translation_is_held_to_its_korean_source() {
    let root = copy();
    let course = root.path().join("collectives");
    // A translation that lost its quiz's right answer no longer matches its source.
    let english = course.join("en/02-all-reduce.md");
    let text = std::fs::read_to_string(&english).unwrap().replace("correct = true\n", "");
    std::fs::write(&english, text).unwrap();
    let (code, text) = check(root.path());
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("en/02-all-reduce.md"), "{text}");
    // A folder named by the course's own language is no translation of it.
    std::fs::create_dir(course.join("ko")).unwrap();
    let (_, text) = check(root.path());
    assert!(
        text.contains(
            "the course is written in `ko` (listed first), so its lessons are this folder's own"
        ),
        "{text}"
    );
}
