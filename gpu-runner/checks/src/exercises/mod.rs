//! The exercise registry: every graded exercise declared once, with the id lessons give it
//! (`exercise="ID"`), the version of its checks, the runs its grade makes, and its checks in
//! report order, each with the lesson section that teaches it. The runner grades by it (and
//! has one grader per entry), workers claim by it (an exercise at the version they grade),
//! `lessons check` holds the course against it, and the web app lists an exercise's checks and
//! links their sections from it.
//!
//! A new exercise is a new file here, named as its id, added to [`ALL`]; see ARCHITECTURE.md
//! for the rest (its runs in the runner, its checks, its reference solution, its lesson).

mod ddp_conversion;
mod survive_a_crash;

use grading_protocol::{CheckId, RunRole, Section};

pub use ddp_conversion::DDP_CONVERSION;
pub use survive_a_crash::SURVIVE_A_CRASH;

/// One graded exercise.
#[derive(Debug, PartialEq, Eq)]
pub struct Exercise {
    pub id: &'static str,
    /// Raised whenever a check is added or removed or asks something else: a worker grades
    /// an exercise only at the version the server has, so a worker from before the change is
    /// never handed a submission it would judge by the old rules.
    pub version: u32,
    /// The roles of the runs its grade makes, in the order it makes them.
    pub runs: &'static [RunRole],
    /// Its checks in the order its verdict lists them, each with where it is taught.
    pub checks: &'static [Taught],
}

/// A check, and the lesson section (slug, heading id) that teaches what it asks.
#[derive(Debug, PartialEq, Eq)]
pub struct Taught {
    pub check: CheckId,
    pub lesson: &'static str,
    pub heading: &'static str,
}

/// Every exercise there is.
pub const ALL: &[&Exercise] = &[&DDP_CONVERSION, &SURVIVE_A_CRASH];

/// The exercise with this id; `None` for one nobody grades.
pub fn find(id: &str) -> Option<&'static Exercise> {
    ALL.iter().copied().find(|e| e.id == id)
}

impl Exercise {
    /// The ids of its checks, in report order.
    pub fn check_ids(&self) -> impl Iterator<Item = CheckId> + '_ {
        self.checks.iter().map(|t| t.check)
    }
}

/// The section that teaches `id`. Every check belongs to exactly one exercise (a test says so).
pub fn section(id: CheckId) -> Section {
    ALL.iter()
        .flat_map(|e| e.checks)
        .find(|t| t.check == id)
        .map(|t| Section::new(t.lesson, t.heading))
        .expect("every check is declared by an exercise")
}

/// The ids as a sentence for messages: "ddp-conversion, survive-a-crash".
pub fn known() -> String {
    ALL.iter().map(|e| e.id).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_belongs_to_exactly_one_exercise() {
        let declared: Vec<CheckId> = ALL.iter().flat_map(|e| e.check_ids()).collect();
        let mut sorted = declared.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), declared.len(), "a check declared twice: {declared:?}");
        let mut all = CheckId::ALL.to_vec();
        all.sort();
        assert_eq!(sorted, all, "a check no exercise declares");
        for &id in CheckId::ALL {
            section(id);
        }
    }

    #[test]
    fn ids_are_unique_and_fit_urls() {
        for (i, e) in ALL.iter().enumerate() {
            assert!(lockstep_routes::is_exercise_id(e.id), "{}", e.id);
            assert!(ALL[..i].iter().all(|o| o.id != e.id), "{} twice", e.id);
            assert!(e.version >= 1 && !e.runs.is_empty() && !e.checks.is_empty(), "{}", e.id);
            assert_eq!(find(e.id), Some(*e));
        }
        assert_eq!(find("no-such-exercise"), None);
    }
}
