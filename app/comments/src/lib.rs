//! A learner's comment: the rules its text must meet ([`check`]) and its HTML ([`render`]).
//!
//! Comments are the one place where learners write HTML that other learners read, so the
//! rendering is two independent layers. First a pass over pulldown-cmark's events turns what
//! markdown would pass through as HTML into text, drops images, and highlights code blocks the
//! way lessons do. Then `ammonia` cleans the result against an allow-list of tags, attributes,
//! classes and URL schemes, and marks every link `nofollow ugc noopener`. A hole in one layer is
//! not enough for a script to run; neither layer is hand-written escaping alone.
//!
//! # What is where
//!
//! A learner's comment as pure logic: `check` (trimmed, at most 5,000 characters, without the
//! invisible characters that reorder text) and `render`, markdown to HTML in two independent
//! layers: small passes over pulldown-cmark's events (raw HTML shown as text, images as their alt
//! text, headings as paragraphs, code blocks highlighted as in lessons), then `ammonia` against an
//! allow-list of tags, attributes, classes and URL schemes, with every link `nofollow ugc
//! noopener`. `check_display_name`: one plain line of at most 40 characters.
//! `tests/data/hostile.rs` holds the hostile set, which `tests/hostile.rs` checks in the HTML and
//! the server's `comments_browser.rs` in Chromium. Server only.

mod render;

pub use render::{render, render_kept};

/// The longest comment, in characters: a question with a traceback and a short script fits.
pub const MAX_CHARS: usize = 5_000;

/// Why a comment's text is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the comment is empty")]
    Empty,
    #[error("the comment is {chars} characters long; the most is {max}", max = MAX_CHARS)]
    TooLong { chars: usize },
}

/// The text to keep for `body`, or why it is refused: trimmed, without the invisible
/// characters that reorder or hide text (see [`is_invisible_control`]), at most
/// [`MAX_CHARS`] long.
pub fn check(body: &str) -> Result<String, Refused> {
    let kept: String = body.chars().filter(|c| !is_invisible_control(*c)).collect();
    let kept = kept.trim();
    if kept.is_empty() {
        return Err(Refused::Empty);
    }
    let chars = kept.chars().count();
    if chars > MAX_CHARS {
        return Err(Refused::TooLong { chars });
    }
    Ok(kept.to_string())
}

/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// The display name to keep for `name`: on one line, without invisible controls, trimmed;
/// `Ok(None)` clears it (the author is shown by number). `Err` gives the length when too long.
pub fn check_display_name(name: &str) -> Result<Option<String>, usize> {
    let kept: String = name
        .chars()
        .filter(|c| !is_invisible_control(*c))
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect();
    let kept = kept.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
    match kept.chars().count() {
        0 => Ok(None),
        n if n > MAX_NAME_CHARS => Err(n),
        _ => Ok(Some(kept)),
    }
}

/// Characters a reader cannot see that change what they see: Unicode's bidirectional
/// overrides, embeddings and isolates (the "Trojan Source" reorderings) and the other C0, C1
/// controls but tab and line breaks.
pub fn is_invisible_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
        || (c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_is_trimmed_and_bounded() {
        assert_eq!(
            check("  왜 set_epoch가 필요한가요?\n"),
            Ok("왜 set_epoch가 필요한가요?".into())
        );
        assert_eq!(check(" \n\t "), Err(Refused::Empty));
        assert_eq!(check("\u{202E}\u{2066}"), Err(Refused::Empty), "invisible only");
        assert_eq!(check(&"가".repeat(MAX_CHARS)).map(|s| s.chars().count()), Ok(MAX_CHARS));
        assert_eq!(
            check(&"a".repeat(MAX_CHARS + 1)),
            Err(Refused::TooLong { chars: MAX_CHARS + 1 })
        );
    }

    #[test]
    fn a_display_name_is_one_plain_line() {
        assert_eq!(check_display_name("  김 \n  지수\u{202E} "), Ok(Some("김 지수".into())));
        assert_eq!(check_display_name(" \u{2066} "), Ok(None));
        assert_eq!(
            check_display_name(&"가".repeat(MAX_NAME_CHARS)).map(|n| n.map(|n| n.chars().count())),
            Ok(Some(MAX_NAME_CHARS))
        );
        assert_eq!(check_display_name(&"a".repeat(MAX_NAME_CHARS + 1)), Err(MAX_NAME_CHARS + 1));
    }

    #[test]
    fn reordering_characters_are_removed() {
        let trojan =
            "if access_level != \"user\u{202E} \u{2066}// Check if admin\u{2069} \u{2066}\" {";
        let kept = check(trojan).unwrap();
        assert!(!kept.chars().any(is_invisible_control), "{kept:?}");
        assert_eq!(kept, "if access_level != \"user // Check if admin \" {");
    }
}
