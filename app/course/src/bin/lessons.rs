//! `lessons check [DIR]`: validates every lesson and prints `file:line: message` per problem.

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: lessons check [LESSONS_DIR]   (default: ./lessons)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = match args.as_slice() {
        [cmd] if cmd == "check" => PathBuf::from("lessons"),
        [cmd, dir] if cmd == "check" => PathBuf::from(dir),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let course = match lockstep_course::load(&dir) {
        Ok(course) => course,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut problems = 0;
    for d in course.diagnostics() {
        // Paths relative to the working directory, so editors can open them as printed.
        println!("{}:{}: {}", dir.join(&d.file).display(), d.line, d.message);
        problems += 1;
    }
    let lessons = course.lessons.len();
    if problems == 0 {
        eprintln!("{lessons} lessons checked, no problems");
        ExitCode::SUCCESS
    } else {
        eprintln!("{lessons} lessons checked, {problems} problem(s)");
        ExitCode::FAILURE
    }
}
