//! A lesson's text as a reader meets it: sentences of plain text with the lesson files they
//! link to, and its code. A pass of its own over the markdown, apart from rendering: the
//! reading time ([`crate::reading`]) counts it, and the references to other lessons
//! ([`crate::references`]) are checked against it.

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

use crate::diagnostic::LineIndex;
use crate::markdown::options;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Prose {
    /// Paragraphs, list items, headings, table cells and footnotes, cut into sentences.
    pub sentences: Vec<Sentence>,
    /// Non-blank lines of the code blocks a reader reads (not quizzes nor simulations).
    pub code_lines: usize,
    /// Those code blocks' text, where a quoted log line or message can be found.
    pub code: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence {
    /// As it reads: inline code and link texts included, markup left out.
    pub text: String,
    /// The line its block starts on.
    pub line: usize,
    /// Links from it to lesson files.
    pub links: Vec<Link>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The lesson file, e.g. `06-checkpoints-and-pitfalls.md`.
    pub file: String,
    /// What the link reads, e.g. `lesson 6`.
    pub text: String,
}

impl Prose {
    /// Words as a reader counts them: runs of text with a letter or digit in them.
    pub fn words(&self) -> usize {
        self.sentences.iter().map(|s| words(&s.text)).sum()
    }
}

pub fn words(text: &str) -> usize {
    text.split_whitespace().filter(|w| w.chars().any(char::is_alphanumeric)).count()
}

/// The fence languages whose blocks are not read as code: the page renders them as a quiz or
/// a simulation.
const NOT_CODE: [&str; 2] = [crate::quiz::FENCE_LANGUAGE, "sim"];

pub fn read(body: &str, first_line: usize) -> Prose {
    let lines = LineIndex::new(body, first_line);
    let mut prose = Prose::default();
    let mut block = Block::default();
    let mut in_code: Option<bool> = None;
    for (event, range) in Parser::new_ext(body, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let language = match &kind {
                    CodeBlockKind::Fenced(info) => info.split_whitespace().next().unwrap_or(""),
                    CodeBlockKind::Indented => "",
                };
                in_code = Some(!NOT_CODE.contains(&language));
            }
            Event::End(TagEnd::CodeBlock) => in_code = None,
            Event::Text(t) if in_code == Some(true) => {
                prose.code_lines += t.lines().filter(|l| !l.trim().is_empty()).count();
                prose.code.push_str(&t);
            }
            // A quiz's TOML or a simulation's (empty) body: the page renders those itself.
            Event::Text(_) if in_code == Some(false) => {}
            Event::Start(Tag::Link { dest_url, .. }) => {
                block.start(lines.line_of(range.start));
                block.open_link(&dest_url);
            }
            Event::End(TagEnd::Link) => block.close_link(),
            Event::Text(t) | Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                block.start(lines.line_of(range.start));
                block.text.push_str(&t);
            }
            Event::SoftBreak | Event::HardBreak => block.text.push(' '),
            // Every other start or end is a block's edge (paragraphs, items, headings, cells)
            // or markup inside one (emphasis): only the edges cut the text.
            Event::Start(tag) if is_block(&tag) => block.flush(&mut prose.sentences),
            Event::End(end) if is_block_end(&end) => block.flush(&mut prose.sentences),
            _ => {}
        }
    }
    block.flush(&mut prose.sentences);
    prose
}

fn is_block(tag: &Tag<'_>) -> bool {
    !matches!(
        tag,
        Tag::Emphasis | Tag::Strong | Tag::Strikethrough | Tag::Link { .. } | Tag::Image { .. }
    )
}

fn is_block_end(end: &TagEnd) -> bool {
    !matches!(
        end,
        TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Link | TagEnd::Image
    )
}

/// The text of one block being read, with its links as byte ranges of that text.
#[derive(Default)]
struct Block {
    text: String,
    line: usize,
    links: Vec<(usize, usize, String)>,
    open: Option<(usize, String)>,
}

