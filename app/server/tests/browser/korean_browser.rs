//! The Korean edition in a real headless Chromium whose language is Korean: `/` sends it to
//! `/ko`, the Korean pages hydrate without a mismatch (their interactive words are Korean after
//! hydration too), Hangul is drawn with real glyphs (screenshots of syllables differ from each
//! other and from the missing-glyph box), the quiz and the exercise page work in Korean, and
//! the language switcher keeps the section being read and is remembered over the browser's
//! languages, and search finds Korean words from the header's box and as the learner types.
//!
//! Needs the release browser bundle, chromium + chromium-driver and a CJK font
//! (`fonts-noto-cjk`), all set up by `cargo xtask test`. It fails, never skips, without them.

use crate::common;

use common::*;
use fantoccini::key::Key;
use fantoccini::{Client, Locator};

/// No crash notice: a hydration mismatch or a panic in the bundle shows one.
async fn no_crash(c: &Client, what: &str) {
    let crashed = c.find_all(Locator::Css("[data-role=app-error]")).await.unwrap();
    assert!(crashed.is_empty(), "{what}: the crash notice is shown");
}

/// Screenshots `text` drawn alone, large, in the page's own font.
async fn glyph_png(c: &Client, text: &str) -> Vec<u8> {
    let id = "glyph-probe";
    c.execute(
        "let s = document.getElementById(arguments[0]); \
         if (!s) { s = document.createElement('span'); s.id = arguments[0]; \
           s.style.cssText = 'display:inline-block;font-size:48px;line-height:1;padding:4px;\
             background:#fff;color:#000;position:fixed;top:0;left:0;z-index:9999'; \
           document.body.appendChild(s); } \
         s.textContent = arguments[1];",
        vec![id.into(), text.into()],
    )
    .await
    .unwrap();
    c.find(Locator::Id(id)).await.unwrap().screenshot().await.unwrap()
}

/// Hangul syllables of the page are drawn as glyphs, not as the missing-glyph box: each
/// differs from the box (an unassigned code point) and from the others.
async fn hangul_is_drawn(c: &Client, what: &str) {
    let text: String = c
        .execute("return document.querySelector('main').innerText", vec![])
        .await
        .unwrap()
        .as_str()
        .unwrap()
        .to_string();
    let mut syllables: Vec<char> = text.chars().filter(|c| ('가'..='힣').contains(c)).collect();
    syllables.sort();
    syllables.dedup();
    assert!(syllables.len() >= 20, "{what}: Korean text on the page");
    let sample: Vec<char> =
        (0..8).map(|i| syllables[i * (syllables.len() - 1) / 7]).collect::<Vec<_>>();
    let missing = glyph_png(c, "\u{0378}").await;
    let mut seen = Vec::new();
    for s in sample {
        let png = glyph_png(c, &s.to_string()).await;
        assert_ne!(png, missing, "{what}: {s} is drawn as the missing-glyph box");
        assert!(!seen.contains(&png), "{what}: {s} is drawn like another syllable");
        seen.push(png);
    }
    c.execute("document.getElementById('glyph-probe').remove()", vec![]).await.unwrap();
}

