//! The application through its router, in-process: pages, status codes, a broken lesson, live
//! reload, and recording progress with a plain form post (no JavaScript).

use crate::common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::in_process::*;

/// Copies the real course into a temporary directory the test may edit.
fn copy_course() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    // The lessons and course.toml; `facts/` is the lessons' fact scripts, not part of a page.
    for entry in std::fs::read_dir(course_dir()).unwrap() {
        let entry = entry.unwrap();
        if entry.path().is_file() {
            std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
        }
    }
    dir
}

/// Where the lesson page's "Mark lesson complete" form posts to.
/// The action of the first server function's form: the lesson's "Mark complete".
fn form_action(html: &str) -> String {
    html.split("action=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .find(|a| a.starts_with("/api/"))
        .expect("a form")
        .to_string()
}

/// The course with a typo (`tagz`) on line 4 of lesson 4's front matter.
fn course_with_broken_sampler_lesson() -> tempfile::TempDir {
    let dir = copy_course();
    let file = dir.path().join("04-distributed-sampler.md");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replacen("tags =", "tagz =", 1)).unwrap();
    dir
}

#[test]
fn the_catalogue_and_the_course_page_list_the_ten_lessons_in_order() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        // The catalogue of one course lists its lessons under its card, as its own page does.
        let home = get(&app, "/", None).await;
        assert_eq!(home.status, StatusCode::OK);
        assert!(home.body.contains("<title>Courses · Lockstep</title>"), "{}", home.body);
        assert!(home.body.contains(r#"href="/courses/ddp""#), "the course's card");
        assert!(home.body.contains("Start: Why distributed training?"), "{}", home.body);
        let page = get(&app, "/courses/ddp", None).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(
            page.body.contains("<title>Distributed training with PyTorch DDP · Lockstep</title>"),
            "{}",
            page.body
        );
        let positions: Vec<usize> = [
            "/lessons/why-distributed",
            "/lessons/dataparallel",
            "/lessons/ddp-allreduce",
            "/lessons/distributed-sampler",
            "/lessons/torchrun",
            "/lessons/checkpoints-and-pitfalls",
            "/lessons/accumulation-and-mixed-precision",
            "/lessons/debugging-hangs",
            "/lessons/fault-tolerance",
            "/lessons/when-ddp-is-not-enough",
        ]
        .iter()
        .map(|href| {
            page.body
                .find(&format!("href=\"{href}\""))
                .unwrap_or_else(|| panic!("no link to {href}"))
        })
        .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "lessons out of order: {positions:?}");
        assert!(page.body.contains("Lesson 02 of 10"), "numbered as the lesson numbers itself");
        assert!(page.body.contains("0/10"), "progress starts at zero");
        for lesson in ["/lessons/why-distributed", "/lessons/when-ddp-is-not-enough"] {
            assert!(home.body.contains(&format!("href=\"{lesson}\"")), "{lesson}");
        }
    })
}

#[test]
fn lesson_page_is_complete_without_javascript() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let page = get(&app, "/lessons/dataparallel", None).await;
        assert_eq!(page.status, StatusCode::OK);
        let b = &page.body;
        assert!(b.contains("Lesson 02 of 10"), "position");
        assert!(b.contains("<h1>DataParallel and the master-GPU bottleneck</h1>"));
        assert!(b.contains(r#"<span class="code-title">"#), "titled code block");
        assert!(
            b.contains(r#"class="toc""#) && b.contains(r##"href="#one-process-many-threads""##),
            "table of contents"
        );
        assert!(b.contains(r#"rel="prev" href="/lessons/why-distributed""#));
        assert!(b.contains(r#"rel="next" href="/lessons/ddp-allreduce""#));
        assert!(b.contains("<math"), "math is rendered on the server");
        // It hydrates only its islands, with the lessons' bundle.
        assert!(b.contains("/pkg/lesson/lesson.js"), "hydration script");
    })
}

#[test]
fn unknown_pages_are_404() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        for path in ["/nope", "/lessons/no-such-lesson"] {
            let page = get(&app, path, None).await;
            assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}");
            assert!(page.body.contains("Page not found"), "{path}");
        }
    })
}

