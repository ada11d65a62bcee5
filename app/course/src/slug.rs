//! The names the course derives from what instructors write: a lesson's URL slug from its file
//! name, and a heading's id (the anchor links point at) from its text.

use std::collections::BTreeSet;

/// `02-dataparallel.md` → `dataparallel`: the number orders files in a listing, the URL
/// does not need it.
pub fn slug_for_file(file: &str) -> String {
    let stem = file.strip_suffix(".md").unwrap_or(file);
    let without_number = stem.trim_start_matches(|c: char| c.is_ascii_digit());
    let slug = without_number.strip_prefix(['-', '_']).unwrap_or(without_number);
    if slug.is_empty() {
        stem.to_string()
    } else {
        slug.to_string()
    }
}

/// A heading's id: lowercase ASCII letters and digits, every other run of characters one `-`.
pub fn heading_id(text: &str) -> String {
    let mut id = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.ends_with('-') {
            id.push('-');
        }
    }
    let id = id.trim_matches('-');
    if id.is_empty() {
        "section".to_string()
    } else {
        id.to_string()
    }
}

pub(crate) fn unique_id(taken: &mut BTreeSet<String>, base: &str) -> String {
    let mut id = base.to_string();
    let mut n = 1;
    while taken.contains(&id) {
        id = format!("{base}-{n}");
        n += 1;
    }
    taken.insert(id.clone());
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(slug_for_file("02-dataparallel.md"), "dataparallel");
        assert_eq!(slug_for_file("10_ring.md"), "ring");
        assert_eq!(slug_for_file("intro.md"), "intro");
        assert_eq!(slug_for_file("42.md"), "42");
    }

    #[test]
    fn heading_ids_are_lowercase_words_joined_by_dashes() {
        assert_eq!(heading_id("Ring all-reduce, step by step"), "ring-all-reduce-step-by-step");
        assert_eq!(heading_id("Why `N-1`?"), "why-n-1");
        assert_eq!(heading_id("분산 학습"), "section");
        let mut taken = BTreeSet::new();
        assert_eq!(
            (unique_id(&mut taken, "a"), unique_id(&mut taken, "a"), unique_id(&mut taken, "a")),
            ("a".into(), "a-1".into(), "a-2".into())
        );
    }
}
