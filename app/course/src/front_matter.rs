//! The TOML block between two `+++` lines at the top of a lesson file.

use serde::Deserialize;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::publishing::{self, Status, Visibility};

/// What an instructor declares about a lesson. Unknown keys are errors: a typo such as
/// `minuts = 15` must not silently fall back to a default.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrontMatter {
    pub title: String,
    /// Position in the course; unique across lessons.
    pub order: u32,
    #[serde(default)]
    pub tags: Vec<String>,
    /// XP a learner earns for completing the lesson. The server, not the page, awards it.
    pub xp: u32,
    pub summary: String,
    /// In a translation: the version of the source lesson it was made from
    /// ([`crate::Lesson::version`]), so that a later change of the source is reported.
    #[serde(default)]
    pub translated_from: Option<String>,
    /// `draft` while it is being written: learners see published lessons only.
    #[serde(default)]
    pub status: Status,
    /// When a published lesson reaches learners: an instant with its offset. Before it, the
    /// lesson is a draft to them.
    #[serde(default)]
    pub publish_at: Option<toml::value::Datetime>,
}

impl FrontMatter {
    pub fn visibility(&self) -> Visibility {
        Visibility::of(self.status, self.publish_at.as_ref())
    }
}

/// A lesson file cut in two: the parsed front matter (or the reasons it could not be parsed)
/// and the markdown body with the line it starts on.
pub struct Split<'a> {
    pub front: Result<FrontMatter, Vec<Diagnostic>>,
    /// Line (1-based) of the front matter's `order` key, for messages about it.
    pub order_line: usize,
    pub body: &'a str,
    pub body_first_line: usize,
    /// Who may see the lesson: as its front matter says, even one with problems.
    pub visibility: Visibility,
}

const FENCE: &str = "+++";

pub fn split<'a>(file: &str, text: &'a str) -> Split<'a> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if first.trim_end() != FENCE {
        return Split {
            front: Err(vec![Diagnostic::new(
                file,
                1,
                "missing front matter: a lesson must start with a line `+++`, then TOML keys \
                 (title, order, tags, xp, summary), then a closing `+++`",
            )]),
            order_line: 1,
            body: text,
            body_first_line: 1,
            visibility: Visibility::Published,
        };
    }

    let toml_start = first.len();
    let mut offset = toml_start;
    let mut line_no = 1;
    for line in lines {
        line_no += 1;
        if line.trim_end() == FENCE {
            let toml_text = &text[toml_start..offset];
            let body_start = offset + line.len();
            let front = parse_toml(file, toml_text);
            let visibility = match &front {
                Ok(front) => front.visibility(),
                Err(_) => Visibility::declared_in(toml_text),
            };
            return Split {
                front,
                visibility,
                order_line: key_line(toml_text, "order").map_or(1, |l| l + 1),
                body: &text[body_start..],
                body_first_line: line_no + 1,
            };
        }
        offset += line.len();
    }
    Split {
        front: Err(vec![Diagnostic::new(
            file,
            1,
            "front matter opened here is never closed: add a line `+++` after the last key",
        )]),
        order_line: 1,
        body: "",
        body_first_line: line_no + 1,
        // Everything after the `+++` was meant as front matter.
        visibility: Visibility::declared_in(&text[toml_start..]),
    }
}

fn parse_toml(file: &str, toml_text: &str) -> Result<FrontMatter, Vec<Diagnostic>> {
    // The TOML starts on line 2, right after the opening `+++`.
    let lines = LineIndex::new(toml_text, 2);
    if let Some(line) = key_line(toml_text, "minutes") {
        let message = "front matter: `minutes` is computed from the lesson's words, code, \
                       questions and simulations (lessons/README.md): remove it";
        return Err(vec![Diagnostic::new(file, line + 1, message)]);
    }
    let front: FrontMatter = toml::from_str(toml_text).map_err(|e| {
        let line = e.span().map_or(1, |s| lines.line_of(s.start));
        vec![Diagnostic::new(file, line, format!("front matter: {}", e.message()))]
    })?;

    let mut problems = Vec::new();
    let at = |key: &str| key_line(toml_text, key).map_or(1, |l| l + 1);
    if front.title.trim().is_empty() {
        problems.push(Diagnostic::new(file, at("title"), "front matter: `title` is empty"));
    }
    if front.summary.trim().is_empty() {
        problems.push(Diagnostic::new(file, at("summary"), "front matter: `summary` is empty"));
    }
    if front.order == 0 {
        problems.push(Diagnostic::new(file, at("order"), "front matter: `order` starts at 1"));
    }
    for tag in &front.tags {
        let ok = !tag.is_empty()
            && tag.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !ok {
            problems.push(Diagnostic::new(
                file,
                at("tags"),
                format!("front matter: tag `{tag}` must be lowercase letters, digits and `-`"),
            ));
        }
    }
    problems.extend(
        publishing_problems(front.status, front.publish_at.as_ref())
            .into_iter()
            .map(|m| Diagnostic::new(file, at("publish_at"), format!("front matter: {m}"))),
    );
    if problems.is_empty() {
        Ok(front)
    } else {
        Err(problems)
    }
}