#[test]
fn broken_lesson_gets_an_error_page_and_the_rest_keeps_serving() {
    on_runtime(async {
        let dir = course_with_broken_sampler_lesson();
        let app = app(dir.path()).await;

        let broken = get(&app, "/lessons/distributed-sampler", None).await;
        assert_eq!(broken.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(
            broken.body.contains("04-distributed-sampler.md:4: front matter: unknown field `tagz`"),
            "{}",
            broken.body
        );

        let index = get(&app, "/", None).await;
        assert_eq!(index.status, StatusCode::OK);
        assert!(index.body.contains("unavailable: the lesson file has errors"));
        assert_eq!(get(&app, "/lessons/torchrun", None).await.status, StatusCode::OK);
    })
}

#[test]
fn edited_lesson_shows_on_next_request() {
    on_runtime(async {
        let dir = copy_course();
        let app = app(dir.path()).await;
        assert!(get(&app, "/lessons/torchrun", None).await.body.contains("<h1>"));
        let file = dir.path().join("05-torchrun.md");
        let text = std::fs::read_to_string(&file).unwrap();
        let old_title = text.lines().find(|l| l.starts_with("title = ")).unwrap().to_string();
        std::fs::write(
            &file,
            text.replacen(&old_title, "title = \"Launching with torchrun, edited live\"", 1),
        )
        .unwrap();
        let page = get(&app, "/lessons/torchrun", None).await;
        assert!(
            page.body.contains("<h1>Launching with torchrun, edited live</h1>"),
            "{}",
            page.body
        );
    })
}

#[test]
fn completing_a_lesson_works_as_a_plain_form_post() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let lesson = get(&app, "/lessons/ddp-allreduce", None).await;
        let action = form_action(&lesson.body);
        let action = action.as_str();
        assert!(action.starts_with("/api/"), "{action}");

        let post = |cookie: Option<String>| {
            let mut req = Request::post(action)
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .header(header::ACCEPT, "text/html")
                .header(header::REFERER, "http://localhost/lessons/ddp-allreduce");
            if let Some(c) = cookie {
                req = req.header(header::COOKIE, c);
            }
            req.body(Body::from("slug=ddp-allreduce")).unwrap()
        };
        let res = send(&app, post(None)).await;
        assert!(res.status.is_redirection(), "no-JS form posts redirect back: {}", res.status);
        let location = res.headers[header::LOCATION].to_str().unwrap();
        // Back to the page it came from, by its path: a redirect never names another site.
        assert!(location.starts_with("/lessons/ddp-allreduce"), "{location}");
        let set_cookie = res.headers[header::SET_COOKIE].to_str().unwrap();
        assert!(
            set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Lax"),
            "{set_cookie}"
        );
        let cookie = set_cookie.split(';').next().unwrap().to_string();

        // Completing twice is harmless and sets no second cookie.
        let again = send(&app, post(Some(cookie.clone()))).await;
        assert!(again.status.is_redirection());
        assert!(again.headers.get(header::SET_COOKIE).is_none());

        let index = get(&app, "/", Some(&cookie)).await;
        assert!(index.body.contains("1/10"), "{}", index.body);
        let lesson = get(&app, "/lessons/ddp-allreduce", Some(&cookie)).await;
        assert!(lesson.body.contains("You completed this lesson"));
        // Another visitor sees their own progress, not this one.
        assert!(get(&app, "/", None).await.body.contains("0/10"));
    })
}

#[test]
fn completing_an_unknown_lesson_is_refused() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let lesson = get(&app, "/lessons/ddp-allreduce", None).await;
        let action = form_action(&lesson.body);
        let req = Request::post(&action)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from("slug=not-a-lesson"))
            .unwrap();
        let res = send(&app, req).await;
        // A refusal, not a fault: monitoring counts 5xx as the server's.
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        assert!(res.body.contains("there is no lesson `not-a-lesson`"), "{}", res.body);
        for bad in ["", "slg=typo", "slug=a&slug=b&slug=%ZZ"] {
            let req = Request::post(&action)
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .body(Body::from(bad))
                .unwrap();
            let res = send(&app, req).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "`{bad}`: {}", res.body);
        }
    })
}

/// The policy a response carries, and the nonce its `script-src` names.
fn policy(page: &Page) -> (String, Option<String>) {
    let policy = page.headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap().to_string();
    let nonce = policy.split("'nonce-").nth(1).map(|n| n.split('\'').next().unwrap().to_string());
    (policy, nonce)
}

#[test]
fn every_answer_carries_the_security_headers_and_each_page_a_fresh_nonce() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        // The same lesson twice: the second comes from the page cache, with a new nonce.
        let first = get(&app, "/lessons/dataparallel", None).await;
        let second = get(&app, "/lessons/dataparallel", None).await;
        let mut nonces = Vec::new();
        for page in [&first, &second] {
            let (policy, nonce) = policy(page);
            let nonce = nonce.expect("a page's policy names its nonce");
            assert!(
                page.body.contains(&format!("nonce=\"{nonce}\"")),
                "the page's scripts carry it"
            );
            let scripts = policy.split(';').find(|d| d.trim().starts_with("script-src")).unwrap();
            assert!(!scripts.contains("'unsafe-inline'"), "{policy}");
            assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
            // Every inline script carries the nonce: no other could run.
            for script in page.body.split("<script").skip(1) {
                let tag = script.split('>').next().unwrap();
                assert!(tag.contains(" src=") || tag.contains(&nonce), "<script{tag}>");
            }
            nonces.push(nonce);
        }
        assert_ne!(nonces[0], nonces[1], "a nonce is never sent twice");
        // Not a page: nothing may load from it or frame it.
        let json = send(&app, Request::get("/api/submissions").body(Body::empty()).unwrap()).await;
        let not_found = get(&app, "/no-such-page", None).await;
        for page in [&first, &json, &not_found] {
            assert_eq!(page.headers["x-content-type-options"], "nosniff");
            assert_eq!(page.headers["referrer-policy"], "same-origin");
            assert_eq!(page.headers["x-frame-options"], "DENY");
        }
        assert_eq!(policy(&json).0, "default-src 'none'; frame-ancestors 'none'; sandbox");
    })
}

