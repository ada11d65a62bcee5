//! Syntax highlighting as classed spans: lesson code blocks and learners' graded scripts.
//!
//! The server parses code with `syntect` (the `syntect` feature: pure Rust, Sublime Text's
//! grammars built into the crate, nothing fetched) and keeps only a handful of token kinds,
//! each a CSS class whose colours the stylesheet sets per theme. The browser never parses:
//! it receives [`Line`]s of [`Span`]s (serializable, no `syntect`) and renders them as text,
//! so a learner's script is escaped like any other text and the wasm bundle stays small.
//!
//! # What is where
//!
//! Syntax highlighting as classed spans (`Line`s of `Span`s with a `Kind`: keyword, string,
//! comment…). With its `syntect` feature (server only) it parses code with syntect's built-in
//! grammars; the browser only receives spans and renders them as text, so a learner's script is
//! escaped like any text. `to_html` escapes every span for HTML built outside `view!` (the lesson
//! renderer's code blocks).

use serde::{Deserialize, Serialize};

/// The kinds of token the stylesheet colours. Everything else is plain text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    Keyword,
    String,
    Comment,
    Number,
    /// `True`, `None`, `self`.
    Constant,
    /// The name a `def` or `class` introduces.
    Definition,
    /// `print`, `len`, `int`.
    Builtin,
    /// `@torch.no_grad()`.
    Decorator,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::Keyword,
        Kind::String,
        Kind::Comment,
        Kind::Number,
        Kind::Constant,
        Kind::Definition,
        Kind::Builtin,
        Kind::Decorator,
    ];

    /// The CSS class (`styles/`): short, as a long script carries one per token.
    pub fn class(self) -> &'static str {
        match self {
            Kind::Keyword => "hl-k",
            Kind::String => "hl-s",
            Kind::Comment => "hl-c",
            Kind::Number => "hl-n",
            Kind::Constant => "hl-o",
            Kind::Definition => "hl-d",
            Kind::Builtin => "hl-b",
            Kind::Decorator => "hl-a",
        }
    }
}

/// A run of text of one kind; `None` is plain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub kind: Option<Kind>,
    pub text: String,
}

/// One line of code, without its line break.
pub type Line = Vec<Span>;

/// `code` as plain lines: what highlighting falls back to.
pub fn plain(code: &str) -> Vec<Line> {
    code.lines().map(|l| vec![Span { kind: None, text: l.to_string() }]).collect()
}

/// The lines as HTML, every text escaped: for HTML built outside `view!` (the lesson renderer).
pub fn to_html(lines: &[Line]) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for span in line {
            match span.kind {
                Some(kind) => {
                    out.push_str("<span class=\"");
                    out.push_str(kind.class());
                    out.push_str("\">");
                    escape_into(&mut out, &span.text);
                    out.push_str("</span>");
                }
                None => escape_into(&mut out, &span.text),
            }
        }
    }
    out
}

fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

#[cfg(feature = "syntect")]
pub use parse::{highlight, MAX_BYTES};

#[cfg(feature = "syntect")]
mod parse {
    use std::sync::OnceLock;

