//! A graded exercise as a folder of its course, which an instructor writes without Rust:
//!
//! ```text
//! lessons/<course>/exercises/<id>/
//!   exercise.toml      what the exercise is: its title, the runs its grade makes, its checks
//!                      in report order (each with the lesson heading that teaches it and its
//!                      words in each language), and its wrong answers with what each must fail
//!   solution.py        the reference solution: every check passes
//!   wrong/<name>.diff  a wrong answer, as a unified diff of solution.py (`diff -u`): a small
//!                      change that shows its mistake, not a copy of the whole script
//! ```
//!
//! The starting script stays where learners read it: the lesson's code fence with
//! `exercise="<id>"`. This crate reads a folder and checks it without running anything
//! ([`read`]): every problem is a [`Problem`] with its file and line, as `lessons check` prints
//! them. `lessons/README.md`, "Writing a graded exercise", is the format's guide.

use std::collections::BTreeMap;
use std::path::Path;

use grading_protocol::{CheckId, RunRole};
use lockstep_lang::Text;
use lockstep_routes::Lang;
use serde::Deserialize;
use toml::Spanned;

/// The declaration's file name in an exercise's folder.
pub const DECLARATION: &str = "exercise.toml";
/// The reference solution's.
pub const SOLUTION: &str = "solution.py";
/// The folder of the wrong answers.
pub const WRONG: &str = "wrong";

/// One problem of an exercise's folder: `file:line: message`, the file relative to the folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// What an exercise's folder is checked against: its course.
pub struct Course<'a> {
    /// The course's languages, its own first: every title and question is given in each.
    pub languages: &'a [Lang],
    /// Whether lesson `slug` of the course has the heading `id` (in the course's own language).
    pub has_heading: &'a dyn Fn(&str, &str) -> bool,
}

/// An exercise, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Exercise {
    pub id: String,
    pub title: Text,
    /// The runs its grade makes, in order.
    pub runs: Vec<RunRole>,
    /// `torchrun --max-restarts` for its runs; none: torchrun's default (no restart).
    pub max_restarts: Option<u32>,
    /// Its checks, in the order its verdict lists them.
    pub checks: Vec<Check>,
    pub solution: String,
    pub wrong: Vec<Wrong>,
}

/// A check of an exercise, and the lesson section that teaches what it asks.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub id: CheckId,
    pub lesson: String,
    pub heading: String,
    /// Its name for learners: "Only rank 0 logs".
    pub title: Text,
    /// What it asks of a script, in a sentence, for the exercise's page.
    pub asks: Text,
}

/// A wrong answer: the solution with its patch applied, and what grading it must give.
#[derive(Debug, Clone, PartialEq)]
pub struct Wrong {
    /// Its name, that of its patch (`wrong/<name>.diff`): the script is graded as `<name>.py`.
    pub name: String,
    pub script: String,
    pub expect: Expect,
    /// The speedup it is graded against, where the default one would judge it too closely.
    pub min_speedup: Option<f64>,
}

/// What grading a wrong answer must give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// A `fail` verdict failing exactly these checks and passing the others (a check that
    /// waits for one of them may be skipped).
    Fails(Vec<CheckId>),
    /// An `error` verdict: nothing could be graded (a syntax error, a backend the machine has
    /// not).
    Error,
}