/// Every answer names the request's id, which the server's log lines carry; the id is the
/// server's, one a client sends is replaced.
#[test]
fn every_answer_carries_a_fresh_request_id() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let id = |page: &Page| page.headers["x-request-id"].to_str().unwrap().to_string();
        let (a, b) = (get(&app, "/", None).await, get(&app, "/", None).await);
        assert_ne!(id(&a), id(&b));
        let chosen = Request::get("/nope").header("x-request-id", "forged");
        let page = send(&app, chosen.body(Body::empty()).unwrap()).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND);
        assert_ne!(id(&page), "forged");
        assert!(id(&page).len() == 24 && id(&page).chars().all(|c| c.is_ascii_hexdigit()));
    })
}

/// Many requests at once on one server, as under real load: every one must complete.
#[test]
fn concurrent_requests_all_complete() {
    on_runtime(async {
        let dir = course_with_broken_sampler_lesson();
        let app = std::sync::Arc::new(app(dir.path()).await);
        let paths = [
            "/",
            "/lessons/dataparallel",
            "/lessons/distributed-sampler",
            "/nope",
            "/lessons/torchrun",
        ];
        let mut tasks = Vec::new();
        for i in 0..200 {
            let app = app.clone();
            let path = paths[i % paths.len()];
            tasks.push(tokio::spawn(async move { get(&app, path, None).await.status }));
        }
        let all = async {
            for t in tasks {
                t.await.unwrap();
            }
        };
        tokio::time::timeout(Duration::from_secs(30), all).await.expect("every request completes");
    })
}

/// The `name=value` of the learner cookie a response sets.
fn learner_cookie(res: &Page) -> String {
    let set = res.headers[header::SET_COOKIE].to_str().unwrap();
    set.split(';').next().unwrap().to_string()
}

/// Posts quiz answers as the quiz's plain form does.
async fn answer_quiz(app: &App, path: &str, body: &str, cookie: Option<&str>) -> Page {
    let mut req = Request::post(path)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "text/html");
    if let Some(c) = cookie {
        req = req.header(header::COOKIE, c);
    }
    send(app, req.body(Body::from(body.to_string())).unwrap()).await
}

/// Lesson 2's quiz answered right, as the learner of `cookie` (or a new visitor) is shown it.
async fn all_right(app: &App, cookie: Option<&str>) -> String {
    form_body(&dataparallel_quiz(app, cookie, common::DATAPARALLEL_RIGHT).await)
}

/// Lesson 2's quiz with its first question wrong and the rest unanswered.
async fn all_wrong(app: &App, cookie: Option<&str>) -> String {
    form_body(&dataparallel_quiz(app, cookie, common::DATAPARALLEL_WRONG).await)
}

