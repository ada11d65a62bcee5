//! References from one lesson to another in words ("lesson 6", "as lesson 8 says, "…""),
//! checked against the course where they can be: the number names a lesson, a link that reads
//! "lesson N" goes to lesson N, and a phrase quoted from a lesson is in it. A link's heading
//! is checked with the other links ([`crate::load`]).

use std::collections::BTreeMap;

use crate::prose::{words, Prose, Sentence};

/// A lesson as the references see it.
pub struct Cited<'a> {
    pub file: &'a str,
    /// Its prose and code, [`normalized`].
    pub text: String,
}

/// The lessons of the course by their number (front matter `order`).
pub type Lessons<'a> = BTreeMap<u32, Cited<'a>>;

/// Text as quotes are compared: lower case, one space between words, typographic quotes and
/// apostrophes as ASCII, markup quotes (backticks) gone.
pub fn normalized(text: &str) -> String {
    let mapped: String = text
        .chars()
        .filter(|c| *c != '`')
        .map(|c| match c {
            '“' | '”' => '"',
            '‘' | '’' => '\'',
            c => c,
        })
        .collect();
    mapped.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// Searchable text of a lesson's prose and code.
pub fn searchable(prose: &Prose) -> String {
    let mut all: Vec<&str> = prose.sentences.iter().map(|s| s.text.as_str()).collect();
    all.push(&prose.code);
    normalized(&all.join(" "))
}

/// Quoted phrases shorter than this are words in quotes, not a citation.
const QUOTE_MIN_WORDS: usize = 3;

/// Problems with `prose`'s references, as (line, message).
pub fn check(prose: &Prose, this: u32, lessons: &Lessons<'_>) -> Vec<(usize, String)> {
    let order_of = |file: &str| lessons.iter().find(|(_, l)| l.file == file).map(|(n, _)| *n);
    let mut problems = Vec::new();
    for sentence in &prose.sentences {
        let mut cited: Vec<u32> = Vec::new();
        for n in mentions(&sentence.text) {
            if !lessons.contains_key(&n) {
                problems
                    .push((sentence.line, format!("`lesson {n}`: the course has no lesson {n}")));
            }
            cited.push(n);
        }
        for link in &sentence.links {
            let Some(to) = order_of(&link.file) else { continue };
            for n in mentions(&link.text) {
                if n != to {
                    problems.push((
                        sentence.line,
                        format!(
                            "the link `{}` goes to {}, which is lesson {to}, not lesson {n}",
                            link.text, link.file
                        ),
                    ));
                }
            }
            cited.push(to);
        }
        cited.sort_unstable();
        cited.dedup();
        // A quote is checked only where the sentence names one lesson, other than this one.
        let [n] = cited[..] else { continue };
        let Some(lesson) = lessons.get(&n).filter(|_| n != this) else { continue };
        for quote in quotes(sentence) {
            if !lesson.text.contains(&normalized(quote)) {
                problems.push((
                    sentence.line,
                    format!(
                        "this sentence quotes \"{quote}\" from lesson {n}, which {} does not say",
                        lesson.file
                    ),
                ));
            }
        }
    }
    problems
}

/// The lesson numbers `text` names: `lesson 6`, `Lesson 6's`, `lessons 2 to 9` (both ends),
/// `lessons 7–10`; in Korean `레슨 6`, `레슨 6에서` (a particle follows the number), `레슨 2와 3`,
/// `레슨 3부터 9까지`.
fn mentions(text: &str) -> Vec<u32> {
    let lower = text.to_lowercase();
    let mut out = Vec::new();
    for (word, joints, particles) in [
        ("lesson", &[" to ", "–", "-", " and "][..], false),
        ("레슨", &["와 ", "과 ", "부터 ", "–", "-", "~"][..], true),
    ] {
        let mut rest = lower.as_str();
        while let Some(at) = rest.find(word) {
            let after = &rest[at + word.len()..];
            let after = if particles { after } else { after.strip_prefix('s').unwrap_or(after) };
            let word_start = at == 0 || !rest[..at].ends_with(char::is_alphanumeric);
            rest = after;
            let Some(after) = after.strip_prefix(' ') else { continue };
            let (first, tail) = number(after, particles);
            let Some(first) = first.filter(|_| word_start) else { continue };
            out.push(first);
            for joint in joints {
                if let Some((Some(last), _)) =
                    tail.strip_prefix(joint).map(|t| number(t, particles))
                {
                    out.push(last);
                }
            }
        }
    }
    out
}

/// The number `s` starts with, and what follows it. `particles`: Korean, where a particle may
/// follow a number directly (`6에서`); a Latin letter or digit never may (`6a` is no number).
fn number(s: &str, particles: bool) -> (Option<u32>, &str) {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let next = s[end..].chars().next();
    let whole = match next {
        None => true,
        Some(c) if particles && ('가'..='힣').contains(&c) => true,
        Some(c) => !c.is_alphanumeric(),
    };
    (s[..end].parse().ok().filter(|_| whole), &s[end..])
}

/// The phrases of `sentence` in double quotes, long enough to be a citation.
fn quotes(sentence: &Sentence) -> Vec<&str> {
    let text = sentence.text.as_str();
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    for (i, c) in text.char_indices() {
        match (c, open) {
            ('"' | '“', None) => open = Some(i + c.len_utf8()),
            ('"' | '”', Some(start)) => {
                let quote = text[start..i].trim_matches(|c: char| c.is_ascii_punctuation());
                if words(quote) >= QUOTE_MIN_WORDS {
                    out.push(quote);
                }
                open = None;
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prose::read;

    fn course<'a>(lessons: &[(u32, &'a str, &str)]) -> Lessons<'a> {
        lessons
            .iter()
            .map(|(n, file, md)| (*n, Cited { file, text: searchable(&read(md, 1)) }))
            .collect()
    }

    fn problems(md: &str, lessons: &Lessons<'_>) -> Vec<String> {
        check(&read(md, 1), 9, lessons).into_iter().map(|(l, m)| format!("{l}: {m}")).collect()
    }

    #[test]
    fn lesson_numbers_are_read_as_a_reader_reads_them() {
        assert_eq!(mentions("As lesson 6's table shows"), [6]);
        assert_eq!(mentions("Lessons 2 to 9 use DDP; lesson 10 does not"), [2, 9, 10]);
        // Korean: a particle follows the number; ranges and pairs name both ends.
        assert_eq!(mentions("레슨 6에서 본 것처럼"), [6]);
        assert_eq!(mentions("다음 두 레슨(레슨 2와 3)에서"), [2, 3]);
        assert_eq!(mentions("레슨 3부터 9까지는 DDP를 씁니다"), [3, 9]);
        assert_eq!(mentions("플레슨 4"), Vec::<u32>::new(), "inside another word");
        assert_eq!(mentions("레슨 6a"), Vec::<u32>::new());
        assert_eq!(mentions("lessons 7–10 and lesson 3"), [7, 10, 3]);
        assert!(mentions("a lesson learned, lessons 5a, sublesson 4").is_empty());
    }

    #[test]
    fn a_number_must_name_a_lesson_and_a_link_must_go_to_the_lesson_it_names() {
        let c = course(&[(6, "06-a.md", "Six."), (8, "08-b.md", "Eight.")]);
        assert_eq!(
            problems("See lesson 6 and lesson 7.", &c),
            ["1: `lesson 7`: the course has no lesson 7"]
        );
        assert_eq!(
            problems("The summary is in [lesson 6](08-b.md#x).", &c),
            ["1: the link `lesson 6` goes to 08-b.md, which is lesson 8, not lesson 6"]
        );
        assert!(problems("The summary is in [lesson 8](08-b.md#x).", &c).is_empty());
    }

    #[test]
    fn a_quote_from_a_lesson_must_be_in_it() {
        let c = course(&[
            (6, "06-a.md", "The job hangs until the *timeout*, 30 minutes with gloo.\n\n```text\nRank 1 failed to pass monitoredBarrier\n```\n"),
            (8, "08-b.md", "Eight."),
        ]);
        assert!(problems("As lesson 6 says, \"hangs until the timeout\".", &c).is_empty());
        assert!(problems("[Lesson 6](06-a.md) prints “Rank 1 failed to pass”.", &c).is_empty());
        assert_eq!(
            problems("In lesson 6 \"nothing happens for half an hour\".", &c),
            ["1: this sentence quotes \"nothing happens for half an hour\" from lesson 6, which 06-a.md does not say"]
        );
        // Not checked: two lessons named, a short quote, or the lesson quoting itself.
        assert!(
            problems("Lessons 6 and 8 say \"nothing happens for half an hour\".", &c).is_empty()
        );
        assert!(problems("Lesson 6 calls it \"the bug\".", &c).is_empty());
        assert!(check(&read("Lesson 6: \"nothing at all here\".", 1), 6, &c).is_empty());
    }
}
