use std::fmt;

/// One problem in one lesson file, printed as `file:line: message` like a compiler would, so
/// editors and terminals can jump to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file name relative to the lessons directory, e.g. `02-dataparallel.md`.
    pub file: String,
    /// 1-based line number in that file.
    pub line: usize,
    pub message: String,
}

impl Diagnostic {
    pub fn new(file: impl Into<String>, line: usize, message: impl Into<String>) -> Self {
        Self { file: file.into(), line: line.max(1), message: message.into() }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// Maps byte offsets of a text to 1-based line numbers.
pub(crate) struct LineIndex {
    /// Byte offset at which each line starts.
    starts: Vec<usize>,
    /// Line number of the first line of the text within its file.
    first_line: usize,
}

impl LineIndex {
    pub(crate) fn new(text: &str, first_line: usize) -> Self {
        let starts =
            std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Self { starts, first_line }
    }

    pub(crate) fn line_of(&self, offset: usize) -> usize {
        let idx = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        self.first_line + idx
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_of_offsets() {
        let idx = LineIndex::new("ab\ncd\n\nef", 10);
        assert_eq!(idx.line_of(0), 10);
        assert_eq!(idx.line_of(2), 10);
        assert_eq!(idx.line_of(3), 11);
        assert_eq!(idx.line_of(6), 12);
        assert_eq!(idx.line_of(7), 13);
        assert_eq!(idx.line_of(8), 13);
    }

    #[test]
    fn display_is_file_line_message() {
        let d = Diagnostic::new("02-x.md", 0, "boom");
        assert_eq!(d.to_string(), "02-x.md:1: boom");
    }
}