#[test]
fn a_quiz_is_answered_by_a_plain_form_post_reviewed_and_counted_once() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let page = get(&app, "/lessons/dataparallel", None).await;
        assert!(page.body.contains(r#"action="/lessons/dataparallel/quizzes/0""#), "{}", page.body);
        // Before answering, the page holds no answer: no explanation, nothing marked correct.
        assert!(!page.body.contains("one replica per chunk"), "an explanation leaked");
        assert!(!page.body.contains("correct"), "a correct marker leaked");
        assert!(page.body.contains("0 XP"), "{}", page.body);

        let right = all_right(&app, None).await;
        let res = answer_quiz(&app, "/lessons/dataparallel/quizzes/0", &right, None).await;
        assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
        assert_eq!(res.headers[header::LOCATION], "/lessons/dataparallel#quiz-0");
        let cookie = learner_cookie(&res);

        let page = get(&app, "/lessons/dataparallel", Some(&cookie)).await;
        assert!(page.body.contains("Passed: 4 of 4 right."), "{}", page.body);
        // The review shows the options as the page answered showed them, the visitors' order,
        // not the order the new learner's own pages show from now on.
        let visitors = common::shown_quiz(&get(&app, "/lessons/dataparallel", None).await.body, 0);
        let own = common::shown_quiz(&page.body, 0);
        let texts = |q: &common::ShownQuiz| -> Vec<String> {
            q.options.iter().map(|o| o.2.clone()).collect()
        };
        assert_ne!(texts(&visitors), texts(&own), "the learner's order is another");
        assert_eq!(reviewed_options(&page.body), texts(&visitors));
        assert!(page.body.contains("one replica per chunk"), "the review explains every option");
        assert!(page.body.contains("20 XP"), "a passed quiz earns 20 XP");
        // First quiz and a perfect one; not every quiz: each lesson has one.
        assert!(page.body.contains("2/14 achievements"), "{}", page.body);

        // Answering again, right or wrong, earns nothing more; the review shows the last try.
        let right = all_right(&app, Some(&cookie)).await;
        let again =
            answer_quiz(&app, "/lessons/dataparallel/quizzes/0", &right, Some(&cookie)).await;
        assert_eq!(again.status, StatusCode::SEE_OTHER);
        assert!(again.headers.get(header::SET_COOKIE).is_none());
        let wrong = all_wrong(&app, Some(&cookie)).await;
        answer_quiz(&app, "/lessons/dataparallel/quizzes/0", &wrong, Some(&cookie)).await;
        let page = get(&app, "/lessons/dataparallel", Some(&cookie)).await;
        assert!(page.body.contains("Not passed yet: 0 of 4 right."), "{}", page.body);
        assert!(page.body.contains("20 XP"), "still 20 XP");
        // A failed attempt's review says what was wrong, not what is right.
        let review = page.body.split(r#"data-role="quiz-review""#).nth(1).unwrap();
        let review = review.split("</ol>").next().unwrap();
        assert!(!review.contains("correct"), "no right answer marked: {review}");
        assert!(review.contains("(your answer)"), "{review}");
        assert!(page.body.contains(r#"data-role="quiz-hidden""#));
        // The form from before that attempt answers a quiz shown in another order now: sent
        // back, nothing recorded.
        let stale =
            answer_quiz(&app, "/lessons/dataparallel/quizzes/0", &right, Some(&cookie)).await;
        assert_eq!(stale.status, StatusCode::SEE_OTHER);
        let session = learner_cookie(&stale);
        let page = get(&app, "/lessons/dataparallel", Some(&format!("{cookie}; {session}"))).await;
        assert!(page.body.contains("answered elsewhere since this page loaded"), "{}", page.body);
        assert!(page.body.contains("Not passed yet: 0 of 4 right."), "nothing recorded");

        // Another visitor has done nothing.
        let other = get(&app, "/lessons/dataparallel", None).await;
        assert!(other.body.contains("0 XP") && !other.body.contains("Passed:"));
    })
}

/// A visitor's page shows the order every visitor without an id gets; their first action (a
/// simulation stepped) gives them an id, and the quiz they then answer from that same page is
/// read through the order it showed, not their new own one.
#[test]
fn a_quiz_answered_after_the_first_action_is_read_as_it_was_shown() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let right = all_right(&app, None).await;
        assert!(right.contains("order=visitor"), "{right}");
        let res = explore(&app, "slug=dataparallel&index=0", None).await;
        let cookie = learner_cookie(&res);
        let own = all_right(&app, Some(&cookie)).await;
        assert!(own.contains("order=learner"), "{own}");
        let res = answer_quiz(&app, "/lessons/dataparallel/quizzes/0", &right, Some(&cookie)).await;
        assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
        let page = get(&app, "/lessons/dataparallel", Some(&cookie)).await;
        assert!(page.body.contains("Passed: 4 of 4 right."), "{}", page.body);
    })
}

#[test]
fn forged_quiz_answers_are_refused_and_change_nothing() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let quiz = "/lessons/dataparallel/quizzes/0";
        for (body, why) in [
            ("attempt=0&q0=9", "question 0 has no option 9"),
            ("attempt=0&q0=0&q0=1", "question 0 takes one answer, not 2"),
            ("attempt=0&q7=0", "there is no question 7"),
            ("attempt=0&q0=all", "`all` is not an option number"),
            ("attempt=first&q0=0", "`first` is not an attempt number"),
            ("attempt=0&q0=%3Cscript%3E", "`&lt;script&gt;` is not an option number"),
        ] {
            let res = answer_quiz(&app, quiz, body, None).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}");
            // The browser that posted it gets a page of the site saying why, escaped.
            assert!(res.headers[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/html"));
            assert!(res.body.contains("<h1>Bad Request</h1>"), "{body}: {}", res.body);
            assert!(!res.body.contains("<script"), "{body}: {}", res.body);
            assert!(res.body.contains(why), "{body}: {}", res.body);
            assert!(
                res.headers.get(header::SET_COOKIE).is_none(),
                "nothing recorded, no learner made"
            );
        }
        // A form that claims to be correct, or to be worth XP, is only answers to the server.
        let res = answer_quiz(&app, quiz, "attempt=0&q0=0&correct=true&xp=1000", None).await;
        assert_eq!(res.status, StatusCode::SEE_OTHER);
        let cookie = learner_cookie(&res);
        let page = get(&app, "/lessons/dataparallel", Some(&cookie)).await;
        assert!(
            page.body.contains("0 XP") && page.body.contains("Not passed yet"),
            "{}",
            page.body
        );
        let right = all_right(&app, None).await;
        for missing in ["/lessons/dataparallel/quizzes/1", "/lessons/no-such-lesson/quizzes/0"] {
            assert_eq!(
                answer_quiz(&app, missing, &right, None).await.status,
                StatusCode::NOT_FOUND,
                "{missing}"
            );
        }
    })
}