    use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxSet};
    use syntect::util::LinesWithEndings;

    use super::{plain, Kind, Line, Span};

    /// Larger code is shown plain: the grammar engine takes about a second a megabyte, and a
    /// page is not held up for colour.
    pub const MAX_BYTES: usize = 64 * 1024;

    fn syntaxes() -> &'static SyntaxSet {
        static SET: OnceLock<SyntaxSet> = OnceLock::new();
        SET.get_or_init(SyntaxSet::load_defaults_newlines)
    }

    /// Scope prefixes and what they show as, most specific first; `None` stops the search
    /// as plain (an operator is a `keyword.operator`, but coloured like a keyword it would
    /// drown the keywords; an f-string's `{expr}` is code, not string).
    fn rules() -> &'static [(Scope, Option<Kind>)] {
        static RULES: OnceLock<Vec<(Scope, Option<Kind>)>> = OnceLock::new();
        RULES.get_or_init(|| {
            [
                ("comment", Some(Kind::Comment)),
                ("source.python.embedded", None),
                ("meta.interpolation", None),
                ("string", Some(Kind::String)),
                ("storage.type.string", Some(Kind::String)),
                ("constant.other.format-spec", Some(Kind::String)),
                ("constant.numeric", Some(Kind::Number)),
                ("constant.language", Some(Kind::Constant)),
                ("variable.language", Some(Kind::Constant)),
                ("keyword.operator.logical", Some(Kind::Keyword)),
                ("keyword.operator.word", Some(Kind::Keyword)),
                ("keyword.operator", None),
                ("keyword", Some(Kind::Keyword)),
                ("storage.type", Some(Kind::Keyword)),
                ("storage.modifier", Some(Kind::Keyword)),
                ("entity.name.function", Some(Kind::Definition)),
                ("entity.name.class", Some(Kind::Definition)),
                ("support.function.builtin", Some(Kind::Builtin)),
                ("support.type", Some(Kind::Builtin)),
                ("meta.annotation", Some(Kind::Decorator)),
                ("variable.annotation", Some(Kind::Decorator)),
            ]
            .into_iter()
            .map(|(s, k)| (Scope::new(s).expect("a valid scope"), k))
            .collect()
        })
    }

    fn kind_of(stack: &ScopeStack) -> Option<Kind> {
        for scope in stack.as_slice().iter().rev() {
            if let Some((_, kind)) = rules().iter().find(|(rule, _)| rule.is_prefix_of(*scope)) {
                return *kind;
            }
        }
        None
    }

    /// `code` in `lang` (a fence's language: `python`, `bash`, `toml`…) as classed lines;
    /// plain lines for a language it does not know, code over [`MAX_BYTES`], or a grammar
    /// that fails on it.
    pub fn highlight(lang: &str, code: &str) -> Vec<Line> {
        let set = syntaxes();
        let syntax = match set.find_syntax_by_token(lang) {
            Some(s) if code.len() <= MAX_BYTES => s,
            _ => return plain(code),
        };
        let mut state = ParseState::new(syntax);
        let mut stack = ScopeStack::new();
        let mut lines = Vec::new();
        for text in LinesWithEndings::from(code) {
            let Ok(ops) = state.parse_line(text, set) else { return plain(code) };
            let mut line: Line = Vec::new();
            let push = |line: &mut Line, piece: &str, kind: Option<Kind>| {
                let piece = piece.trim_end_matches(['\n', '\r']);
                if piece.is_empty() {
                    return;
                }
                match line.last_mut() {
                    Some(last) if last.kind == kind => last.text.push_str(piece),
                    _ => line.push(Span { kind, text: piece.to_string() }),
                }
            };
            let mut at = 0;
            for (i, op) in ops {
                if i > at {
                    push(&mut line, &text[at..i], kind_of(&stack));
                    at = i;
                }
                if stack.apply(&op).is_err() {
                    return plain(code);
                }
            }
            push(&mut line, &text[at..], kind_of(&stack));
            lines.push(line);
        }
        lines
    }
}

#[cfg(all(test, feature = "syntect"))]
mod tests {
    use super::*;

    fn kinds(line: &Line) -> Vec<(Option<Kind>, &str)> {
        line.iter().map(|s| (s.kind, s.text.as_str())).collect()
    }

    #[test]
    fn python_keywords_strings_comments_and_definitions() {
        let lines = highlight(
            "python",
            "import torch  # the library\n@torch.no_grad()\ndef f(x=1):\n    return f\"{x:.2f}\" and None\n",
        );
        assert_eq!(lines.len(), 4);
        let first = kinds(&lines[0]);
        assert_eq!(first[0], (Some(Kind::Keyword), "import"));
        assert_eq!(first.last().unwrap(), &(Some(Kind::Comment), "# the library"));
        assert!(lines[1].iter().all(|s| s.kind == Some(Kind::Decorator)), "{:?}", lines[1]);
        assert!(kinds(&lines[2]).contains(&(Some(Kind::Definition), "f")));
        assert!(kinds(&lines[2]).contains(&(Some(Kind::Number), "1")));
        let ret = kinds(&lines[3]);
        assert!(ret.contains(&(None, "{x")), "an f-string's expression is code: {ret:?}");
        assert!(ret.contains(&(Some(Kind::Keyword), "and")));
        assert!(ret.contains(&(Some(Kind::Constant), "None")));
        // Operators stay plain.
        assert!(kinds(&lines[2]).iter().any(|(k, t)| k.is_none() && t.contains('=')));
    }

    #[test]
    fn every_character_survives_and_html_is_escaped() {
        let code = "x = '<script>' & \"</code>\"\n\n# é, 한국어\n";
        let lines = highlight("python", code);
        let back: Vec<String> =
            lines.iter().map(|l| l.iter().map(|s| s.text.as_str()).collect()).collect();
        assert_eq!(back.join("\n") + "\n", code);
        let html = to_html(&lines);
        assert!(!html.contains("<script>") && !html.contains("</code>"), "{html}");
        assert!(html.contains("&lt;script&gt;"));
    }

    #[test]
    fn unknown_languages_and_huge_code_are_plain() {
        assert_eq!(highlight("no-such-language", "a\nb"), plain("a\nb"));
        let huge = "x = 1\n".repeat(MAX_BYTES / 6 + 1);
        assert!(highlight("python", &huge).iter().all(|l| l.iter().all(|s| s.kind.is_none())));
    }
}