/// The exercise page's editor, in Korean: Enter after `for …:` indents by Python's four spaces
/// (it gave six, 4 + CodeMirror's default 2, and the submission an `IndentationError`), Tab
/// indents the line, Escape then Tab leaves the editor, and what it says is Korean.
async fn the_editor_writes_python(c: &Client) {
    let key = |k: Key| char::from(k).to_string();
    wait_for("the code editor", || async {
        c.find_all(Locator::Css(".cm-editor .cm-content")).await.unwrap().len() == 1
    })
    .await;
    let content = c.find(Locator::Css(".cm-content")).await.unwrap();
    let label = content.attr("aria-label").await.unwrap().unwrap_or_default();
    assert!(label.ends_with(": Python 코드"), "the editor's name: {label}");
    let for_line = "    for epoch in range(5):";
    let xpath = format!("//div[contains(@class, 'cm-line')][. = '{for_line}']");
    let line = c.find(Locator::XPath(&xpath)).await.unwrap();
    click(c, &line).await;
    content.send_keys(&format!("{}\nx", key(Key::End))).await.unwrap();
    let after_for = || async {
        let script = c.execute("return document.getElementById('script').value", vec![]).await;
        let script = script.unwrap().as_str().unwrap().to_string();
        let mut lines = script.lines().skip_while(|l| *l != for_line);
        lines.nth(1).unwrap_or_default().to_string()
    };
    assert_eq!(after_for().await, "        x", "Enter after a colon: one level of four spaces");
    content.send_keys(&key(Key::Tab)).await.unwrap();
    assert_eq!(after_for().await, "            x", "Tab indents the line");
    content.send_keys(&format!("{}{}", key(Key::Escape), key(Key::Tab))).await.unwrap();
    let inside = "return !!document.activeElement.closest('.cm-editor')";
    assert_eq!(c.execute(inside, vec![]).await.unwrap(), false, "Escape then Tab leaves");
    wait_for("the draft's status, in Korean", || async {
        text(c, "[data-role=draft-status]").await.as_deref()
            == Some("초안을 이 브라우저에 보관했습니다.")
    })
    .await;
}

/// A lesson page's contents ids in the language `code`, as the switcher reads them.
async fn section_ids(c: &Client, code: &str) -> Vec<String> {
    let css = format!("[data-role=section-ids][data-lang={code}]");
    let list = c.find(Locator::Css(&css)).await.unwrap();
    let ids = list.attr("data-ids").await.unwrap().unwrap();
    ids.split(' ').map(str::to_string).collect()
}