#[test]
fn state_changing_requests_from_another_site_are_refused() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let lesson = get(&app, "/lessons/ddp-allreduce", None).await;
        let complete = form_action(&lesson.body);
        let right = all_right(&app, None).await;
        for (path, body) in [
            (complete.as_str(), "slug=ddp-allreduce"),
            ("/lessons/dataparallel/quizzes/0", right.as_str()),
        ] {
            for (name, value) in
                [("sec-fetch-site", "cross-site"), ("origin", "https://evil.example")]
            {
                let req = Request::post(path)
                    .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                    .header(header::HOST, "localhost")
                    .header(name, value)
                    .body(Body::from(body.to_string()))
                    .unwrap();
                let res = send(&app, req).await;
                assert_eq!(res.status, StatusCode::FORBIDDEN, "{path} with {name}: {value}");
                assert!(res.headers.get(header::SET_COOKIE).is_none());
            }
            // The same post from the site's own page goes through.
            let req = Request::post(path)
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .header(header::ACCEPT, "text/html")
                .header(header::HOST, "localhost")
                .header(header::ORIGIN, "http://localhost")
                .header(header::REFERER, "http://localhost/lessons/ddp-allreduce")
                .body(Body::from(body.to_string()))
                .unwrap();
            assert!(send(&app, req).await.status.is_redirection(), "{path}");
        }
    })
}

/// Calls the server function the page calls when a simulation reaches its last step.
async fn explore(app: &App, body: &str, cookie: Option<&str>) -> Page {
    let mut req = Request::post("/api/explore_simulation")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    if let Some(c) = cookie {
        req = req.header(header::COOKIE, c);
    }
    send(app, req.body(Body::from(body.to_string())).unwrap()).await
}

#[test]
fn exploring_a_simulation_earns_its_xp_once_and_only_for_real_simulations() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let first = explore(&app, "slug=dataparallel&index=0&xp=1000", None).await;
        assert_eq!(first.status, StatusCode::OK, "{}", first.body);
        let gained: serde_json::Value = serde_json::from_str(&first.body).unwrap();
        assert_eq!(gained["xp"], 10, "the server decides: 10 XP, whatever the request says");
        assert_eq!(gained["progress"]["xp"], 10);
        // Named in both languages: the page shows the reader's.
        assert_eq!(
            gained["achievements"],
            serde_json::json!([{"en": "Hands on", "ko": "직접 해보기"}])
        );
        let cookie = learner_cookie(&first);
        let again = explore(&app, "slug=dataparallel&index=0", Some(&cookie)).await;
        let again: serde_json::Value = serde_json::from_str(&again.body).unwrap();
        assert_eq!((again["xp"].clone(), again["progress"]["xp"].clone()), (0.into(), 10.into()));
        // Lesson 2 has one simulation; lesson `nope` none.
        for body in ["slug=dataparallel&index=1", "slug=nope&index=0"] {
            let res = explore(&app, body, Some(&cookie)).await;
            assert_eq!(res.status, StatusCode::NOT_FOUND, "{body}: {}", res.body);
        }
        let res = explore(&app, "slug=dataparallel&index=minus-one", Some(&cookie)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
        let page = get(&app, "/lessons/dataparallel", Some(&cookie)).await;
        assert!(page.body.contains("10 XP"), "{}", page.body);
    })
}

#[test]
fn resetting_a_lesson_takes_its_xp_until_earned_again() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let right = all_right(&app, None).await;
        let res = answer_quiz(&app, "/lessons/dataparallel/quizzes/0", &right, None).await;
        let cookie = learner_cookie(&res);
        let page = get(&app, "/lessons/dataparallel", Some(&cookie)).await;
        assert!(
            page.body.contains("2/14 achievements"),
            "first quiz, and perfect at the first attempt: {}",
            page.body
        );
        assert!(
            page.body.contains("20 XP") && page.body.contains("Reset this lesson"),
            "{}",
            page.body
        );
        let before_button = page.body.split(r#"data-role="reset-confirm""#).next().unwrap();
        let reset =
            before_button.rsplit("action=\"").next().and_then(|s| s.split('"').next()).unwrap();
        assert_eq!(reset, "/api/reset_lesson");
        let req = Request::post(reset)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "text/html")
            .header(header::REFERER, "http://localhost/lessons/dataparallel")
            .header(header::COOKIE, &cookie)
            .body(Body::from("slug=dataparallel"))
            .unwrap();
        assert!(send(&app, req).await.status.is_redirection());
        let page = get(&app, "/lessons/dataparallel", Some(&cookie)).await;
        assert!(
            page.body.contains("0 XP")
                && !page.body.contains("Passed:")
                && !page.body.contains("Reset this lesson"),
            "{}",
            page.body
        );
        let right = all_right(&app, Some(&cookie)).await;
        answer_quiz(&app, "/lessons/dataparallel/quizzes/0", &right, Some(&cookie)).await;
        let page = get(&app, "/lessons/dataparallel", Some(&cookie)).await;
        assert!(page.body.contains("20 XP"), "earned again");
        // A quiz seen answered before the reset is no first attempt: passed, not perfect.
        assert!(page.body.contains("1/14 achievements"), "{}", page.body);
    })
}

