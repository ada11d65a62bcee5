//! Search through the router, without JavaScript: the GET form's page in both languages, the
//! words the course is searched by, nothing found, and hostile queries, which get an answer in
//! words and never reach the page as markup.

use crate::common;

use axum::http::StatusCode;
use common::in_process::*;

fn encoded(q: &str) -> String {
    form_urlencoded::byte_serialize(q.as_bytes()).collect()
}

async fn search(app: &App, lang_prefix: &str, q: &str) -> Page {
    let page = get(app, &format!("{lang_prefix}/search?q={}", encoded(q)), None).await;
    assert_eq!(page.status, StatusCode::OK, "{q}");
    page
}

#[test]
fn searching_in_english_and_korean() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let page = search(&app, "", "set_epoch").await;
        let b = &page.body;
        assert!(b.contains(r#"data-role="search-results""#), "{b}");
        assert!(b.contains(r#"href="/lessons/distributed-sampler#"#), "a section of lesson 4");
        assert!(b.contains("<mark>set_epoch</mark>"), "the match is marked");

        let page = search(&app, "/ko", "모델").await;
        let b = &page.body;
        assert!(b.contains(r#"<html lang="ko""#));
        assert!(b.contains(r#"href="/ko/lessons/"#), "Korean sections: {b}");
        assert!(b.contains("<mark>모델</mark>"), "{b}");
        assert!(b.contains("섹션 "), "the count in Korean");
        // Inside a longer word, and a two-syllable word.
        assert!(search(&app, "/ko", "학습").await.body.contains("<mark>학습</mark>"));
        assert!(search(&app, "/ko", "all-reduce").await.body.contains(r#"href="/ko/lessons/"#));

        let none = search(&app, "", "zebrafish").await;
        assert!(none.body.contains(r#"data-role="search-nothing""#));
        assert!(!none.body.contains(r#"data-role="search-results""#));

        // Every page has the search box, in its language.
        let lesson = get(&app, "/ko/lessons/torchrun", None).await;
        assert!(lesson.body.contains(r#"action="/ko/search" role="search""#), "{}", lesson.body);
        assert!(get(&app, "/", None).await.body.contains(r#"action="/search" role="search""#));
    })
}

#[test]
fn hostile_queries_are_answered_in_words_and_stay_text() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let hostile = "<script>alert(1)</script>\"' onmouseover=alert(2) *:(";
        let page = search(&app, "", hostile).await;
        assert!(!page.body.contains("<script>alert(1)"), "the query is escaped");
        assert!(!page.body.contains("\" onmouseover=alert"), "and stays inside its attribute");

        let long = "학".repeat(3_000);
        let page = search(&app, "/ko", &long).await;
        assert!(page.body.contains(r#"data-role="search-refused""#));
        assert!(page.body.contains("100자까지"), "the limit, in Korean");

        let page = search(&app, "", "*:( \"' ").await;
        assert!(page.body.contains("no words to search for"), "{}", page.body);
    })
}
