//! `lessons check [DIR]`: validates every course under the lessons root `DIR` (each folder with
//! a `course.toml`; `DIR` itself when it has one), every lesson, and every translation in a
//! course's `ko/` against the lesson it translates, and prints `file:line: message` per problem.
//! `lessons stats [DIR]`: what each lesson holds, and the reading time computed from it.
//!
//! Exit codes: 0 no problems, 1 problems found, 2 a command line it cannot read or a lessons
//! folder it cannot read.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use lockstep_course::{Course, Diagnostic};

#[derive(Parser)]
#[command(
    name = "lessons",
    version,
    about = "Checks the course's lesson files the way the web app reads them."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check every course, every lesson, and each translation (COURSE/ko) against its source;
    /// print each problem as file:line: message.
    Check {
        /// The lessons root: a folder of courses, or one course's folder.
        #[arg(default_value = "lessons")]
        dir: PathBuf,
    },
    /// Print each lesson's words, lines of code, quiz questions and simulations, and the reading
    /// time the page shows, computed from them.
    Stats {
        /// The lessons root: a folder of courses, or one course's folder.
        #[arg(default_value = "lessons")]
        dir: PathBuf,
    },
}

fn main() -> ExitCode {
    let (dir, check) = match Cli::parse().command {
        Command::Check { dir } => (dir, true),
        Command::Stats { dir } => (dir, false),
    };
    let catalogue = match lockstep_course::load_catalogue(&dir) {
        Ok(catalogue) => catalogue,
        Err(e) => {
            eprintln!("lessons: {e}");
            return ExitCode::from(2);
        }
    };
    if check {
        check_catalogue(&catalogue)
    } else {
        for entry in &catalogue.courses {
            println!("{} ({})", entry.course.meta.title, entry.dir.display());
            stats(&entry.course);
        }
        ExitCode::SUCCESS
    }
}

fn stats(course: &Course) {
    println!(
        "{:<44} {:>6} {:>5} {:>9} {:>4} {:>7}",
        "lesson", "words", "code", "questions", "sims", "minutes"
    );
    let mut total = lockstep_course::Reading::default();
    for lesson in &course.lessons {
        let r = lesson.reading();
        println!(
            "{:<44} {:>6} {:>5} {:>9} {:>4} {:>7}",
            lesson.file(),
            r.words,
            r.code_lines,
            r.questions,
            r.simulations,
            r.minutes()
        );
        total.words += r.words;
        total.code_lines += r.code_lines;
        total.questions += r.questions;
        total.simulations += r.simulations;
    }
    let minutes: u32 = course.lessons.iter().map(|l| l.reading().minutes()).sum();
    println!(
        "{:<44} {:>6} {:>5} {:>9} {:>4} {:>7}",
        "course", total.words, total.code_lines, total.questions, total.simulations, minutes
    );
}

/// Every course, one after the other: a problem in one is counted, and the others are checked
/// all the same.
fn check_catalogue(catalogue: &lockstep_course::Catalogue) -> ExitCode {
    let mut tally = Tally::default();
    for entry in &catalogue.courses {
        if let Err(e) = check_course(&entry.dir, &entry.course, &mut tally) {
            eprintln!("lessons: {e}");
            return ExitCode::from(2);
        }
    }
    let Tally { lessons, problems, warnings } = tally;
    if problems == 0 {
        // Warnings leave the exit code alone: the lessons serve as they are.
        match warnings {
            0 => eprintln!("{lessons} lessons checked, no problems"),
            n => eprintln!("{lessons} lessons checked, no problems, {n} warning(s)"),
        }
        ExitCode::SUCCESS
    } else {
        eprintln!("{lessons} lessons checked, {problems} problem(s)");
        ExitCode::FAILURE
    }
}

#[derive(Default)]
struct Tally {
    lessons: usize,
    problems: usize,
    warnings: usize,
}

fn check_course(
    dir: &Path,
    course: &Course,
    tally: &mut Tally,
) -> Result<(), lockstep_course::CourseError> {
    let Tally { lessons, problems, warnings } = tally;
    *lessons += course.lessons.len();
    let mut print = |dir: &Path, d: &Diagnostic, problem: bool| {
        // Paths relative to the working directory, so editors can open them as printed.
        println!("{}:{}: {}", dir.join(&d.file).display(), d.line, d.message);
        if problem {
            *problems += 1;
        } else {
            *warnings += 1;
        }
    };
    course.diagnostics().for_each(|d| print(dir, d, true));
    course.warnings().iter().for_each(|w| print(dir, w, false));
    // Every language but the course's own may have its translation, in its own folder.
    for lang in lockstep_i18n::Lang::ALL.into_iter().filter(|l| *l != course.lang()) {
        let translated = lockstep_course::translation_dir(dir, lang);
        if !translated.is_dir() {
            continue;
        }
        let t = lockstep_course::load_translation(course, &translated, lang)?;
        *lessons += t.course.lessons.len();
        t.course.diagnostics().for_each(|d| print(&translated, d, true));
        t.missing.iter().for_each(|d| print(&translated, d, true));
        t.course.warnings().iter().for_each(|w| print(&translated, w, false));
        t.warnings.iter().for_each(|w| print(&translated, w, false));
    }
    Ok(())
}
