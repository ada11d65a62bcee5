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

/// What Korean learners type finds what the lessons write (`lessons/ddp/terms.toml`), in both
/// editions; a search that finds nothing suggests the term a slip is closest to, and the other
/// edition where it has sections.
#[test]
fn the_course_terms_find_what_the_lessons_write() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        for (q, written) in [
            ("체크포인트", "checkpoint"),
            ("버킷", "bucket"),
            ("데드락", "deadlock"),
            ("랭크", "rank"),
            ("그래디언트", "gradient"),
        ] {
            for prefix in ["", "/ko"] {
                let page = search(&app, prefix, q).await;
                let b = &page.body;
                assert!(b.contains(r#"data-role="search-results""#), "{prefix} {q}: {b}");
                let marked = b.to_lowercase().contains(&format!("<mark>{written}"));
                assert!(marked, "{prefix} {q}: `{written}` marked in a snippet");
            }
        }
        // 학습률 on the English site finds "learning rate".
        let page = search(&app, "", "학습률").await;
        assert!(page.body.contains(r#"href="/lessons/"#), "{}", page.body);

        // A slip: "did you mean".
        let page = search(&app, "", "checkpiont").await;
        let tried = page.body.split(r#"data-role="search-try""#).nth(1).expect("a suggestion");
        assert!(tried.contains(r#"<a href="/search?q=checkpoint">checkpoint</a>"#), "{tried}");
        let page = search(&app, "/ko", "체크포인트 샤드 zebrafish").await;
        assert!(page.body.contains(r#"data-role="search-nothing""#));
        // Found only in the other edition: said, with the search there.
        let page = search(&app, "", "프로세스").await;
        let elsewhere =
            page.body.split(r#"data-role="search-elsewhere""#).nth(1).expect("the other edition");
        assert!(elsewhere.contains(r#"href="/ko/search?q=%ED%94%84%EB%A1%9C%EC%84%B8%EC%8A%A4""#));
        assert!(elsewhere.contains("The Korean edition of the course has"), "{elsewhere}");
        let page = search(&app, "/ko", "zebrafish").await;
        assert!(!page.body.contains(r#"data-role="search-elsewhere""#), "found nowhere");
    })
}
