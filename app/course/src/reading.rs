//! How long a lesson takes: one rule for every lesson, computed from what it holds, so that the
//! minutes on the page cannot drift from its length as it is edited.

/// What a learner reads and does in a lesson.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reading {
    /// Words of prose ([`crate::prose::Prose::words`]).
    pub words: usize,
    /// Non-blank lines of code.
    pub code_lines: usize,
    pub questions: usize,
    pub simulations: usize,
}

/// Technical prose, read with care: slower than the 230–260 words a minute of light reading.
pub const WORDS_PER_MINUTE: usize = 200;
/// Code is read line by line, and most of a lesson's blocks are meant to be run.
pub const CODE_LINES_PER_MINUTE: usize = 12;
/// A question: its prompt, its options, and the explanations after answering.
pub const SECONDS_PER_QUESTION: usize = 60;
/// A simulation: a play through and a change of a parameter or two.
pub const SECONDS_PER_SIMULATION: usize = 90;

impl Reading {
    /// Whole minutes, rounded up; at least one.
    pub fn minutes(&self) -> u32 {
        const MS: usize = 1_000;
        let ms = self.words * 60 * MS / WORDS_PER_MINUTE
            + self.code_lines * 60 * MS / CODE_LINES_PER_MINUTE
            + self.questions * SECONDS_PER_QUESTION * MS
            + self.simulations * SECONDS_PER_SIMULATION * MS;
        u32::try_from(ms.div_ceil(60 * MS).max(1)).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_part_counts_by_its_own_rate() {
        let r = |words, code_lines, questions, simulations| {
            Reading { words, code_lines, questions, simulations }.minutes()
        };
        assert_eq!(r(0, 0, 0, 0), 1, "never zero minutes");
        assert_eq!(r(2_000, 0, 0, 0), 10);
        assert_eq!(r(2_001, 0, 0, 0), 11, "rounded up");
        assert_eq!(r(0, 120, 0, 0), 10);
        assert_eq!(r(0, 0, 6, 0), 6);
        assert_eq!(r(0, 0, 0, 2), 3);
        assert_eq!(r(4_000, 60, 8, 1), 20 + 5 + 8 + 2);
    }
}
