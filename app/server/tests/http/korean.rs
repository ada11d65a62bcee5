//! The Korean edition through the router, in-process: every page at its `/ko` twin in Korean,
//! the language chosen at `/` by the switcher's cookie or `Accept-Language`, and progress that
//! is the learner's whatever language they read in.

use crate::common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::in_process::*;
use lockstep_routes::{Lang, Languages};

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
        let ids = |code: &str| {
            let list = format!(r#"data-role="section-ids" data-lang="{code}" data-ids=""#);
            let start = b.find(&list).unwrap() + list.len();
            b[start..].split('"').next().unwrap().split(' ').count()
        };
        assert_eq!(ids("en"), ids("ko"));
        assert!(ids("ko") > 5);

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

/// A language is served where the site is configured with it, and nowhere else: Japanese, which
/// has words for every page's frame and no more, is the tests' third language.
#[test]
fn a_language_is_served_only_where_configured() {
    on_runtime(async {
        let japanese = [(header::ACCEPT_LANGUAGE, "ja-JP,ja;q=0.9")];
        let app = app(&lessons_root()).await;
        for path in ["/ja", "/ja/xp", "/ja/lessons/dataparallel"] {
            let page = get(&app, path, None).await;
            assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}");
            assert!(page.body.contains(r#"<html lang="en">"#), "{}", page.body);
        }
        let switch = get(&app, "/language?to=ja&from=/xp", None).await;
        assert_eq!(switch.status, StatusCode::BAD_REQUEST);
        let home = get_with(&app, "/", &[japanese[0].clone(), (header::COOKIE, "lang=ja")]).await;
        assert_eq!(home.status, StatusCode::OK, "English, not a Japanese home");
        assert!(home.body.contains(r#"<meta name="lockstep-languages" content="en ko">"#));
        assert!(!home.body.contains(r#"hreflang="ja""#), "{}", home.body);

        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("db.sqlite3").display());
        let three = |c: &mut lockstep_server::Config| c.languages = three_languages();
        let app = app_configured(&lessons_root(), &url, dir, three).await;
        let home = get_with(&app, "/", &japanese).await;
        assert_eq!(home.headers[header::LOCATION], "/ja");
        let page = get(&app, "/ja/lessons/dataparallel", None).await;
        assert_eq!(page.status, StatusCode::OK);
        let b = &page.body;
        assert!(b.contains(r#"<html lang="ja""#) && b.contains(">コース</a>"), "{b}");
        assert!(b.contains(r#"<meta name="lockstep-languages" content="en ko ja">"#));
        assert!(b.contains(r#"hreflang="ja" href="/ja/lessons/dataparallel""#), "{b}");
        for to in ["en", "ko"] {
            let switch = format!(r#"href="/language?to={to}&amp;from=/ja/lessons/dataparallel""#);
            assert!(b.contains(&switch), "{b}");
        }
        // The lesson as written, in English, marked so; its links stay in Japanese.
        assert!(b.contains(r#"data-role="untranslated""#), "{b}");
        assert!(b.contains(r#"<div lang="en" class="lesson-body">"#), "{b}");
        assert!(b.contains(r#"href="/ja/lessons/ddp-allreduce"#), "{b}");
        assert!(b.contains("Lesson 02 of 10"), "the frame's other words are English's");
        let slash = get(&app, "/ja/", None).await;
        assert_eq!(slash.headers[header::LOCATION], "/ja");
        let request = Request::get("/sitemap.xml").header(header::HOST, "t.test");
        let sitemap = send(&app, request.body(Body::empty()).unwrap()).await.body;
        assert!(sitemap.contains("<loc>http://t.test/ja/lessons/dataparallel</loc>"), "{sitemap}");
        let search = get(&app, "/ja/search?q=allreduce", None).await;
        assert!(search.body.contains(r#"href="/ja/lessons/"#), "{}", search.body);
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

/// The languages the tests serve: English, Korean, and Japanese, which has a handful of words
/// and falls back to English for the rest.
fn three_languages() -> Languages {
    "en,ko,ja".parse().unwrap()
}

/// An instructor's browser on a fresh site serving [`three_languages`], with a submission of
/// theirs posted from each language's exercise page (in that order), the first graded with a
/// real failed verdict so that its checks' sentences are on its page.
async fn instructor_with_submissions() -> (App, Jar, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("db.sqlite3").display());
    let app = app_configured(&lessons_root(), &url, dir, |c| c.languages = three_languages()).await;
    let store = lockstep_store::Store::connect(&url).await.unwrap();
    let mut jar = signed_up(&app, "kim@example.org").await;
    store.set_role("kim@example.org", lockstep_store::Role::Instructor).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    let script = [("exercise", "ddp-conversion"), ("script", "print(1)")];
    let mut submissions = Vec::new();
    for lang in three_languages().iter() {
        let queued = jar.post(&app, &lang.path("/api/submissions"), &script).await;
        submissions.push(queued.headers[header::LOCATION].to_str().unwrap().to_string());
    }
    let verdict = graded_verdict().to_string();
    let now = lockstep_clock::now_ms();
    let job = store.claim("w", None, &["ddp-conversion"], "lease", 60_000, now).await.unwrap();
    let fail = grading_protocol::Status::Fail;
    store.finish(job.unwrap().job, "lease", fail, "failed", &verdict, now).await.unwrap().unwrap();
    (app, jar, submissions)
}

/// A real failed verdict (`module_forward.json`, the grader's record of a script that bypasses
/// DDP's forward) with what its checks said as sentences, as the grader now keeps them: worded
/// in each reader's language on the page.
fn graded_verdict() -> serde_json::Value {
    use serde_json::json;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../gpu-runner/protocol/tests/verdicts/module_forward.json");
    let mut verdict: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let said = |id: &str| match id {
        "launched" => Some(json!({ "sentence": "one_group", "n": 2, "backend": "gloo" })),
        "ddp_wrapped" => Some(
            json!({ "sentence": "wrapped", "values": 296_449, "site": "module_forward.py:41" }),
        ),
        "sampler_sharding" => Some(json!({
            "sentence": "shards", "reads": [16_384, 16_384], "duplicates": 0,
            "unique": 32_768, "len": 32_768, "padding": 0
        })),
        "sampler_set_epoch" => Some(json!({
            "sentence": "order_changed", "epochs": 5,
            "first": "2732, 733, 1507, 249", "second": "29733, 4406, 32571, 19389"
        })),
        "replicas_in_sync" => Some(json!({
            "sentence": "diverged", "rank": 1, "name": "net.0.weight", "by": 0.0123,
            "by_hand": false
        })),
        _ => None,
    };
    let checks = verdict["checks"].as_array_mut().unwrap();
    checks.retain(|c| said(c["id"].as_str().unwrap()).is_some());
    for check in checks.iter_mut() {
        let failed = check["status"] == "fail";
        let hint = failed.then(|| json!({ "sentence": "hint_bypassed" }));
        check["words"] = json!({ "message": said(check["id"].as_str().unwrap()), "hint": hint });
    }
    verdict["summary_words"] = json!({
        "sentence": "some_failed", "checks": 5, "failed": ["replicas_in_sync"], "skipped": []
    });
    verdict
}

/// Where a crawl of `lang`'s pages starts: its home, the submission posted from its page, and
/// the graded one, as its page in `lang`.
fn starts(lang: Lang, submissions: &[String]) -> Vec<String> {
    let i = three_languages().iter().position(|l| l == lang).unwrap();
    vec![lang.path("/"), submissions[i].clone(), Lang::switch(&submissions[0], lang)]
}

/// The script a language is written in, where it has one of its own: what shows a Korean or
/// Japanese word on a page (English, in Latin letters, is every page's fallback and the
/// language of code and API names, so it is told apart by words, not script).
fn script_of(c: char) -> Option<Lang> {
    match c {
        '가'..='힣' | 'ᄀ'..='ᇿ' | '㄰'..='㆏' => Some(Lang::Ko),
        'ぁ'..='ゟ' | '゠'..='ヿ' | '一'..='鿿' => Some(Lang::Ja),
        _ => None,
    }
}

/// Every page in every language served, as an instructor reaches it by links, the verdict of a
/// graded submission among them: no link or form of it leaves its language (outside the
/// switcher, files and the API), and it speaks its own language or English, the declared
/// fallback of every language (the interface and the course are written in it), and no
/// Korean or Japanese word shows but on a page, or in an element marked `lang`, of that
/// language; outside what the page quotes (code and output, the lessons' and quizzes' text,
/// learners' words, the language switch). Korean pages are translated whole: the English a
/// Korean page may say is in `tests/data/english-on-korean-pages.txt` (names, and terms Korean
/// engineers write in English). Japanese has a handful of words, on every page; the rest of a
/// Japanese page is English.
#[test]
fn every_page_stays_in_and_speaks_its_language_or_its_fallback() {
    on_runtime(async {
        let (app, mut jar, submissions) = instructor_with_submissions().await;
        assert!(submissions[1].starts_with("/ko/submissions/"), "{submissions:?}");
        assert!(submissions[2].starts_with("/ja/submissions/"), "{submissions:?}");
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
        let mut found = std::collections::BTreeMap::<String, Vec<String>>::new();
        let mut verdicts = 0;
        for lang in three_languages().iter() {
            for (path, body) in crawl(&app, &mut jar, starts(lang, &submissions), lang).await {
                verdicts += usize::from(body.contains(r#"data-role="verdict""#));
                let mut note = |what: String| found.entry(what).or_default().push(path.clone());
                // No link and no form leaves the page's language.
                let links = attributes(&body, "a", "href").into_iter().map(|l| ("link", l));
                let forms = attributes(&body, "form", "action").into_iter().map(|a| ("form", a));
                for (kind, target) in links.chain(forms) {
                    let local = target.starts_with('/');
                    if local && !language_free(&target) && Lang::of_path(&target) != lang {
                        note(format!("{lang:?} page's {kind} to {target}"));
                    }
                }
                let spoken = spoken_text(&body, lang);
                for (said_in, text) in &spoken {
                    if *said_in != lang && *said_in != Lang::En {
                        note(format!("{lang:?} page says something in {said_in:?}: {text}"));
                    }
                    // A page, or an element marked as in another language, shows no script
                    // but its own.
                    for c in text.chars() {
                        if let Some(other) = script_of(c).filter(|l| l != said_in) {
                            let word: String = text
                                .split_whitespace()
                                .find(|w| w.contains(c))
                                .unwrap_or_default()
                                .into();
                            note(format!("{other:?} in {said_in:?} on a {lang:?} page: {word}"));
                        }
                    }
                }
                let own = spoken.iter().filter(|(l, _)| *l == lang).map(|(_, t)| t.as_str());
                let text: String = own.collect::<Vec<_>>().join(" ");
                match lang {
                    Lang::En => {
                        let words =
                            text.split_whitespace().filter(|w| w.chars().all(char::is_alphabetic));
                        assert!(words.count() > 20, "{path}: too few words in {text}");
                    }
                    Lang::Ko => {
                        // The page does speak: its own words are read (a page read as all
                        // quotation would pass for nothing).
                        let hangul = text.chars().filter(|c| ('가'..='힣').contains(c)).count();
                        assert!(hangul > 30, "{path}: {hangul} Hangul syllables in {text}");
                        for word in english_words(&text, &allowed) {
                            note(format!("English on a Korean page: {word}"));
                        }
                    }
                    Lang::Ja => {
                        let kana = text.chars().filter(|c| script_of(*c) == Some(Lang::Ja));
                        assert!(kana.count() > 20, "{path}: its Japanese words in {text}");
                    }
                }
            }
        }
        assert!(verdicts >= 3, "the graded submission's page in each language");
        let report: Vec<String> = found
            .into_iter()
            .map(|(what, mut pages)| {
                pages.dedup();
                format!("{what} ({})", pages.into_iter().take(3).collect::<Vec<_>>().join(", "))
            })
            .collect();
        assert!(report.is_empty(), "pages leaving their language:\n{}", report.join("\n"));
    })
}

/// The English words of Korean text, but code named in a sentence (`set_epoch`, `train.py`,
/// `a@b.org`) and the words `allowed`.
fn english_words<'a>(
    text: &'a str,
    allowed: &'a std::collections::BTreeSet<String>,
) -> impl Iterator<Item = &'a str> {
    let punctuation = |c: char| "()[]{}.,:;!?\"'“”‘’·".contains(c);
    text.split_whitespace()
        .filter(move |chunk| {
            let core = chunk.trim_matches(punctuation);
            !(core.contains(['_', '@', '=', '/', '.', '`']) || core.contains("()"))
        })
        .flat_map(|chunk| chunk.split(|c: char| !c.is_ascii_alphabetic()))
        .filter(move |w| w.len() >= 2 && !allowed.contains(&w.to_lowercase()))
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

/// What a reader of `html`, a page in `lang`, reads in the page's own voice: its text and the
/// words of its controls (`aria-label`, `placeholder`, `title`, `alt`), outside what it quotes,
/// each run of it with the language it is marked as (an element's `lang`, else its parent's).
fn spoken_text(html: &str, lang: Lang) -> Vec<(Lang, String)> {
    const VOID: [&str; 12] = [
        "br", "img", "input", "meta", "link", "hr", "source", "wbr", "area", "col", "embed",
        "track",
    ];
    let mut out: Vec<(Lang, String)> = Vec::new();
    let mut say = |lang: Lang, text: &str| {
        if text.trim().is_empty() {
            return;
        }
        match out.last_mut() {
            Some((l, said)) if *l == lang => {
                said.push(' ');
                said.push_str(text);
            }
            _ => out.push((lang, text.to_string())),
        }
    };
    // Each open element: its name, whether it is quoted, the language it is in.
    let mut stack: Vec<(String, bool, Lang)> = Vec::new();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        let (quiet, here) = stack.last().map_or((false, lang), |(_, q, l)| (*q, *l));
        if !quiet {
            say(here, &rest[..lt]);
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
            if let Some(at) = stack.iter().rposition(|(n, _, _)| *n == name) {
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
        // `<html lang>` is the page's own; a code the site has no words for is still English.
        let marked = attribute(&attributes, "lang").filter(|_| name != "html");
        let here = marked.map_or(here, |code| Lang::from_code(&code).unwrap_or(Lang::En));
        if !quiet {
            for said in ["aria-label", "placeholder", "title", "alt"] {
                if let Some(words) = attribute(&attributes, said) {
                    say(here, &words);
                }
            }
        }
        if !VOID.contains(&name.as_str()) && !tag.ends_with('/') {
            stack.push((name, quiet, here));
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
