//! The course's terms in each language (`terms.toml` beside `course.toml`): the words learners
//! type for what the lessons name in English. Korean lessons write `checkpoint`, `bucket`,
//! `rank`; a Korean learner searches for 체크포인트, 버킷, 랭크. Search takes any word of a term
//! for all of them.
//!
//! ```toml
//! [[term]]
//! en = ["checkpoint"]
//! ko = ["체크포인트", "체크 포인트"]
//! ```
//!
//! `lessons check` holds the list against the lessons: a term none of whose words any lesson
//! uses is not the course's term (a typo, or a lesson that changed its words).

use std::collections::BTreeMap;

use lockstep_i18n::Lang;
use serde::Deserialize;

use crate::diagnostic::{Diagnostic, LineIndex};

/// The terms file beside `course.toml`.
pub const TERMS_FILE: &str = "terms.toml";

/// One term: its words in each language, as written (search compares them normalized).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Term {
    pub words: BTreeMap<Lang, Vec<String>>,
    /// Its `[[term]]` line in the file.
    pub line: usize,
}

impl Term {
    /// Every word of the term, in every language.
    pub fn all_words(&self) -> impl Iterator<Item = &str> {
        self.words.values().flatten().map(String::as_str)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    term: Vec<BTreeMap<String, Vec<String>>>,
}

/// The terms of `text` (the file's contents; `None` when the course has no such file), checked
/// against `lessons`, the lessons' texts: what it declares and its problems, as `file:line`.
pub fn parse(text: Option<&str>, lessons: &[&str]) -> (Vec<Term>, Vec<Diagnostic>) {
    let Some(text) = text else { return (Vec::new(), Vec::new()) };
    let file = match toml::from_str::<File>(text) {
        Ok(file) => file,
        Err(e) => {
            let line = e.span().map_or(1, |s| LineIndex::new(text, 1).line_of(s.start));
            return (Vec::new(), vec![Diagnostic::new(TERMS_FILE, line, e.message().to_string())]);
        }
    };
    let lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == "[[term]]")
        .map(|(i, _)| i + 1)
        .collect();
    let lower: Vec<String> = lessons.iter().map(|t| t.to_lowercase()).collect();
    let mut problems = Vec::new();
    let mut terms = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, raw) in file.term.into_iter().enumerate() {
        let line = lines.get(i).copied().unwrap_or(1);
        let mut problem = |m: String| problems.push(Diagnostic::new(TERMS_FILE, line, m));
        let mut words = BTreeMap::new();
        for (code, list) in raw {
            let Some(lang) = Lang::from_code(&code) else {
                let known = Lang::ALL.map(Lang::code).join(", ");
                problem(format!(
                    "term: `{code}` is not a language Lockstep has words for ({known})"
                ));
                continue;
            };
            let list: Vec<String> = list.iter().map(|w| w.trim().to_string()).collect();
            if list.iter().any(String::is_empty) {
                problem(format!("term: an empty word in `{code}`"));
            }
            words.insert(lang, list.into_iter().filter(|w| !w.is_empty()).collect::<Vec<_>>());
        }
        if words.values().filter(|w| !w.is_empty()).count() < 2 {
            problem("term: give its words in at least two languages (e.g. `en` and `ko`)".into());
        }
        let term = Term { words, line };
        for word in term.all_words() {
            let key = word.to_lowercase();
            if let Some(first) = seen.insert(key, line) {
                problem(format!("term: `{word}` is already a word of the term on line {first}"));
            }
        }
        let used = term.all_words().any(|w| {
            let w = w.to_lowercase();
            lower.iter().any(|t| t.contains(&w))
        });
        if !used {
            let words: Vec<&str> = term.all_words().collect();
            problem(format!(
                "term: no lesson uses any of its words ({}): a term of the course is one its \
                 lessons use",
                words.join(", ")
            ));
        }
        terms.push(term);
    }
    (terms, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_read_and_held_against_the_lessons() {
        let text = "# comment\n[[term]]\nen = [\"checkpoint\"]\nko = [\"체크포인트\"]\n\n\
                    [[term]]\nen = [\"zeppelin\"]\nko = [\"체펠린\"]\n\n\
                    [[term]]\nen = [\"Checkpoint\"]\nfr = [\"point\"]\n\n[[term]]\nen = [\"rank\"]\n";
        let (terms, problems) = parse(Some(text), &["Save a Checkpoint each epoch on rank 0."]);
        assert_eq!(terms.len(), 4);
        assert_eq!(terms[0].words[&Lang::Ko], ["체크포인트"]);
        let said: Vec<String> = problems.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            said,
            [
                "terms.toml:6: term: no lesson uses any of its words (zeppelin, 체펠린): a term \
                 of the course is one its lessons use",
                "terms.toml:10: term: `fr` is not a language Lockstep has words for (en, ko, ja)",
                "terms.toml:10: term: give its words in at least two languages (e.g. `en` and \
                 `ko`)",
                "terms.toml:10: term: `Checkpoint` is already a word of the term on line 2",
                "terms.toml:14: term: give its words in at least two languages (e.g. `en` and \
                 `ko`)",
            ]
        );
        let (_, broken) = parse(Some("[[term]]\nen = \"checkpoint\"\n"), &[]);
        assert_eq!(broken[0].line, 2, "{broken:?}");
        assert_eq!(parse(None, &[]), (Vec::new(), Vec::new()));
    }
}
