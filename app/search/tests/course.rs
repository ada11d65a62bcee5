//! Search over the real course, both editions: the words the issue names, Korean inside longer
//! words, no result, and hostile queries.

use std::path::Path;

use lockstep_course::live::LiveCourse;
use lockstep_routes::Lang;
use lockstep_search::{Refused, SearchIndex};

fn index() -> SearchIndex {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons");
    let live = LiveCourse::open(dir, false, &Default::default(), |_| {}).unwrap();
    let loaded = live.loaded();
    let (en, ko) = (loaded.edition(Lang::En), loaded.edition(Lang::Ko));
    SearchIndex::build([en.as_ref(), ko.as_ref()]).unwrap()
}

fn hits(index: &SearchIndex, lang: Lang, q: &str) -> Vec<lockstep_search::Hit> {
    index.search(lang, q, 20).unwrap().unwrap_or_else(|r| panic!("{q}: refused {r:?}"))
}

/// The marked pieces of every hit's snippet.
fn marked(hits: &[lockstep_search::Hit]) -> Vec<String> {
    hits.iter().flat_map(|h| h.snippet.iter().filter(|p| p.1).map(|p| p.0.clone())).collect()
}

#[test]
fn korean_words_are_found_inside_longer_ones() {
    let index = index();
    assert!(index.sections > 200, "{} sections", index.sections);

    let model = hits(&index, Lang::Ko, "모델");
    assert!(model.len() >= 10, "{}", model.len());
    assert!(model.iter().all(|h| h.href.starts_with("/ko/lessons/")), "{model:?}");
    // `모델` is found inside `모델을`, `모델의`…, and only what matched is marked.
    assert!(marked(&model).iter().all(|m| m.contains("모델")), "{:?}", marked(&model));

    let learning = hits(&index, Lang::Ko, "학습");
    assert!(!learning.is_empty());
    // A three-syllable word as the phrase of its pairs.
    let particle = index.search(Lang::Ko, "모델을", 1000).unwrap().unwrap();
    assert!(!particle.is_empty());
    let all_model = index.search(Lang::Ko, "모델", 1000).unwrap().unwrap();
    assert!(particle.len() < all_model.len(), "a longer word matches fewer sections");
}

#[test]
fn api_names_and_terms_in_both_languages() {
    let index = index();
    for lang in [Lang::En, Lang::Ko] {
        for q in ["all-reduce", "set_epoch", "DistributedSampler", "torchrun"] {
            let found = hits(&index, lang, q);
            assert!(!found.is_empty(), "{q} in {lang:?}");
            assert!(found.iter().all(|h| Lang::of_path(&h.href) == lang), "{q}: {found:?}");
        }
    }
    // `set_epoch` leads to the sampler lesson's sections first or near it.
    let found = hits(&index, Lang::En, "set_epoch");
    assert!(found.iter().take(5).any(|h| h.slug == "distributed-sampler"), "{found:?}");
    // A section link is a heading of the lesson.
    assert!(found.iter().any(|h| h.href.contains('#')));
}

#[test]
fn nothing_found_and_hostile_queries_get_clear_answers() {
    let index = index();
    assert!(hits(&index, Lang::En, "zebrafish").is_empty());
    assert!(hits(&index, Lang::Ko, "얼룩말").is_empty());
    // Markup is words like any other, and never a query language.
    let _ = hits(&index, Lang::En, "<script>alert(1)</script> \"'*:( OR AND -x");
    assert_eq!(index.search(Lang::En, "*:( \"' ", 10).unwrap(), Err(Refused::NoWords));
    let long = "학".repeat(20_000);
    assert_eq!(
        index.search(Lang::Ko, &long, 10).unwrap(),
        Err(Refused::TooLong { max_chars: lockstep_search::MAX_QUERY_CHARS })
    );
    let many = "a ".repeat(20);
    assert!(matches!(
        index.search(Lang::En, &many, 10).unwrap(),
        Err(Refused::TooManyWords { .. })
    ));
}

#[test]
fn quiz_explanations_are_not_searchable() {
    // Lesson 2's first question explains its right option with "one replica per chunk"; the
    // page shows explanations only after a pass, so search must not have them.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons/ddp");
    let course = lockstep_course::load(&dir).unwrap();
    let lesson = course.find("dataparallel").unwrap().1.ready().unwrap();
    let sections = lockstep_search::sections::of(lesson);
    let all: String = sections.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join(" ");
    assert!(
        all.contains("How many GPUs run a replica's forward pass?"),
        "the question is searchable"
    );
    assert!(!all.contains("one replica per chunk"), "an explanation is not");
}
