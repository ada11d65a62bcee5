//! One grader per exercise of the registry (`grading_checks::exercises`): the runs it makes and
//! how their evidence becomes its checks. A test holds this table and the registry to the same
//! exercises.

mod ddp_conversion;
mod survive_a_crash;

use grading_protocol::Verdict;

use crate::grade::Job;
use crate::RunnerError;

/// Makes an exercise's runs through the job and returns its verdict.
pub type Grader = fn(&mut Job<'_>) -> Result<Verdict, RunnerError>;

const GRADERS: &[(&str, Grader)] = &[
    (grading_checks::exercises::DDP_CONVERSION.id, ddp_conversion::grade),
    (grading_checks::exercises::SURVIVE_A_CRASH.id, survive_a_crash::grade),
];

/// The grader of exercise `id`; `None` for one this runner cannot grade.
pub fn grader(id: &str) -> Option<Grader> {
    GRADERS.iter().find(|(e, _)| *e == id).map(|(_, g)| *g)
}

/// What this runner grades, with the version of each exercise's checks: a worker's claim.
pub fn gradable() -> Vec<grading_protocol::live::Gradable> {
    let registered = grading_checks::exercises::ALL.iter();
    registered
        .filter(|e| grader(e.id).is_some())
        .map(|e| grading_protocol::live::Gradable { exercise: e.id.into(), version: e.version })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_exercise_has_one_grader_and_no_other() {
        let registered: Vec<&str> = grading_checks::exercises::ALL.iter().map(|e| e.id).collect();
        let graded: Vec<&str> = GRADERS.iter().map(|(id, _)| *id).collect();
        assert_eq!(graded, registered);
        assert_eq!(gradable().len(), registered.len());
    }
}
