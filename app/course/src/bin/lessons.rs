//! `lessons check [DIR]`: validates every lesson and prints `file:line: message` per problem.
//!
//! Exit codes: 0 no problems, 1 problems found, 2 a command line it cannot read or a lessons
//! folder it cannot read.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    /// Check every lesson; print each problem as file:line: message.
    Check {
        /// The lessons folder.
        #[arg(default_value = "lessons")]
        dir: PathBuf,
    },
}

fn main() -> ExitCode {
    let Command::Check { dir } = Cli::parse().command;
    let course = match lockstep_course::load(&dir) {
        Ok(course) => course,
        Err(e) => {
            eprintln!("lessons: {e}");
            return ExitCode::from(2);
        }
    };
    let mut problems = 0;
    for d in course.diagnostics() {
        // Paths relative to the working directory, so editors can open them as printed.
        println!("{}:{}: {}", dir.join(&d.file).display(), d.line, d.message);
        problems += 1;
    }
    let warnings = course.warnings();
    for w in &warnings {
        println!("{}:{}: {}", dir.join(&w.file).display(), w.line, w.message);
    }
    let lessons = course.lessons.len();
    if problems == 0 {
        // Warnings leave the exit code alone: the lessons serve as they are.
        match warnings.len() {
            0 => eprintln!("{lessons} lessons checked, no problems"),
            n => eprintln!("{lessons} lessons checked, no problems, {n} warning(s)"),
        }
        ExitCode::SUCCESS
    } else {
        eprintln!("{lessons} lessons checked, {problems} problem(s)");
        ExitCode::FAILURE
    }
}