#[test]
fn the_xp_page_lists_rules_levels_and_the_learners_achievements() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let right = all_right(&app, None).await;
        let res = answer_quiz(&app, "/lessons/dataparallel/quizzes/0", &right, None).await;
        let page = get(&app, "/xp", Some(&learner_cookie(&res))).await;
        assert_eq!(page.status, StatusCode::OK);
        for text in [
            "How XP works",
            "Gradient Apprentice",
            "Pass a quiz (retries allowed)",
            "20 XP each",
            "Quiz taker",
        ] {
            assert!(page.body.contains(text), "{text}");
        }
        // The Korean page has the same rules, levels and achievements in Korean.
        let ko = get(&app, "/ko/xp", Some(&learner_cookie(&res))).await;
        for text in
            ["그래디언트 견습생", "퀴즈 통과하기 (다시 풀기 가능)", "하나에 20 XP", "퀴즈 도전"]
        {
            assert!(ko.body.contains(text), "{text}");
        }
        assert!(!page.body.contains("그래디언트 견습생"), "each page names levels in its language");
        assert_eq!(
            page.body.matches("✓ earned").count(),
            2,
            "first quiz and perfect quiz; every quiz needs all ten lessons' quizzes"
        );
    })
}

/// The page with its per-response nonce (also used as `crossorigin`) blanked out.
fn without_nonce(html: &str) -> String {
    let nonce = html.split("nonce=\"").nth(1).and_then(|s| s.split('"').next()).expect("a nonce");
    html.replace(nonce, "NONCE")
}

/// A part of the lesson page that differs on every request (as comments do): which response
/// it is, and for whom.
struct Counter(std::sync::atomic::AtomicU64);

impl lockstep_pages::request_parts::RequestPart for Counter {
    fn name(&self) -> &'static str {
        "counter"
    }

    fn html<'a>(
        &'a self,
        request: lockstep_pages::request_parts::PartRequest<'a>,
    ) -> lockstep_pages::request_parts::PartFuture<'a> {
        Box::pin(async move {
            let n = self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            let who = if request.requester.learner().is_some() { "a learner" } else { "a visitor" };
            Ok(format!("<p class=\"probe\">{}: response {n}, for {who}</p>", request.place.key()))
        })
    }
}