/// A language the site is configured with, and the bundle was not built for: the pages read
/// the languages from the page, so the switcher hydrates as the server rendered it, on a page
/// hydrated whole and on a lesson's islands alike, and keeps the section being read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_third_language_hydrates_as_the_server_rendered_it() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", tmp.path().join("db.sqlite3").display());
    let three = |c: &mut lockstep_server::Config| c.languages = "en,ko,ja".parse().unwrap();
    let base = serve_configured(&in_process::lessons_root(), &url, three).await;
    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(&webdriver, &tmp.path().join("profile"), &["--lang=ja-JP"]).await;
    for page in ["/ja/exercises/ddp-conversion", "/ja/lessons/dataparallel"] {
        c.goto(&format!("{base}{page}")).await.unwrap();
        wait_for_hydration(&c, page).await;
        no_crash(&c, page).await;
        let nav = c.find(Locator::Css(".site-header nav a")).await.unwrap();
        assert_eq!(nav.text().await.unwrap(), "コース", "{page}");
        let switches = c.find_all(Locator::Css("[data-role=language-switch]")).await.unwrap();
        let mut names = Vec::new();
        for s in &switches {
            names.push(s.text().await.unwrap());
        }
        assert_eq!(names, ["English", "한국어"], "{page}");
    }
    // On the lesson, the switch to English goes to the section being read there.
    let (ja, en) = (section_ids(&c, "ja").await, section_ids(&c, "en").await);
    assert_eq!(ja, en, "a lesson not translated: the ids it is written with");
    c.execute(
        "document.getElementById(arguments[0]).scrollIntoView({block: 'start', behavior: 'instant'})",
        vec![ja[2].clone().into()],
    )
    .await
    .unwrap();
    let english = c.find(Locator::Css("[data-role=language-switch][hreflang=en]")).await.unwrap();
    english.click().await.unwrap();
    wait_for("the English lesson at the section", || async {
        let at = c.current_url().await.unwrap();
        at.path() == "/lessons/dataparallel" && at.fragment() == Some(en[2].as_str())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_korean_reader_takes_the_course_in_korean() {
    let tmp = tempfile::tempdir().unwrap();
    let base = serve_course(tmp.path()).await;
    let (_driver, webdriver) = start_chromedriver().await;
    let c = browser(
        &webdriver,
        &tmp.path().join("profile"),
        &["--lang=ko-KR", "--accept-lang=ko-KR,ko,en-US,en"],
    )
    .await;

    // `/` by the browser's languages.
    c.goto(&base).await.unwrap();
    wait_for("the Korean home", || async { c.current_url().await.unwrap().path() == "/ko" }).await;
    wait_for_hydration(&c, "the Korean index to hydrate").await;
    no_crash(&c, "the Korean index").await;
    let lang = c.execute("return document.documentElement.lang", vec![]).await.unwrap();
    assert_eq!(lang, "ko");
    assert_eq!(text(&c, "h1").await.as_deref(), Some("코스"));
    let card = text(&c, ".course-card h2").await;
    assert_eq!(card.as_deref(), Some("PyTorch DDP로 배우는 분산 학습"));
    hangul_is_drawn(&c, "the Korean index").await;

    // A client-side navigation stays in Korean.
    let link = c.find(Locator::Css(r#"a[href="/ko/lessons/dataparallel"]"#)).await.unwrap();
    click(&c, &link).await;
    wait_for("lesson 2 in Korean", || async {
        text(&c, ".lesson-position").await.as_deref() == Some("레슨 02 / 10")
    })
    .await;

    // A fresh load: the server's Korean page hydrates as Korean.
    c.refresh().await.unwrap();
    wait_for_hydration(&c, "the Korean lesson to hydrate").await;
    no_crash(&c, "the Korean lesson").await;
    let toggle = c.find(Locator::Css(".toc-toggle")).await.unwrap();
    assert_eq!(toggle.text().await.unwrap(), "접기");
    click(&c, &toggle).await;
    wait_for("the contents to fold, in Korean", || async {
        toggle.text().await.ok().as_deref() == Some("펼치기")
    })
    .await;
    click(&c, &toggle).await;
    hangul_is_drawn(&c, "the Korean lesson").await;
    std::fs::write(artifacts().join("lesson-02-ko.png"), c.screenshot().await.unwrap()).unwrap();

    // The quiz, answered with nothing chosen: its review is Korean.
    let check = c.find(Locator::Css("#quiz-0 button[type=submit]")).await.unwrap();
    assert_eq!(check.text().await.unwrap(), "채점하기");
    click(&c, &check).await;
    wait_for("the quiz review", || async {
        text(&c, "#quiz-0 .quiz-score").await.is_some_and(|t| t.contains("아직 통과 못 함"))
    })
    .await;
    assert_eq!(c.current_url().await.unwrap().path(), "/ko/lessons/dataparallel");
    // The quiz came back as a new page at `#quiz-0`: until it is hydrated the switcher has no
    // handler, and until its smooth scroll to the quiz has ended that scroll carries the page
    // away from the section scrolled to below.
    wait_for_hydration(&c, "the Korean lesson after its quiz").await;

    // The switcher goes to the section being read, in English, and is remembered.
    let (ko, en) = (section_ids(&c, "ko").await, section_ids(&c, "en").await);
    assert_eq!(ko.len(), en.len());
    let n = 3;
    c.execute(
        "document.getElementById(arguments[0]).scrollIntoView({block: 'start', behavior: 'instant'})",
        vec![ko[n].clone().into()],
    )
    .await
    .unwrap();
    let switch = c.find(Locator::Css("[data-role=language-switch]")).await.unwrap();
    assert_eq!(switch.text().await.unwrap(), "English");
    switch.click().await.unwrap();
    wait_for("the English lesson", || async {
        c.current_url().await.unwrap().path() == "/lessons/dataparallel"
    })
    .await;
    let url = c.current_url().await.unwrap();
    assert_eq!(url.fragment(), Some(en[n].as_str()), "the same section: {url}");
    wait_for_hydration(&c, "the English lesson to hydrate").await;
    no_crash(&c, "the English lesson").await;
    c.goto(&base).await.unwrap();
    assert_eq!(c.current_url().await.unwrap().path(), "/", "the choice wins over ko-KR");
    let lang = c.execute("return document.documentElement.lang", vec![]).await.unwrap();
    assert_eq!(lang, "en");

    // The exercise page in Korean.
    c.goto(&format!("{base}/ko/exercises/ddp-conversion")).await.unwrap();
    wait_for_hydration(&c, "the Korean exercise page to hydrate").await;
    no_crash(&c, "the Korean exercise page").await;
    assert_eq!(text(&c, "#checks").await.as_deref(), Some("채점 항목"));
    let checks = text(&c, "[data-role=checks]").await.unwrap();
    assert!(checks.contains("모델을 DDP로 감쌈"), "{checks}");
    let section = c.find(Locator::Css("[data-role=checks] a")).await.unwrap();
    let href = section.attr("href").await.unwrap().unwrap();
    assert!(href.starts_with("/ko/lessons/"), "{href}");
    hangul_is_drawn(&c, "the Korean exercise page").await;
    the_editor_writes_python(&c).await;
    // A check's "read the section" link, followed inside the application: the lesson opens at
    // that section (it opened at its top, the heading thousands of pixels below).
    let mut sections = Vec::new();
    for a in c.find_all(Locator::Css("[data-role=checks] a")).await.unwrap() {
        sections.push(a.attr("href").await.unwrap().unwrap_or_default());
    }
    let deepest = sections.iter().rposition(|h| h.contains('#')).expect("a link to a section");
    let link = &c.find_all(Locator::Css("[data-role=checks] a")).await.unwrap()[deepest];
    let href = sections[deepest].clone();
    click(&c, link).await;
    let (path, anchor) = href.split_once('#').unwrap();
    wait_for("the lesson of the check", || async {
        c.current_url().await.unwrap().path() == path
            && c.find_all(Locator::Css(".lesson-position")).await.unwrap().len() == 1
    })
    .await;
    let anchor = lockstep_routes::percent_decode(anchor);
    let where_ = "const e = document.getElementById(arguments[0]); \
                  return e ? [e.getBoundingClientRect().top, window.scrollY, innerHeight] : null";
    wait_for("the section scrolled into view", || async {
        let at = c.execute(where_, vec![anchor.clone().into()]).await.unwrap();
        let at: Option<(f64, f64, f64)> = serde_json::from_value(at).unwrap();
        at.is_some_and(|(top, y, height)| y > 0.0 && top >= -1.0 && top < height / 2.0)
    })
    .await;
    no_crash(&c, "the lesson opened at a check's section").await;

    // Search from the header's box, then as the learner types on the search page.
    c.goto(&format!("{base}/ko")).await.unwrap();
    wait_for_hydration(&c, "the Korean index to hydrate again").await;
    let boxed = c.find(Locator::Css(".header-search input")).await.unwrap();
    boxed.send_keys("all-reduce\u{E007}").await.unwrap();
    wait_for("the search page's results", || async {
        c.find_all(Locator::Css("[data-role=search-results] li")).await.unwrap().len() > 1
    })
    .await;
    assert_eq!(c.current_url().await.unwrap().path(), "/ko/search");
    wait_for_hydration(&c, "the search page to hydrate").await;
    no_crash(&c, "the search page").await;
    let field = c.find(Locator::Id("search-q")).await.unwrap();
    field.clear().await.unwrap();
    field.send_keys("모델").await.unwrap();
    wait_for("results as the learner types", || async {
        let marks = c.find_all(Locator::Css("[data-role=search-results] mark")).await.unwrap();
        let mut found = false;
        for m in marks {
            found |= m.text().await.unwrap_or_default().contains("모델");
        }
        found
    })
    .await;
    let first = c.find(Locator::Css("[data-role=search-results] a")).await.unwrap();
    let href = first.attr("href").await.unwrap().unwrap();
    assert!(href.starts_with("/ko/lessons/"), "{href}");
    // What a Korean learner types for what the lessons write in English (the course's terms).
    field.clear().await.unwrap();
    field.send_keys("체크포인트").await.unwrap();
    wait_for("체크포인트 finding `checkpoint`", || async {
        let marks = c.find_all(Locator::Css("[data-role=search-results] mark")).await.unwrap();
        let mut found = false;
        for m in marks {
            found |= m.text().await.unwrap_or_default().to_lowercase().contains("checkpoint");
        }
        found
    })
    .await;
    std::fs::write(artifacts().join("search-ko.png"), c.screenshot().await.unwrap()).unwrap();

    c.close().await.unwrap();
}
