//! The Korean edition through the router, in-process: every page at its `/ko` twin in Korean,
//! the language chosen at `/` by the switcher's cookie or `Accept-Language`, and progress that
//! is the learner's whatever language they read in.

use crate::common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::in_process::*;

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
        assert!(b.contains("레슨 2 / 10"), "{b}");
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

/// Every page a signed-in instructor reaches from `/ko` by its links (an instructor sees every
/// form there is, and has a submission of their own): each link and each form of each page
/// stays under `/ko`, so no click and no post drops the reader into the English site.
#[test]
fn no_korean_page_links_or_posts_out_of_korean() {
    on_runtime(async {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("db.sqlite3").display());
        let app = app_on(&lessons_root(), &url, dir).await;
        let store = lockstep_store::Store::connect(&url).await.unwrap();
        let mut jar = signed_up(&app, "kim@example.org").await;
        store.set_role("kim@example.org", lockstep_store::Role::Instructor).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
        let script = [("exercise", "ddp-conversion"), ("script", "print(1)")];
        let queued = jar.post(&app, "/ko/api/submissions", &script).await;
        let submission = queued.headers[header::LOCATION].to_str().unwrap().to_string();
        assert!(submission.starts_with("/ko/submissions/"), "{submission}");

        let mut seen = std::collections::BTreeSet::new();
        let mut to_visit = vec!["/ko".to_string(), submission];
        let mut lost = Vec::new();
        while let Some(path) = to_visit.pop() {
            if !seen.insert(path.clone()) || seen.len() > 120 {
                continue;
            }
            let page = jar.get(&app, &path).await;
            assert_eq!(page.status, StatusCode::OK, "{path}");
            let links = attributes(&page.body, "a", "href");
            for (kind, target) in links
                .iter()
                .map(|l| ("link", l))
                .chain(attributes(&page.body, "form", "action").iter().map(|a| ("form", a)))
                .map(|(k, t)| (k, t.clone()))
                .collect::<Vec<_>>()
            {
                let local = target.starts_with('/');
                if local
                    && !language_free(&target)
                    && lockstep_routes::Lang::of_path(&target) != lockstep_routes::Lang::Ko
                {
                    lost.push(format!("{path}: {kind} to {target}"));
                }
            }
            for link in links {
                let page_path = link.split('#').next().unwrap_or_default().to_string();
                let korean =
                    lockstep_routes::Lang::of_path(&page_path) == lockstep_routes::Lang::Ko;
                if korean && !language_free(&page_path) && !seen.contains(&page_path) {
                    to_visit.push(page_path);
                }
            }
        }
        assert!(seen.len() > 20, "the crawl reached {} pages: {seen:?}", seen.len());
        lost.sort();
        lost.dedup();
        assert!(lost.is_empty(), "Korean pages leaving Korean:\n{}", lost.join("\n"));
    })
}