impl Block {
    fn start(&mut self, line: usize) {
        if self.text.is_empty() && self.open.is_none() {
            self.line = line;
        }
    }

    fn open_link(&mut self, dest: &str) {
        let path = dest.split('#').next().unwrap_or("");
        let lesson = !dest.contains("://") && path.ends_with(".md") && !path.contains('/');
        self.open = lesson.then(|| (self.text.len(), path.to_string()));
    }

    fn close_link(&mut self) {
        if let Some((start, file)) = self.open.take() {
            self.links.push((start, self.text.len(), file));
        }
    }

    fn flush(&mut self, out: &mut Vec<Sentence>) {
        let text = std::mem::take(&mut self.text);
        let links = std::mem::take(&mut self.links);
        self.open = None;
        if text.trim().is_empty() {
            return;
        }
        let mut start = 0;
        for end in sentence_ends(&text) {
            let links = links
                .iter()
                .filter(|(at, _, _)| (start..end).contains(at))
                .map(|(at, to, file)| Link { file: file.clone(), text: text[*at..*to].to_string() })
                .collect();
            let sentence = text[start..end].trim();
            if !sentence.is_empty() {
                out.push(Sentence { text: sentence.to_string(), line: self.line, links });
            }
            start = end;
        }
    }
}

/// Where each sentence of `text` ends (byte offsets, the last one `text.len()`): after `.`, `?`
/// or `!` and a space, except inside double quotes, so that a quoted sentence stays with the
/// one quoting it (a quote that ends a sentence ends it after the quote).
fn sentence_ends(text: &str) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut quoted = false;
    let mut previous = ' ';
    let mut at = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        at += c.len_utf8();
        let closes_quote = quoted && matches!(c, '"' | '”');
        match c {
            '"' => quoted = !quoted,
            '“' => quoted = true,
            '”' => quoted = false,
            _ => {}
        }
        let ends_here = match c {
            '.' | '?' | '!' => !quoted,
            _ => closes_quote && matches!(previous, '.' | '?' | '!'),
        };
        if ends_here && chars.peek() == Some(&' ') {
            ends.push(at);
        }
        previous = c;
    }
    ends.push(text.len());
    ends
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_keep_their_links_and_quotes() {
        let p = read(
            "Intro line.\n\nAs [lesson 6](06-x.md#a) says, \"the job waits. Then it dies.\" \
             Next [outside](https://e.org/y.md) one.\n",
            10,
        );
        let texts: Vec<&str> = p.sentences.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Intro line.",
                "As lesson 6 says, \"the job waits. Then it dies.\"",
                "Next outside one."
            ]
        );
        assert_eq!(p.sentences[1].line, 12);
        assert_eq!(
            p.sentences[1].links,
            [Link { file: "06-x.md".into(), text: "lesson 6".into() }]
        );
        assert!(p.sentences[2].links.is_empty(), "an outside page is not a lesson");
    }

    #[test]
    fn code_is_counted_apart_and_quizzes_and_simulations_are_not_code() {
        let md = "Some `inline` words here.\n\n```python\na = 1\n\nb = 2\n```\n\n```quiz\n[[question]]\n```\n\n```sim ring-allreduce\n```\n\n- item one\n- item **two**\n\n| a b | c |\n|---|---|\n| d | e |\n";
        let p = read(md, 1);
        assert_eq!(p.code_lines, 2);
        assert_eq!(p.code, "a = 1\n\nb = 2\n");
        assert_eq!(p.words(), 4 + 2 + 2 + 3 + 2);
        assert!(p.sentences.iter().any(|s| s.text == "item two"));
    }

    #[test]
    fn words_need_a_letter_or_digit() {
        assert_eq!(words("a — b -- 2 ·"), 3);
        assert_eq!(words("모델 복제는 rank 0에서"), 4);
    }
}