/// A request part is written fresh into every response, for anonymous visitors and learners
/// alike, while the lesson around it is rendered once per course version; the page around it
/// is what a full render gives, whose element it fills.
#[test]
fn a_request_part_is_fresh_on_every_request_while_the_lesson_stays_kept() {
    on_runtime(async {
        let parts = lockstep_pages::request_parts::RequestParts::new(vec![std::sync::Arc::new(
            Counter(Default::default()),
        )]);
        let (app, kept) = app_with_parts(&lessons_root(), parts).await;
        let lesson = "/lessons/dataparallel";
        let probe = |n: u32, who: &str| {
            format!(
                r#"<section data-part="counter" class="request-part"><p class="probe">lesson:dataparallel: response {n}, for {who}</p></section>"#
            )
        };
        let first = get(&app, lesson, None).await;
        let second = get(&app, lesson, None).await;
        for (page, n) in [(&first, 1), (&second, 2)] {
            assert_eq!(page.status, StatusCode::OK);
            assert_eq!(page.headers["x-lockstep-page"], "filled");
            assert!(page.body.contains(&probe(n, "a visitor")), "response {n}: {}", page.body);
        }
        assert_eq!(kept.renders(), 1, "the anonymous lesson page is kept: rendered once");
        assert_eq!(
            without_nonce(&first.body).replace(&probe(1, "a visitor"), ""),
            without_nonce(&second.body).replace(&probe(2, "a visitor"), ""),
            "only the request part differs"
        );

        let right = all_right(&app, None).await;
        let res = answer_quiz(&app, "/lessons/dataparallel/quizzes/0", &right, None).await;
        let cookie = learner_cookie(&res);
        let mine = get(&app, lesson, Some(&cookie)).await;
        // (Reading the quiz's order of options took a page too.)
        let part = mine.body.split(r#"<p class="probe">"#).nth(1).unwrap().split("</p>").next();
        assert!(
            part.is_some_and(|p| p.ends_with("for a learner")
                && !p.contains("response 1,")
                && !p.contains("response 2,")),
            "{part:?}"
        );
        assert!(mine.body.contains("20 XP"), "the learner's own parts are filled too");
        assert_eq!(kept.renders(), 1, "one template serves learners and visitors");

        // The full render (a query string asks for it) renders the part's element empty, as
        // the browser hydrates it, and the server fills it there too.
        let full = get(&app, &format!("{lesson}?render=full"), None).await;
        let filled = r#"<section data-part="counter" class="request-part"><p class="probe">lesson:dataparallel: response "#;
        assert!(full.body.contains(filled), "{}", full.body);
        let bare = |html: &str| {
            let (before, rest) = html.split_once(r#"<p class="probe">"#).unwrap();
            format!("{before}{}", rest.split_once("</p>").unwrap().1)
        };
        assert_eq!(
            bare(&without_nonce(&second.body)),
            bare(&without_nonce(&full.body)),
            "filled from the template, the page is the full render's"
        );

        // A page kept whole has no request part; one with a part would be rendered each time.
        get(&app, "/", None).await;
        get(&app, "/", None).await;
        assert_eq!(kept.renders(), 2, "the index is kept whole, once");
    })
}

/// Lesson pages are rendered once per course version and filled per learner. What a learner
/// gets must be what a full render gives them, byte for byte, or the page would not hydrate (a
/// query string asks for the full render).
#[test]
fn lesson_pages_filled_per_learner_equal_a_full_render() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let lesson = "/lessons/dataparallel";
        let full = format!("{lesson}?render=full");
        let same = |fast: &Page, full: &Page, who: &str| {
            assert_eq!((fast.status, full.status), (StatusCode::OK, StatusCode::OK), "{who}");
            assert_eq!(fast.headers["x-lockstep-page"], "filled", "{who}: from the template");
            assert!(full.headers.get("x-lockstep-page").is_none(), "{who}: rendered in full");
            assert!(!fast.body.contains("data-slot"), "{who}: a placeholder left unfilled");
            assert_eq!(without_nonce(&fast.body), without_nonce(&full.body), "{who}");
        };
        same(&get(&app, lesson, None).await, &get(&app, &full, None).await, "a new visitor");

        // A learner who passed the quiz (their own order of options, and the review) and
        // completed the lesson.
        let page = get(&app, lesson, None).await;
        let complete = page.body.split(r#"action=""#).find(|s| s.starts_with("/api/")).unwrap();
        let complete = complete.split('"').next().unwrap();
        let mut jar = Jar::default();
        let answers = jar.dataparallel_quiz(&app, common::DATAPARALLEL_RIGHT).await;
        jar.post(&app, "/lessons/dataparallel/quizzes/0", &pairs(&answers)).await;
        jar.get(&app, lesson).await;
        jar.post(&app, complete, &[("slug", "dataparallel")]).await;
        let fast = jar.get(&app, lesson).await;
        assert!(fast.body.contains("Passed: 4 of 4 right."), "{}", fast.body);
        assert!(fast.body.contains("+50 XP"), "the notice: {}", fast.body);
        assert!(fast.body.contains("You completed this lesson"), "{}", fast.body);
        let (fast, slow) = (jar.get(&app, lesson).await, jar.get(&app, &full).await);
        same(&fast, &slow, "a learner with a review");

        // The one-time notice: a learner completes the lesson, sees the notice, resets the
        // lesson and completes it again, which leaves the same notice for the full render.
        let mut jar = Jar::default();
        jar.get(&app, lesson).await;
        jar.post(&app, complete, &[("slug", "dataparallel")]).await;
        let fast = jar.get(&app, lesson).await;
        assert!(fast.body.contains("+50 XP"), "the notice: {}", fast.body);
        jar.post(&app, "/api/reset_lesson", &[("slug", "dataparallel")]).await;
        jar.get(&app, lesson).await;
        jar.post(&app, complete, &[("slug", "dataparallel")]).await;
        let slow = jar.get(&app, &full).await;
        same(&fast, &slow, "a learner with a notice");

        // Signed in, with a failed attempt reviewed.
        let mut jar = Jar::default();
        let email = [("email", "fill@example.org"), ("password", "a long enough passphrase")];
        jar.submit(&app, "/account/sign-up", &email).await;
        let wrong = jar.dataparallel_quiz(&app, common::DATAPARALLEL_WRONG).await;
        jar.post(&app, "/lessons/dataparallel/quizzes/0", &pairs(&wrong)).await;
        jar.get(&app, lesson).await;
        let (fast, slow) = (jar.get(&app, lesson).await, jar.get(&app, &full).await);
        assert!(fast.body.contains("Signed in as"), "{}", fast.body);
        assert!(fast.body.contains("Not passed yet: 0 of 4 right."), "{}", fast.body);
        same(&fast, &slow, "a signed-in learner");
        // Reading writes nothing: no session saved, so no cookie set.
        for page in [&fast, &slow] {
            assert!(page.headers.get(header::SET_COOKIE).is_none(), "{:?}", page.headers);
        }
    })
}

