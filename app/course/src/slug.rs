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

/// A heading's id: its letters and digits in every script, lower-cased (`## 모델 복제` →
/// `모델-복제`, `## Café résumé` → `café-résumé`), every other run of characters one `-`.
/// A heading with none at all (only punctuation) is `section`.
pub fn heading_id(text: &str) -> String {
    let mut id = String::new();
    for c in text.chars() {
        if lockstep_routes::is_anchor_char(c) {
            id.extend(c.to_lowercase());
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
        assert_eq!(heading_id("?!"), "section");
        // Every script keeps its letters, as GitHub's anchors do.
        assert_eq!(heading_id("모델 복제"), "모델-복제");
        assert_eq!(heading_id("분산 학습 (DDP) 개요"), "분산-학습-ddp-개요");
        assert_eq!(heading_id("Café résumé"), "café-résumé");
        assert_eq!(heading_id("Cafe\u{301} au lait"), "cafe\u{301}-au-lait", "a combining accent");
        assert_eq!(heading_id("ÜBER Ελληνικά"), "über-ελληνικά");
        assert_eq!(heading_id("`all_reduce` 와 `broadcast`"), "all-reduce-와-broadcast");
        let mut taken = BTreeSet::new();
        assert_eq!(
            (unique_id(&mut taken, "a"), unique_id(&mut taken, "a"), unique_id(&mut taken, "a")),
            ("a".into(), "a-1".into(), "a-2".into())
        );
    }
}
