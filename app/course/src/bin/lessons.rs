//! `lessons check [DIR]`: validates every lesson, and every translation in `DIR/ko` against the
//! lesson it translates, and prints `file:line: message` per problem.
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
    /// Check every lesson, and each translation (DIR/ko) against its source; print each problem
    /// as file:line: message.
    Check {
        /// The lessons folder.
        #[arg(default_value = "lessons")]
        dir: PathBuf,
    },
    /// Print each lesson's words, lines of code, quiz questions and simulations, and the reading
    /// time the page shows, computed from them.
    Stats {
        /// The lessons folder.
        #[arg(default_value = "lessons")]
        dir: PathBuf,
    },
}

fn main() -> ExitCode {
    let (dir, check) = match Cli::parse().command {
        Command::Check { dir } => (dir, true),
        Command::Stats { dir } => (dir, false),
    };
    let course = match lockstep_course::load(&dir) {
        Ok(course) => course,
        Err(e) => {
            eprintln!("lessons: {e}");
            return ExitCode::from(2);
        }
    };
    if check {
        check_course(&dir, &course)
    } else {
        stats(&course);
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

fn check_course(dir: &Path, course: &Course) -> ExitCode {
    let mut problems = 0;
    let mut warnings = 0;
    let mut lessons = course.lessons.len();
    let mut print = |dir: &Path, d: &Diagnostic, problem: bool| {
        // Paths relative to the working directory, so editors can open them as printed.
        println!("{}:{}: {}", dir.join(&d.file).display(), d.line, d.message);
        if problem {
            problems += 1;
        } else {
            warnings += 1;
        }
    };
    course.diagnostics().for_each(|d| print(dir, d, true));
    course.warnings().iter().for_each(|w| print(dir, w, false));
    // Every language but the course's own may have its translation, in its own folder.
    for lang in lockstep_i18n::Lang::ALL.into_iter().filter(|l| *l != lockstep_i18n::Lang::En) {
        let translated = lockstep_course::translation_dir(dir, lang);
        if !translated.is_dir() {
            continue;
        }
        match lockstep_course::load_translation(course, &translated, lang) {
            Ok(t) => {
                lessons += t.course.lessons.len();
                t.course.diagnostics().for_each(|d| print(&translated, d, true));
                t.missing.iter().for_each(|d| print(&translated, d, true));
                t.course.warnings().iter().for_each(|w| print(&translated, w, false));
                t.warnings.iter().for_each(|w| print(&translated, w, false));
            }
            Err(e) => {
                eprintln!("lessons: {e}");
                return ExitCode::from(2);
            }
        }
    }
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