#[test]
fn every_page_has_an_icon() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        for path in ["/", "/lessons/dataparallel", "/xp", "/account"] {
            let page = get(&app, path, None).await;
            assert!(page.body.contains(r#"<link rel="icon" href="/favicon.svg""#), "{path}");
        }
        let ico = get(&app, "/favicon.ico", None).await;
        assert_eq!(ico.status, StatusCode::PERMANENT_REDIRECT);
        assert_eq!(ico.headers[header::LOCATION], "/favicon.svg");
    })
}

#[test]
fn a_crash_report_from_a_page_is_taken_and_answered_without_content() {
    on_runtime(async {
        let app = app(&lessons_root()).await;
        for body in
            [r#"{"message":"panicked at x","url":"http://localhost/"}"#, "not json\nforged line"]
        {
            let req = Request::post("/api/client-errors")
                .header(header::CONTENT_TYPE, "text/plain;charset=UTF-8")
                .header("sec-fetch-site", "same-origin")
                .body(Body::from(body))
                .unwrap();
            assert_eq!(send(&app, req).await.status, StatusCode::NO_CONTENT);
        }
    })
}

/// Pages and JSON go out compressed to a browser that takes it (Brotli first, else gzip), and
/// read back to what an uncompressed answer carries; an event stream is never buffered by it.
#[test]
fn pages_are_sent_compressed() {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    on_runtime(async {
        let app = app(&lessons_root()).await;
        let raw = |path: &str, encoding: Option<&'static str>| {
            let mut req = Request::get(path).header(header::ACCEPT, "text/html");
            if let Some(e) = encoding {
                req = req.header(header::ACCEPT_ENCODING, e);
            }
            let router = app.router.clone();
            async move {
                let res = router.oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
                let encoding = res.headers().get(header::CONTENT_ENCODING).cloned();
                let bytes = res.into_body().collect().await.unwrap().to_bytes().to_vec();
                (encoding.map(|e| e.to_str().unwrap().to_string()), bytes)
            }
        };
        let lesson = "/ko/lessons/distributed-sampler";
        let (none, plain) = raw(lesson, None).await;
        assert_eq!(none, None, "uncompressed to a client that asks for nothing");
        let (br, brotli) = raw(lesson, Some("gzip, deflate, br, zstd")).await;
        assert_eq!(br.as_deref(), Some("br"));
        let mut unpacked = Vec::new();
        brotli::BrotliDecompress(&mut brotli.as_slice(), &mut unpacked).unwrap();
        let (gz, gzipped) = raw(lesson, Some("gzip")).await;
        assert_eq!(gz.as_deref(), Some("gzip"));
        let mut unzipped = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gzipped[..]), &mut unzipped)
            .unwrap();
        // The nonce differs between answers; everything else is the same page.
        let same = |bytes: &[u8]| {
            let text = String::from_utf8(bytes.to_vec()).unwrap();
            let nonce = text.split("nonce=\"").nth(1).unwrap().split('"').next().unwrap();
            text.replace(nonce, "NONCE")
        };
        assert_eq!(same(&unpacked), same(&plain));
        assert_eq!(same(&unzipped), same(&plain));
        eprintln!(
            "{lesson}: {} B, Brotli {} B, gzip {} B",
            plain.len(),
            brotli.len(),
            gzipped.len()
        );
        assert!(brotli.len() * 4 < plain.len(), "{} of {}", brotli.len(), plain.len());
        assert!(gzipped.len() * 3 < plain.len(), "{} of {}", gzipped.len(), plain.len());
        let part = "/api/comments?place=lesson%3Adistributed-sampler&lang=ko";
        assert_eq!(raw(part, Some("br")).await.0.as_deref(), Some("br"), "the comments' part");
        let stream = "/api/comments/events?place=lesson%3Adistributed-sampler";
        let router = app.router.clone();
        let req = Request::get(stream).header(header::ACCEPT_ENCODING, "br, gzip");
        let res = router.oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(res.headers().get(header::CONTENT_ENCODING), None, "a live stream as it is");
    })
}

/// The options of the quiz review on `page`, question after question, as it lists them.
fn reviewed_options(page: &str) -> Vec<String> {
    let review = page.split(r#"data-role="quiz-review""#).nth(1).unwrap();
    let review = review.split("</ol>").next().unwrap();
    review
        .split("<ul>")
        .skip(1)
        .flat_map(|list| {
            let list = list.split("</ul>").next().unwrap();
            list.split(r#"<span class="course-text">"#)
                .skip(1)
                .map(|s| common::plain_text(s.split("</span>").next().unwrap()))
                .collect::<Vec<_>>()
        })
        .collect()
}
