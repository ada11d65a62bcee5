//! The Korean edition through the router, in-process: every page at its `/ko` twin in Korean,
//! the language chosen at `/` by the switcher's cookie or `Accept-Language`, and progress that
//! is the learner's whatever language they read in.

use crate::common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::in_process::*;
use lockstep_routes::Lang;

async fn get_with(app: &App, path: &str, headers: &[(header::HeaderName, &str)]) -> Page {
    let mut req = Request::get(path).header(header::ACCEPT, "text/html");
    for (name, value) in headers {
        req = req.header(name, *value);
    }
    send(app, req.body(Body::empty()).unwrap()).await
}

#[test]
fn the_korean_index_and_lessons_are_korean_at_their_own_address() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let index = get(&app, "/ko", None).await;
        assert_eq!(index.status, StatusCode::OK);
        let b = &index.body;
        assert!(b.contains(r#"<html lang="ko""#), "{b}");
        assert!(b.contains("PyTorch DDP로 배우는 분산 학습"), "the Korean course title");
        assert!(b.contains(r#"href="/ko/lessons/dataparallel""#), "links stay in Korean");
        assert!(b.contains("레슨 02 / 10"), "{b}");
        assert!(
            b.contains(r#"hreflang="en" href="/""#) && b.contains(r#"hreflang="ko" href="/ko""#)
        );
        assert!(b.contains(r#"href="/language?to=en&amp;from=/ko""#), "the switcher: {b}");

        let lesson = get(&app, "/ko/lessons/dataparallel", None).await;
        assert_eq!(lesson.status, StatusCode::OK);
        let b = &lesson.body;
        assert!(b.contains(r#"<html lang="ko""#));
        assert!(b.contains("레슨 02 / 10"), "{b}");
        assert!(b.contains(r#"action="/ko/lessons/dataparallel/quizzes/0""#), "{b}");
        assert!(b.contains(r#"rel="next" href="/ko/lessons/ddp-allreduce""#));
        assert!(!b.contains(r#"data-role="untranslated""#), "lesson 2 is translated");
        assert!(b.contains(r#"hreflang="en" href="/lessons/dataparallel""#));
        // The switcher's sections: as many in Korean as in English, in the same order.
        let ids = |attr: &str| {
            let start = b.find(&format!("{attr}=\"")).unwrap() + attr.len() + 2;
            b[start..].split('"').next().unwrap().split(' ').count()
        };
        assert_eq!(ids("data-en"), ids("data-ko"));
        assert!(ids("data-ko") > 5);

        // English stays where it was, in English.
        let english = get(&app, "/lessons/dataparallel", None).await;
        assert!(english.body.contains(r#"<html lang="en""#));
        assert!(english.body.contains("Lesson 02 of 10"));

        for path in ["/ko/nope", "/ko/lessons/no-such-lesson"] {
            let page = get(&app, path, None).await;
            assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}");
            assert!(page.body.contains("페이지를 찾을 수 없습니다"), "{path}: {}", page.body);
        }
        let slash = get(&app, "/ko/", None).await;
        assert!(slash.status.is_redirection());
        assert_eq!(slash.headers[header::LOCATION], "/ko");
    })
}

#[test]
fn the_language_alternates_are_absolute_where_the_site_knows_its_address() {
    on_runtime(async {
        let db = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", db.path().join("db.sqlite3").display());
        let public = |c: &mut lockstep_server::Config| {
            c.public_url = Some("https://Lockstep.example.org".into());
        };
        let app = common::in_process::app_configured(&lessons_root(), &url, db, public).await;
        let b = get(&app, "/ko/lessons/dataparallel", None).await.body;
        let origin = "https://lockstep.example.org";
        for (lang, path) in [("en", "/lessons/dataparallel"), ("ko", "/ko/lessons/dataparallel")] {
            assert!(b.contains(&format!(r#"hreflang="{lang}" href="{origin}{path}""#)), "{b}");
        }
        assert!(b.contains(&format!(r#"hreflang="x-default" href="{origin}/""#)), "{b}");
    })
}

#[test]
fn a_lesson_not_translated_is_served_in_english_with_a_korean_notice() {
    on_runtime(async {
        let dir = tempfile::tempdir().unwrap();
        for entry in std::fs::read_dir(course_dir()).unwrap() {
            let entry = entry.unwrap();
            if entry.path().is_file() {
                std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
            }
        }
        // The Korean edition without lesson 4.
        let ko = dir.path().join("ko");
        std::fs::create_dir(&ko).unwrap();
        for entry in std::fs::read_dir(course_dir().join("ko")).unwrap() {
            let entry = entry.unwrap();
            if entry.file_name() != "04-distributed-sampler.md" {
                std::fs::copy(entry.path(), ko.join(entry.file_name())).unwrap();
            }
        }
        let app = app(dir.path()).await;
        let page = get(&app, "/ko/lessons/distributed-sampler", None).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.body.contains(r#"data-role="untranslated""#), "{}", page.body);
        assert!(page.body.contains("영어 원문으로"));
        assert!(page.body.contains("DistributedSampler"), "the English lesson");
        assert!(page.body.contains("레슨 04 / 10"), "in the Korean frame");
    })
}

#[test]
fn home_chooses_by_the_cookie_then_accept_language() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let korean = [(header::ACCEPT_LANGUAGE, "ko-KR,ko;q=0.9,en;q=0.8")];
        let page = get_with(&app, "/", &korean).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER);
        assert_eq!(page.headers[header::LOCATION], "/ko");
        assert!(page.headers[header::VARY].to_str().unwrap().contains("accept-language"));

        let english = [(header::ACCEPT_LANGUAGE, "en-US,en;q=0.9,ko;q=0.5")];
        let page = get_with(&app, "/", &english).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.body.contains(r#"<html lang="en""#));

        // A choice made with the switcher wins over the browser's languages.
        let switched = get(&app, "/language?to=en&from=/ko/lessons/torchrun", None).await;
        assert_eq!(switched.status, StatusCode::SEE_OTHER);
        assert_eq!(switched.headers[header::LOCATION], "/lessons/torchrun");
        let cookie = switched.headers[header::SET_COOKIE].to_str().unwrap();
        assert!(cookie.starts_with("lang=en;") && cookie.contains("Path=/"), "{cookie}");
        let page = get_with(&app, "/", &[korean[0].clone(), (header::COOKIE, "lang=en")]).await;
        assert_eq!(page.status, StatusCode::OK);
        let page = get_with(&app, "/", &[english[0].clone(), (header::COOKIE, "lang=ko")]).await;
        assert_eq!(page.headers[header::LOCATION], "/ko");

        // The switcher goes nowhere but this site.
        for from in ["//evil.example/", "https://evil.example/"] {
            let page = get(&app, &format!("/language?to=ko&from={from}"), None).await;
            assert_eq!(page.headers[header::LOCATION], "/ko", "{from}");
        }
        let bad = get(&app, "/language?to=xx&from=/", None).await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    })
}

#[test]
fn a_quiz_answered_in_korean_counts_in_english_and_once() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        // The Korean page shows the same quiz in the same order rules: answer it there.
        let page = get(&app, "/ko/lessons/dataparallel", None).await;
        let shown = common::shown_quiz(&page.body, 0);
        let korean = course_dir().join("ko");
        let right = common::DATAPARALLEL_RIGHT;
        let fields = common::quiz_form_in(&shown, "dataparallel", 0, right, &korean);
        let req = Request::post("/ko/lessons/dataparallel/quizzes/0")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "text/html")
            .body(Body::from(form_body(&fields)))
            .unwrap();
        let res = send(&app, req).await;
        assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
        assert_eq!(res.headers[header::LOCATION], "/ko/lessons/dataparallel#quiz-0");
        let set = res.headers[header::SET_COOKIE].to_str().unwrap();
        let cookie = set.split(';').next().unwrap().to_string();

        let korean = get(&app, "/ko/lessons/dataparallel", Some(&cookie)).await;
        assert!(korean.body.contains("통과: 4문제 중 4문제 정답."), "{}", korean.body);
        let english = get(&app, "/lessons/dataparallel", Some(&cookie)).await;
        assert!(english.body.contains("Passed: 4 of 4 right."), "the same review in English");
        assert!(english.body.contains("20 XP"));

        // Answering again in English earns nothing more.
        let page = get(&app, "/lessons/dataparallel", Some(&cookie)).await;
        let shown = common::shown_quiz(&page.body, 0);
        let fields = common::quiz_form(&shown, "dataparallel", 0, common::DATAPARALLEL_RIGHT);
        let req = Request::post("/lessons/dataparallel/quizzes/0")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "text/html")
            .header(header::COOKIE, &cookie)
            .body(Body::from(form_body(&fields)))
            .unwrap();
        assert_eq!(send(&app, req).await.status, StatusCode::SEE_OTHER);
        let xp = get(&app, "/ko/xp", Some(&cookie)).await;
        assert_eq!(xp.status, StatusCode::OK);
        assert!(xp.body.contains("20 XP"), "{}", xp.body);

        // A form that does not fit the quiz, from the Korean page: the error page is Korean,
        // and English from the English page.
        for (path, lang, title, words) in [
            (
                "/ko/lessons/dataparallel/quizzes/0",
                "ko",
                "잘못된 요청",
                "이 답은 퀴즈와 맞지 않습니다: ",
            ),
            (
                "/lessons/dataparallel/quizzes/0",
                "en",
                "Bad Request",
                "these answers do not fit the quiz: ",
            ),
        ] {
            let req = Request::post(path)
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .header(header::ACCEPT, "text/html")
                .body(Body::from("attempt=0&q40=0&q41=%3Cscript%3E"))
                .unwrap();
            let res = send(&app, req).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
            let b = &res.body;
            assert!(b.contains(&format!(r#"<html lang="{lang}">"#)), "{b}");
            assert!(b.contains(&format!("<h1>{title}</h1><p>{words}")), "{b}");
            assert!(!b.contains("<script>"), "{b}");
        }
    })
}

#[test]
fn account_forms_and_a_submission_work_in_korean_without_javascript() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let mut jar = Jar::default();
        let account = jar.get(&app, "/ko/account").await;
        assert!(account.body.contains(r#"action="/ko/account/sign-up""#), "{}", account.body);

        // A refused form comes back to the Korean page.
        let weak = jar
            .post(
                &app,
                "/ko/account/sign-up",
                &[("email", "min@example.org"), ("password", "short")],
            )
            .await;
        assert_eq!(weak.status, StatusCode::SEE_OTHER);
        assert_eq!(weak.headers[header::LOCATION], "/ko/account");
        let page = jar.get(&app, "/ko/account").await;
        assert!(
            page.body.contains("더 강한 비밀번호를 고르세요: 10자 이상으로 만드세요."),
            "{}",
            page.body
        );

        // Signed up: back to the Korean home, signed in.
        let ok = jar
            .post(
                &app,
                "/ko/account/sign-up",
                &[("email", "min@example.org"), ("password", "a long enough password")],
            )
            .await;
        assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
        assert_eq!(ok.headers[header::LOCATION], "/ko");
        let home = jar.get(&app, "/ko").await;
        assert!(home.body.contains("계정으로 로그인됨"), "{}", home.body);
        assert!(home.body.contains("min@example.org 계정으로 로그인했습니다."), "the notice");

        // A script submitted from the Korean exercise page: its page is Korean.
        let exercise = jar.get(&app, "/ko/exercises/ddp-conversion").await;
        assert!(exercise.body.contains(r#"action="/ko/api/submissions""#), "{}", exercise.body);
        let fields = [
            ("exercise", "ddp-conversion"),
            ("file_name", "train.py"),
            ("script", "print('typed')\n"),
        ];
        let sent = jar.post_multipart(&app, "/ko/api/submissions", &fields, ("", b"")).await;
        assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.body);
        let to = sent.headers[header::LOCATION].to_str().unwrap().to_string();
        assert!(to.starts_with("/ko/submissions/"), "{to}");
        let submission = jar.get(&app, &to).await;
        assert!(submission.body.contains("채점 머신을 기다리는 중입니다"), "{}", submission.body);
    })
}

/// The attribute `name` of each `<tag …>` in `html`, with `&amp;` read back.
fn attributes(html: &str, tag: &str, name: &str) -> Vec<String> {
    html.split(&format!("<{tag} "))
        .skip(1)
        .filter_map(|t| {
            let t = t.split('>').next()?;
            let value = t
                .split(&format!(" {name}=\""))
                .nth(1)
                .or_else(|| t.strip_prefix(&format!("{name}=\"")))?;
            Some(value.split('"').next()?.replace("&amp;", "&"))
        })
        .collect()
}

/// Where a link or a form of a Korean page may lead outside `/ko`: the language switch, files
/// and downloads, which are the same in every language.
fn language_free(target: &str) -> bool {
    target.starts_with("/language?")
        || target.starts_with("/pkg/")
        || target.starts_with("/api/")
        || [".css", ".js", ".svg", ".woff2", ".csv", ".xml", ".png"]
            .iter()
            .any(|ext| target.split(['?', '#']).next().unwrap_or_default().ends_with(ext))
}

/// Every page a signed-in instructor reaches from `start` by links of its own language (an
/// instructor sees every form there is; each start has a submission of theirs), with its HTML.
async fn crawl(app: &App, jar: &mut Jar, start: Vec<String>, lang: Lang) -> Vec<(String, String)> {
    let mut seen = std::collections::BTreeSet::new();
    let mut pages = Vec::new();
    let mut to_visit = start;
    while let Some(path) = to_visit.pop() {
        if !seen.insert(path.clone()) || seen.len() > 120 {
            continue;
        }
        let page = jar.get(app, &path).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        for link in attributes(&page.body, "a", "href") {
            let page_path = link.split('#').next().unwrap_or_default().to_string();
            let same = page_path.starts_with('/') && Lang::of_path(&page_path) == lang;
            if same && !language_free(&page_path) && !seen.contains(&page_path) {
                to_visit.push(page_path);
            }
        }
        pages.push((path, page.body));
    }
    assert!(pages.len() > 20, "the crawl reached {} pages: {seen:?}", pages.len());
    pages
}

/// An instructor's browser on a fresh site, with a submission of theirs in each language.
async fn instructor_with_submissions() -> (App, Jar, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("db.sqlite3").display());
    let app = app_on(&lessons_root(), &url, dir).await;
    let store = lockstep_store::Store::connect(&url).await.unwrap();
    let mut jar = signed_up(&app, "kim@example.org").await;
    store.set_role("kim@example.org", lockstep_store::Role::Instructor).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    let script = [("exercise", "ddp-conversion"), ("script", "print(1)")];
    let mut submissions = Vec::new();
    for prefix in ["", "/ko"] {
        let queued = jar.post(&app, &format!("{prefix}/api/submissions"), &script).await;
        submissions.push(queued.headers[header::LOCATION].to_str().unwrap().to_string());
    }
    (app, jar, submissions)
}

/// Every page a signed-in instructor reaches from `/ko` by its links: each link and each form
/// of each page stays under `/ko`, so no click and no post drops the reader into the English
/// site.
#[test]
fn no_korean_page_links_or_posts_out_of_korean() {
    on_runtime(async {
        let (app, mut jar, submissions) = instructor_with_submissions().await;
        assert!(submissions[1].starts_with("/ko/submissions/"), "{submissions:?}");
        let start = vec!["/ko".to_string(), submissions[1].clone()];
        let mut lost = Vec::new();
        for (path, body) in crawl(&app, &mut jar, start, Lang::Ko).await {
            let links = attributes(&body, "a", "href").into_iter().map(|l| ("link", l));
            let forms = attributes(&body, "form", "action").into_iter().map(|a| ("form", a));
            for (kind, target) in links.chain(forms) {
                let local = target.starts_with('/');
                if local && !language_free(&target) && Lang::of_path(&target) != Lang::Ko {
                    lost.push(format!("{path}: {kind} to {target}"));
                }
            }
        }
        lost.sort();
        lost.dedup();
        assert!(lost.is_empty(), "Korean pages leaving Korean:\n{}", lost.join("\n"));
    })
}

/// Every page in each language, as an instructor reaches it by links: no English on a Korean
/// page and no Korean on an English one, outside what the page quotes (code and output, the
/// lessons' and quizzes' text, learners' words, the language switch). The
/// English a Korean page may say is in `tests/data/english-on-korean-pages.txt`: names, and
/// terms Korean engineers write in English.
#[test]
fn every_page_speaks_its_language() {
    on_runtime(async {
        let (app, mut jar, submissions) = instructor_with_submissions().await;
        let allowed = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/english-on-korean-pages.txt"),
        )
        .unwrap();
        let allowed: std::collections::BTreeSet<String> = allowed
            .lines()
            .map(|l| l.split('#').next().unwrap_or_default().trim().to_lowercase())
            .filter(|l| !l.is_empty())
            .collect();
        let mut english = std::collections::BTreeMap::<String, Vec<String>>::new();
        let start = vec!["/ko".to_string(), submissions[1].clone()];
        for (path, body) in crawl(&app, &mut jar, start, Lang::Ko).await {
            let text = spoken_text(&body);
            // The page does speak: its own words are read (a page read as all quotation would
            // pass for nothing).
            let hangul = text.chars().filter(|c| ('가'..='힣').contains(c)).count();
            assert!(hangul > 30, "{path}: {hangul} Hangul syllables in {text}");
            // Code named in a sentence is code: `set_epoch`, `train.py`, `a@b.org`.
            let punctuation = |c: char| "()[]{}.,:;!?\"'“”‘’·".contains(c);
            let plain = text.split_whitespace().filter(|chunk| {
                let core = chunk.trim_matches(punctuation);
                !(core.contains(['_', '@', '=', '/', '.', '`']) || core.contains("()"))
            });
            let words = plain
                .flat_map(|chunk| chunk.split(|c: char| !c.is_ascii_alphabetic()))
                .filter(|w| w.len() >= 2 && !allowed.contains(&w.to_lowercase()));
            for word in words {
                english.entry(word.to_string()).or_default().push(path.clone());
            }
        }
        let mut korean = std::collections::BTreeMap::<String, Vec<String>>::new();
        let start = vec!["/".to_string(), submissions[0].clone()];
        for (path, body) in crawl(&app, &mut jar, start, Lang::En).await {
            let text = spoken_text(&body);
            let words = text.split_whitespace().filter(|w| w.chars().all(char::is_alphabetic));
            assert!(words.count() > 20, "{path}: too few words in {text}");
            for word in text.split(|c: char| !('가'..='힣').contains(&c)).filter(|w| !w.is_empty())
            {
                korean.entry(word.to_string()).or_default().push(path.clone());
            }
        }
        let report = |found: std::collections::BTreeMap<String, Vec<String>>| {
            found
                .into_iter()
                .map(|(word, mut pages)| {
                    pages.dedup();
                    format!("{word}: {}", pages.into_iter().take(3).collect::<Vec<_>>().join(", "))
                })
                .collect::<Vec<_>>()
        };
        let (english, korean) = (report(english), report(korean));
        assert!(english.is_empty(), "English on Korean pages:\n{}", english.join("\n"));
        assert!(korean.is_empty(), "Korean on English pages:\n{}", korean.join("\n"));
    })
}

/// Elements whose text a page quotes rather than speaks: code and output, the lessons' and
/// quizzes' own prose (written by the course, checked by `lessons check`), what learners
/// wrote, and the language switch, which names the other language in it.
fn quoted(name: &str, attributes: &str) -> bool {
    const QUOTING: [&str; 12] = [
        "script", "style", "code", "pre", "svg", "math", "textarea", "kbd", "samp", "template",
        "noscript", "var",
    ];
    let class = attribute(attributes, "class").unwrap_or_default();
    QUOTING.contains(&name)
        || attribute(attributes, "data-role").as_deref() == Some("language-switch")
        || class.split(' ').any(|c| QUOTED_CLASSES.contains(&c))
}

/// The classes of what a page quotes (see [`quoted`]).
const QUOTED_CLASSES: [&str; 9] = [
    "prose",
    "course-text",
    "tags",
    "toc-list",
    "comment-body",
    "report-body",
    "notification-answer",
    "search-snippet",
    "exercise-task",
];

fn attribute(attributes: &str, name: &str) -> Option<String> {
    let at = attributes.find(&format!(" {name}=\""))?;
    let rest = &attributes[at + name.len() + 3..];
    Some(rest[..rest.find('"')?].to_string())
}

/// What a reader of `html` reads in the page's own voice: its text and the words of its
/// controls (`aria-label`, `placeholder`, `title`, `alt`), outside what it quotes.
fn spoken_text(html: &str) -> String {
    const VOID: [&str; 12] = [
        "br", "img", "input", "meta", "link", "hr", "source", "wbr", "area", "col", "embed",
        "track",
    ];
    let mut out = String::new();
    let mut stack: Vec<(String, bool)> = Vec::new();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        let quiet = stack.last().is_some_and(|(_, q)| *q);
        if !quiet {
            out.push_str(&rest[..lt]);
            out.push(' ');
        }
        rest = &rest[lt..];
        if rest.starts_with("<!--") {
            rest = rest.find("-->").map_or("", |e| &rest[e + 3..]);
            continue;
        }
        // The tag, to its `>` outside quotes.
        let mut in_quotes = false;
        let end = rest
            .char_indices()
            .find(|(_, c)| {
                if *c == '"' {
                    in_quotes = !in_quotes;
                }
                *c == '>' && !in_quotes
            })
            .map_or(rest.len(), |(i, _)| i);
        let tag = &rest[1..end];
        rest = rest.get(end + 1..).unwrap_or("");
        if let Some(closing) = tag.strip_prefix('/') {
            let name = closing.trim().to_ascii_lowercase();
            if let Some(at) = stack.iter().rposition(|(n, _)| *n == name) {
                stack.truncate(at);
            }
            continue;
        }
        if tag.starts_with('!') {
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        let attributes = format!(" {}", &tag[name.len()..]);
        let quiet = quiet || quoted(&name, &attributes);
        if !quiet {
            for said in ["aria-label", "placeholder", "title", "alt"] {
                if let Some(words) = attribute(&attributes, said) {
                    out.push_str(&words);
                    out.push(' ');
                }
            }
        }
        if !VOID.contains(&name.as_str()) && !tag.ends_with('/') {
            stack.push((name, quiet));
        }
    }
    out
}

/// A course written in Korean first (`languages = ["ko", "en"]`, the fixture in
/// `app/course/tests/data/korean-first`): its Korean pages are the lessons as written, its
/// English pages their translation, or the Korean lesson with an English notice until one is
/// made; search finds it in both; its XP is counted as any course's.
#[test]
fn a_course_written_in_korean_first() {
    on_runtime(async {
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../course/tests/data/korean-first/collectives");
        let root = tempfile::tempdir().unwrap();
        let status = std::process::Command::new("cp")
            .arg("-r")
            .arg(&fixture)
            .arg(root.path())
            .status()
            .unwrap();
        assert!(status.success());
        // The first lesson not translated yet.
        std::fs::remove_file(root.path().join("collectives/en/01-ranks.md")).unwrap();
        let app = app(root.path()).await;

        let page = get(&app, "/ko/lessons/ranks", None).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.body.contains(">rank와 world size</h1>"), "{}", page.body);
        assert!(!page.body.contains(r#"data-role="untranslated""#), "the lesson as written");
        let page = get(&app, "/lessons/ranks", None).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.body.contains(r#"<h1 lang="ko">rank와 world size</h1>"#), "{}", page.body);
        assert!(page.body.contains(r#"data-role="untranslated" lang="en""#));
        assert!(page.body.contains("shown as it is written, in Korean"));
        assert!(page.body.contains(r#"<div lang="ko" class="lesson-body">"#));
        assert!(page.body.contains("Lesson 01 of 02"), "in the English frame");
        let page = get(&app, "/lessons/all-reduce", None).await;
        assert!(page.body.contains("<h1>What all_reduce leaves behind</h1>"), "{}", page.body);
        assert!(!page.body.contains(r#"data-role="untranslated""#));
        let page = get(&app, "/ko/lessons/all-reduce", None).await;
        assert!(page.body.contains("<h1>all_reduce가 남기는 값</h1>"));

        let course = get(&app, "/courses/collectives", None).await;
        assert!(course.body.contains("Collective communication basics"), "{}", course.body);
        let course = get(&app, "/ko/courses/collectives", None).await;
        assert!(course.body.contains("collective 통신 기초"));

        for (path, hit) in [
            ("/ko/search?q=zephyrquokka", r#"href="/ko/lessons/ranks"#),
            ("/search?q=zephyrquokka", r#"href="/lessons/ranks"#),
            ("/search?q=overwrites", r#"href="/lessons/all-reduce"#),
        ] {
            let page = get(&app, path, None).await;
            assert!(page.body.contains(hit), "{path}: {}", page.body);
        }

        // Completing the first lesson (30 XP) and passing the quiz (20 XP) on Korean pages.
        let mut ada = signed_up(&app, "ada@example.org").await;
        let lesson = ada.get(&app, "/ko/lessons/ranks").await;
        let action = lesson.body.split(r#"action=""#).find(|s| s.starts_with("/api/")).unwrap();
        let action = action.split('"').next().unwrap().to_string();
        ada.post(&app, &action, &[("slug", "ranks"), ("lang", "ko")]).await;
        let lesson = ada.get(&app, "/ko/lessons/all-reduce").await;
        let shown = common::shown_quiz(&lesson.body, 0);
        let answers = common::quiz_form_in(&shown, "all-reduce", 0, &[(0, 0)], &fixture);
        let page = ada.submit(&app, "/ko/lessons/all-reduce/quizzes/0", &pairs(&answers)).await;
        let xp = page.body.split(r#"data-role="xp">"#).nth(1).expect("a progress panel");
        assert_eq!(xp.split(" XP").next().unwrap(), "50", "{}", page.body);
    })
}