/// What is wrong with a lesson's or course's `status` and `publish_at` together.
pub(crate) fn publishing_problems(
    status: Status,
    publish_at: Option<&toml::value::Datetime>,
) -> Vec<String> {
    let Some(at) = publish_at else { return Vec::new() };
    let mut problems = Vec::new();
    if let Err(why) = publishing::instant(at) {
        problems.push(format!("`publish_at`: {why}"));
    }
    if status == Status::Draft {
        problems.push(
            "`publish_at` publishes at that instant, and `status = \"draft\"` never: remove \
             one of them"
                .to_string(),
        );
    }
    problems
}

/// Line (1-based, within `toml_text`) where `key = ...` is set, if it is.
pub(crate) fn key_line(toml_text: &str, key: &str) -> Option<usize> {
    toml_text
        .lines()
        .position(|l| {
            l.trim_start().strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "+++\ntitle = \"T\"\norder = 2\ntags = [\"a\", \"b-c\"]\nxp = 10\nsummary = \"S\"\n+++\n# Body\n";

    #[test]
    fn splits_good_front_matter() {
        let s = split("x.md", GOOD);
        let f = s.front.unwrap();
        assert_eq!(f.title, "T");
        assert_eq!(f.order, 2);
        assert_eq!(f.tags, vec!["a", "b-c"]);
        assert_eq!(s.body, "# Body\n");
        assert_eq!(s.body_first_line, 8);
        assert_eq!(s.order_line, 3);
    }

    #[test]
    fn missing_opening_fence() {
        let s = split("x.md", "# Just markdown\n");
        let e = s.front.unwrap_err();
        assert_eq!(e[0].line, 1);
        assert!(e[0].message.contains("missing front matter"), "{}", e[0]);
    }

    #[test]
    fn unclosed_fence() {
        let s = split("x.md", "+++\ntitle = \"T\"\n");
        let e = s.front.unwrap_err();
        assert!(e[0].message.contains("never closed"), "{}", e[0]);
    }

    #[test]
    fn unknown_field_names_its_line() {
        let text = GOOD.replace("order = 2\n", "order = 2\nordre = 6\n");
        let e = split("02-x.md", &text).front.unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].line, 4, "{}", e[0]);
        assert!(e[0].message.contains("unknown field `ordre`"), "{}", e[0]);
        assert!(e[0].to_string().starts_with("02-x.md:4: front matter: unknown field"));
    }

    #[test]
    fn minutes_are_computed_not_declared() {
        let text = GOOD.replace("xp = 10\n", "xp = 10\nminutes = 5\n");
        let e = split("02-x.md", &text).front.unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].line, 6, "{}", e[0]);
        assert!(e[0].message.contains("`minutes` is computed"), "{}", e[0]);
    }

    #[test]
    fn wrong_type_names_its_line() {
        let text = GOOD.replace("xp = 10", "xp = \"ten\"");
        let e = split("x.md", &text).front.unwrap_err();
        assert_eq!(e[0].line, 5, "{}", e[0]);
    }

    #[test]
    fn missing_field_is_reported() {
        let text = GOOD.replace("xp = 10\n", "");
        let e = split("x.md", &text).front.unwrap_err();
        assert!(e[0].message.contains("missing field `xp`"), "{}", e[0]);
    }

    #[test]
    fn invalid_toml_syntax() {
        let text = GOOD.replace("order = 2", "order = ");
        let e = split("x.md", &text).front.unwrap_err();
        assert_eq!(e[0].line, 3, "{}", e[0]);
    }

    #[test]
    fn semantic_checks() {
        let text = GOOD
            .replace("order = 2", "order = 0")
            .replace("\"b-c\"", "\"Bad Tag\"")
            .replace("title = \"T\"", "title = \" \"");
        let e = split("x.md", &text).front.unwrap_err();
        let lines: Vec<_> = e.iter().map(|d| d.line).collect();
        assert_eq!(lines, vec![2, 3, 4], "{e:?}");
    }

    #[test]
    fn byte_order_mark_is_ignored() {
        let text = format!("\u{feff}{GOOD}");
        assert!(split("x.md", &text).front.is_ok());
    }
}