/// `exercise.toml` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Declaration {
    id: Spanned<String>,
    title: Words,
    grade: Grade,
    #[serde(rename = "check")]
    checks: Vec<CheckDeclaration>,
    #[serde(default, rename = "wrong")]
    wrong: Vec<WrongDeclaration>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Grade {
    runs: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    max_restarts: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckDeclaration {
    id: Spanned<String>,
    lesson: Spanned<String>,
    heading: Spanned<String>,
    title: Words,
    asks: Words,
}

/// Words by language code: `title.en = "…"`, `title.ko = "…"`.
type Words = BTreeMap<String, Spanned<String>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WrongDeclaration {
    name: Spanned<String>,
    #[serde(default)]
    fails: Vec<Spanned<String>>,
    #[serde(default)]
    verdict: Option<Spanned<String>>,
    #[serde(default)]
    min_speedup: Option<Spanned<f64>>,
}

/// Reads the exercise in `dir` and checks it against `course`: the declaration's schema, its
/// id (the folder's name), each check (a built-in check, once, taught by a heading the lesson
/// has, its words in every language of the course), the solution, and each wrong answer (its
/// patch applies to the solution, and it names checks of this exercise). Every problem found,
/// or the exercise.
pub fn read(dir: &Path, course: &Course<'_>) -> Result<Exercise, Vec<Problem>> {
    let text = std::fs::read_to_string(dir.join(DECLARATION))
        .map_err(|e| vec![problem(DECLARATION, 1, format!("cannot read it: {e}"))])?;
    let mut r = Report { lines: Lines::new(&text), problems: Vec::new() };
    let declaration: Declaration = toml::from_str(&text).map_err(|e| {
        let line = e.span().map_or(1, |s| r.lines.of(s.start));
        vec![problem(DECLARATION, line, e.message().to_string())]
    })?;

    let id = declaration.id.get_ref().clone();
    let folder = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if id != folder {
        r.at(&declaration.id, format!("id: `{id}` is not the folder's name, `{folder}`"));
    }
    if !lockstep_routes::is_exercise_id(&id) {
        r.at(&declaration.id, format!("id: `{id}` is not lowercase letters, digits and `-`"));
    }
    let title = r.words("title", &declaration.title, &declaration.id, course);
    let runs = r.runs(&declaration.grade.runs);
    let checks = r.checks(&declaration.checks, course);
    if checks.is_empty() {
        r.at(&declaration.id, "no check: declare each with `[[check]]`".into());
    }
    let solution = std::fs::read_to_string(dir.join(SOLUTION)).unwrap_or_else(|e| {
        r.problems.push(problem(SOLUTION, 1, format!("cannot read the reference solution: {e}")));
        String::new()
    });
    let wrong =
        declaration.wrong.iter().filter_map(|w| r.wrong(w, dir, &solution, &checks)).collect();
    if !r.problems.is_empty() {
        return Err(r.problems);
    }
    Ok(Exercise {
        id,
        title,
        runs,
        max_restarts: declaration.grade.max_restarts,
        checks,
        solution,
        wrong,
    })
}

/// The script `name` of the exercise in `dir`: its reference solution (`solution.py`), or a wrong
/// answer (`<name>.py`: its patch, `wrong/<name>.diff`, applied to the solution). What the
/// grader is handed to prove the exercise, without the rest of the folder being checked.
pub fn script(dir: &Path, name: &str) -> Result<String, String> {
    let read = |file: &str| {
        std::fs::read_to_string(dir.join(file))
            .map_err(|e| format!("{}: {e}", dir.join(file).display()))
    };
    let solution = read(SOLUTION)?;
    if name == SOLUTION {
        return Ok(solution);
    }
    let wrong = name.strip_suffix(".py").unwrap_or(name);
    let file = format!("{WRONG}/{wrong}.diff");
    let patch = read(&file)?;
    patched(&solution, &patch).map_err(|e| format!("{file} does not apply to {SOLUTION}: {e}"))
}

/// `solution` with the unified diff `patch` applied.
fn patched(solution: &str, patch: &str) -> Result<String, String> {
    let patch = diffy::Patch::from_str(patch).map_err(|e| e.to_string())?;
    diffy::apply(solution, &patch).map_err(|e| e.to_string())
}

/// [`script`], written as `out/<name>` (the grader names the script by its file). Written whole
/// or not at all (a temporary file renamed), so that a grader reading the same script written
/// again by another thread never reads half of it.
pub fn write_script(dir: &Path, name: &str, out: &Path) -> Result<std::path::PathBuf, String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let text = script(dir, name)?;
    let file = name.strip_suffix(".py").map_or_else(|| format!("{name}.py"), |_| name.to_string());
    let path = out.join(&file);
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let partial = out.join(format!(".{file}.{}.{n}", std::process::id()));
    std::fs::create_dir_all(out)
        .and_then(|()| std::fs::write(&partial, text))
        .and_then(|()| std::fs::rename(&partial, &path))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

fn problem(file: &str, line: usize, message: String) -> Problem {
    Problem { file: file.to_string(), line: line.max(1), message }
}

/// The problems of one declaration, each at the line of the value it is about.
struct Report {
    lines: Lines,
    problems: Vec<Problem>,
}

impl Report {
    fn at<T>(&mut self, value: &Spanned<T>, message: String) {
        let line = self.lines.of(value.span().start);
        self.problems.push(problem(DECLARATION, line, message));
    }

    fn runs(&mut self, runs: &Spanned<Vec<Spanned<String>>>) -> Vec<RunRole> {
        let mut roles = Vec::new();
        for run in runs.get_ref() {
            match RunRole::named(run.get_ref()) {
                Some(role) => roles.push(role),
                None => {
                    let names: Vec<&str> = RunRole::ALL.iter().map(|r| r.as_str()).collect();
                    let message = format!(
                        "grade.runs: `{}` is not a run (the runs: {})",
                        run.get_ref(),
                        names.join(", ")
                    );
                    self.at(run, message);
                }
            }
        }
        if runs.get_ref().is_empty() {
            self.at(runs, "grade.runs: name the runs its grade makes".into());
        }
        roles
    }

    fn checks(&mut self, declared: &[CheckDeclaration], course: &Course<'_>) -> Vec<Check> {
        let mut checks: Vec<Check> = Vec::new();
        for c in declared {
            let Ok(id) = c.id.get_ref().parse::<CheckId>() else {
                let known: Vec<&str> = CheckId::ALL.iter().map(|c| c.as_str()).collect();
                let message = format!(
                    "check: `{}` is not a built-in check (they are: {})",
                    c.id.get_ref(),
                    known.join(", ")
                );
                self.at(&c.id, message);
                continue;
            };
            if checks.iter().any(|other| other.id == id) {
                self.at(&c.id, format!("check: `{id}` is declared twice"));
            }
            let (lesson, heading) = (c.lesson.get_ref(), c.heading.get_ref());
            if !(course.has_heading)(lesson, heading) {
                let message = format!("check `{id}`: lesson `{lesson}` has no heading `{heading}`");
                self.at(&c.heading, message);
            }
            let title = self.words(&format!("check `{id}`: title"), &c.title, &c.id, course);
            let asks = self.words(&format!("check `{id}`: asks"), &c.asks, &c.id, course);
            let (lesson, heading) = (lesson.clone(), heading.clone());
            checks.push(Check { id, lesson, heading, title, asks });
        }
        checks
    }

    /// Words given per language code (`title.en`, `title.ko`): one for each of the course's
    /// languages and no other, in the course's order (its own language first). A language
    /// missing is reported at the first words given, or at `owner` (the id they belong to).
    fn words<T>(
        &mut self,
        what: &str,
        given: &Words,
        owner: &Spanned<T>,
        course: &Course<'_>,
    ) -> Text {
        let langs: Vec<&str> = course.languages.iter().map(|l| l.code()).collect();
        for (code, text) in given {
            if !langs.contains(&code.as_str()) {
                let message = format!(
                    "{what}: `{code}` is not a language of the course ({})",
                    langs.join(", ")
                );
                self.at(text, message);
            }
        }
        let mut texts = Vec::new();
        for lang in course.languages {
            match given.get(lang.code()).filter(|t| !t.get_ref().trim().is_empty()) {
                Some(text) => texts.push((*lang, text.get_ref().clone())),
                None => {
                    let message = format!(
                        "{what}: no `{}` words (give them in each of the course's languages)",
                        lang.code()
                    );
                    let line = given.values().next().map_or(owner.span(), |t| t.span());
                    self.problems.push(problem(DECLARATION, self.lines.of(line.start), message));
                }
            }
        }
        texts.into_iter().collect()
    }

    /// The wrong answer `w`, its patch applied to `solution`.
    fn wrong(
        &mut self,
        w: &WrongDeclaration,
        dir: &Path,
        solution: &str,
        checks: &[Check],
    ) -> Option<Wrong> {
        let name = w.name.get_ref();
        let mut fails = Vec::new();
        for f in &w.fails {
            match checks.iter().find(|c| c.id.as_str() == f.get_ref()) {
                Some(c) => fails.push(c.id),
                None => {
                    let what = f.get_ref();
                    self.at(
                        f,
                        format!("wrong answer `{name}`: `{what}` is not a check of this exercise"),
                    );
                }
            }
        }
        let expect = match &w.verdict {
            Some(v) if v.get_ref() == "error" && w.fails.is_empty() => Expect::Error,
            Some(v) => {
                let message = format!(
                    "wrong answer `{name}`: verdict = `{}`: only `error` may be named, and then \
                     no `fails` (a wrong answer that fails checks names them in `fails`)",
                    v.get_ref()
                );
                self.at(v, message);
                return None;
            }
            None if w.fails.is_empty() => {
                let message = format!(
                    "wrong answer `{name}`: name the checks it fails (`fails = [\"…\"]`), or \
                     `verdict = \"error\"`"
                );
                self.at(&w.name, message);
                return None;
            }
            None => Expect::Fails(fails),
        };
        let file = format!("{WRONG}/{name}.diff");
        let patch = match std::fs::read_to_string(dir.join(&file)) {
            Ok(patch) => patch,
            Err(e) => {
                self.at(&w.name, format!("wrong answer `{name}`: cannot read {file}: {e}"));
                return None;
            }
        };
        let script = patched(solution, &patch).and_then(|s| {
            let changed = s != solution;
            changed
                .then_some(s)
                .ok_or_else(|| "it changes nothing (is it a `diff -u`?)".to_string())
        });
        match script {
            Ok(script) => {
                let min_speedup = w.min_speedup.as_ref().map(|m| *m.get_ref());
                Some(Wrong { name: name.clone(), script, expect, min_speedup })
            }
            Err(e) => {
                let message = format!(
                    "wrong answer `{name}`: {file} does not apply to {SOLUTION}: {e} (make it \
                     again: `diff -u {SOLUTION} {name}.py > {file}`)"
                );
                self.at(&w.name, message);
                None
            }
        }
    }
}

/// Line numbers of byte offsets in a text.
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Lines {
        Lines(text.match_indices('\n').map(|(i, _)| i).collect())
    }

    /// The 1-based line of `offset`.
    fn of(&self, offset: usize) -> usize {
        self.0.partition_point(|&nl| nl < offset) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLUTION_PY: &str = "import torch\nprint('trained')\nprint('saved')\n";

    const DECLARED: &str = r#"id = "tiny"
title.en = "Tiny"
title.ko = "작은 실습"

[grade]
runs = ["ddp"]

[[check]]
id = "launched"
lesson = "torchrun"
heading = "initializing-the-process-group"
title = { en = "Launched", ko = "실행됨" }
asks = { en = "It starts.", ko = "시작합니다." }

[[wrong]]
name = "quiet"
fails = ["launched"]
"#;

    const QUIET: &str = "--- solution.py\n+++ solution.py\n@@ -1,3 +1,3 @@\n import torch\n-print('trained')\n+print('nothing')\n print('saved')\n";

    /// An exercise folder `tiny` with these files.
    fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("tiny");
        std::fs::create_dir_all(dir.join(WRONG)).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        root
    }

    fn read_tiny(root: &tempfile::TempDir) -> Result<Exercise, Vec<Problem>> {
        let has = |lesson: &str, heading: &str| {
            (lesson, heading) == ("torchrun", "initializing-the-process-group")
        };
        let course = Course { languages: &[Lang::En, Lang::Ko], has_heading: &has };
        read(&root.path().join("tiny"), &course)
    }

    /// The problems of the folder whose declaration is `DECLARED` with `from` replaced by `to`,
    /// as `line: message`.
    fn problems_with(from: &str, to: &str) -> Vec<String> {
        assert!(DECLARED.contains(from), "{from}");
        let declared = DECLARED.replacen(from, to, 1);
        let root = folder(&[
            (DECLARATION, &declared),
            (SOLUTION, SOLUTION_PY),
            ("wrong/quiet.diff", QUIET),
        ]);
        let problems = read_tiny(&root).expect_err("a problem");
        problems
            .into_iter()
            .map(|p| {
                assert_eq!(p.file, DECLARATION);
                format!("{}: {}", p.line, p.message)
            })
            .collect()
    }

    #[test]
    fn a_folder_is_its_declaration_solution_and_patched_wrong_answers() {
        let root = folder(&[
            (DECLARATION, DECLARED),
            (SOLUTION, SOLUTION_PY),
            ("wrong/quiet.diff", QUIET),
        ]);
        let e = read_tiny(&root).unwrap();
        assert_eq!((e.id.as_str(), e.title.get(Lang::Ko)), ("tiny", "작은 실습"));
        assert_eq!(e.runs, [RunRole::Ddp]);
        assert_eq!(e.checks[0].id, CheckId::Launched);
        assert_eq!(e.checks[0].asks.get(Lang::En), "It starts.");
        assert_eq!(e.wrong[0].script, "import torch\nprint('nothing')\nprint('saved')\n");
        assert_eq!(e.wrong[0].expect, Expect::Fails(vec![CheckId::Launched]));
    }

    #[test]
    fn each_problem_names_its_line() {
        for (from, to, expected) in [
            ("id = \"tiny\"", "id = \"other\"", "1: id: `other` is not the folder's name, `tiny`"),
            ("title.ko = \"작은 실습\"\n", "", "2: title: no `ko` words (give them in each of the course's languages)"),
            ("title.ko", "title.fr", "3: title: `fr` is not a language of the course (en, ko)"),
            ("runs = [\"ddp\"]", "runs = [\"ddp\", \"twice\"]", "6: grade.runs: `twice` is not a run (the runs: ddp, single, uninterrupted, interrupted)"),
            ("id = \"launched\"", "id = \"launched_twice\"", "9: check: `launched_twice` is not a built-in check (they are: "),
            ("heading = \"initializing-the-process-group\"", "heading = \"nowhere\"", "11: check `launched`: lesson `torchrun` has no heading `nowhere`"),
            ("asks = { en = \"It starts.\", ko = \"시작합니다.\" }", "asks = { en = \"It starts.\" }", "13: check `launched`: asks: no `ko` words"),
            ("fails = [\"launched\"]", "fails = [\"speedup\"]", "17: wrong answer `quiet`: `speedup` is not a check of this exercise"),
            ("fails = [\"launched\"]", "", "16: wrong answer `quiet`: name the checks it fails"),
            ("name = \"quiet\"", "name = \"loud\"", "16: wrong answer `loud`: cannot read wrong/loud.diff"),
            ("fails = [\"launched\"]", "fails = [\"launched\"]\nverdict = \"pass\"", "18: wrong answer `quiet`: verdict = `pass`: only `error` may be named"),
            ("[grade]", "[grades]", "5: unknown field `grades`"),
        ] {
            let problems = problems_with(from, to);
            assert!(
                problems.iter().any(|p| p.starts_with(expected)),
                "{from} → {to}: {problems:?}"
            );
        }
    }

    #[test]
    fn a_script_is_the_solution_or_a_wrong_answer_written_out() {
        let root = folder(&[(SOLUTION, SOLUTION_PY), ("wrong/quiet.diff", QUIET)]);
        let dir = root.path().join("tiny");
        assert_eq!(script(&dir, SOLUTION).unwrap(), SOLUTION_PY);
        let out = root.path().join("out");
        let written = write_script(&dir, "quiet.py", &out).unwrap();
        assert_eq!(written, out.join("quiet.py"));
        assert!(std::fs::read_to_string(written).unwrap().contains("print('nothing')"));
        assert!(script(&dir, "loud.py").unwrap_err().contains("wrong/loud.diff"));
    }

    /// What `diff -u solution.py mistake.py` writes: the other file's name, and times.
    #[test]
    fn a_patch_as_diff_writes_it_applies() {
        let patch = QUIET
            .replace("--- solution.py\n", "--- solution.py\t2026-11-29 15:02:33.257439591 +0000\n")
            .replace("+++ solution.py\n", "+++ mistake.py\t2026-11-29 15:02:34.000000000 +0000\n");
        let root = folder(&[
            (DECLARATION, DECLARED),
            (SOLUTION, SOLUTION_PY),
            ("wrong/quiet.diff", &patch),
        ]);
        let e = read_tiny(&root).unwrap();
        assert_eq!(e.wrong[0].script, "import torch\nprint('nothing')\nprint('saved')\n");
    }

    #[test]
    fn a_patch_that_changes_nothing_is_no_wrong_answer() {
        for patch in ["not a patch\n", ""] {
            let root = folder(&[
                (DECLARATION, DECLARED),
                (SOLUTION, SOLUTION_PY),
                ("wrong/quiet.diff", patch),
            ]);
            let problems = read_tiny(&root).unwrap_err();
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert!(problems[0].message.contains("it changes nothing"), "{problems:?}");
        }
    }

    #[test]
    fn a_patch_that_no_longer_applies_says_how_to_make_it_again() {
        let changed = SOLUTION_PY.replace("print('trained')", "print('learned')");
        let root =
            folder(&[(DECLARATION, DECLARED), (SOLUTION, &changed), ("wrong/quiet.diff", QUIET)]);
        let problems = read_tiny(&root).unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].line, 16);
        assert!(problems[0].message.contains("does not apply to solution.py"), "{problems:?}");
        assert!(problems[0].message.contains("diff -u solution.py quiet.py > wrong/quiet.diff"));
    }
}
