//! A catalogue of two courses: the shipped DDP course and a second one from the tests' data
//! (`tests/data/second-course`), with a draft lesson. Learners and visitors cannot reach the
//! draft by its address, in either language, by search, from a list or from the page API; an
//! instructor reads it under its banner, and as learners will get it; publishing it (an edit of
//! its file) shows it to everyone at once, on SQLite and on PostgreSQL, and on two app processes
//! sharing one database.

use crate::common;

use std::path::Path;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::in_process::*;
use common::{plain_text, quiz_form_in, shown_quiz, two_courses};
use lockstep_store::{Role, Store};

const DRAFT: &str = "/lessons/fsdp-wrapping";
const DRAFT_FILE: &str = "fsdp/02-fsdp-wrapping.md";
const DRAFT_TITLE: &str = "Wrapping policies, unfinished";
/// A word only the draft has.
const DRAFT_WORD: &str = "zeppelinwrap";

/// Takes the draft's `status` line out: it is published.
fn publish(root: &Path) {
    let file = root.join(DRAFT_FILE);
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("status = \"draft\"\n", "")).unwrap();
}

/// Everything a learner could reach the draft through, as `jar` sees it: whether any shows it.
async fn draft_reachable(app: &App, jar: &mut Jar) -> Vec<&'static str> {
    let mut found = Vec::new();
    for (what, path) in [("address", DRAFT), ("Korean address", "/ko/lessons/fsdp-wrapping")] {
        let page = jar.get(app, path).await;
        match page.status {
            StatusCode::OK => found.push(what),
            StatusCode::NOT_FOUND => {}
            other => panic!("{path} answered {other}"),
        }
        assert!(!page.body.contains(DRAFT_WORD) || page.status == StatusCode::OK);
    }
    let search = jar.get(app, &format!("/search?q={DRAFT_WORD}")).await;
    if search.body.contains(DRAFT) {
        found.push("search");
    }
    for list in ["/", "/courses/fsdp", "/ko/courses/fsdp", "/xp", "/lessons/why-shard"] {
        let page = jar.get(app, list).await;
        assert_eq!(page.status, StatusCode::OK, "{list}");
        if page.body.contains(DRAFT_TITLE) || page.body.contains(DRAFT) {
            found.push(list);
        }
    }
    let req = Request::get("/sitemap.xml").header(header::HOST, "lockstep.test:8080");
    let sitemap = send(app, req.body(Body::empty()).unwrap()).await;
    assert_eq!(sitemap.status, StatusCode::OK);
    let published = "<loc>http://lockstep.test:8080/ko/lessons/why-shard</loc>";
    assert!(sitemap.body.contains(published), "{}", sitemap.body);
    if sitemap.body.contains(DRAFT) {
        found.push("sitemap");
    }
    // The page API the browser reads lessons with.
    let form = [("slug", "fsdp-wrapping"), ("lang", "en"), ("as_learner", "true")];
    let api = jar.post(app, "/api/get_lesson", &form).await;
    assert!(api.body.contains("Missing") || api.body.contains("Found"), "{}", api.body);
    if api.body.contains(DRAFT_WORD) {
        found.push("page API");
    }
    found
}

async fn drafts_and_publishing(url: &str, db: tempfile::TempDir) {
    let root = two_courses();
    let app = app_on(root.path(), url, db).await;
    let store = Store::connect(url).await.unwrap();

    // The second course's published lesson serves, numbered in its own course.
    let page = get(&app, "/lessons/why-shard", None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Lesson 01 of 01"), "the draft is not counted: {}", page.body);
    let first = get(&app, "/lessons/why-distributed", None).await;
    assert!(first.body.contains("Lesson 01 of 10"), "the DDP course is numbered apart");

    // The catalogue: both courses, each with its way in; a course page lists its own lessons.
    let home = get(&app, "/", None).await.body;
    assert!(home.contains(r#"data-course="ddp""#) && home.contains(r#"data-course="fsdp""#));
    assert!(home.contains(r#"href="/courses/fsdp""#) && home.contains("Start: Why shard a model"));
    assert!(
        !home.contains(r#"class="lesson-list""#),
        "two courses: no lesson list on the catalogue"
    );
    let course = get(&app, "/courses/fsdp", None).await;
    assert_eq!(course.status, StatusCode::OK);
    assert!(
        course.body.contains("/lessons/why-shard")
            && !course.body.contains("/lessons/dataparallel")
    );
    assert_eq!(get(&app, "/courses/nope", None).await.status, StatusCode::NOT_FOUND);

    let mut visitor = Jar::default();
    assert_eq!(draft_reachable(&app, &mut visitor).await, Vec::<&str>::new(), "a visitor");
    let mut learner = signed_up(&app, "lea@example.org").await;
    assert_eq!(draft_reachable(&app, &mut learner).await, Vec::<&str>::new(), "a learner");

    // An instructor reads the draft under its banner, in its course's count.
    let mut instructor = signed_up(&app, "ian@example.org").await;
    store.set_role("ian@example.org", Role::Instructor).await.unwrap();
    let page = instructor.get(&app, DRAFT).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(r#"data-role="draft""#), "its banner: {}", page.body);
    assert_eq!(page.headers[header::CACHE_CONTROL], "private, no-store", "kept by nobody");
    assert!(page.body.contains("only instructors see this"));
    assert!(page.body.contains("Lesson 02 of 02") && page.body.contains(DRAFT_WORD));
    // No comments or reports on a draft: its place is unknown to their forms and stream.
    assert!(!page.body.contains(r#"data-part="comments""#), "no comments part on a draft");
    assert!(page.body.contains("comments and reports open then"));
    let place = format!("lesson:{}", DRAFT.trim_start_matches("/lessons/"));
    let stream = format!("/api/comments/events?place={place}");
    assert_eq!(instructor.get(&app, &stream).await.status, StatusCode::NOT_FOUND);
    let course = instructor.get(&app, "/courses/fsdp").await.body;
    assert!(course.contains(DRAFT_TITLE) && course.contains(r#"class="badge draft""#));
    let preview = instructor.get(&app, &format!("{DRAFT}?as=learner")).await;
    assert_eq!(preview.status, StatusCode::OK);
    assert!(preview.body.contains(r#"data-role="preview""#));
    assert!(!preview.body.contains(r#"data-role="draft""#), "as learners will get it");
    // `?as=learner` is an instructor's preview, not a way in.
    assert_eq!(
        learner.get(&app, &format!("{DRAFT}?as=learner")).await.status,
        StatusCode::NOT_FOUND
    );
    // The instructor may try its quiz; a learner may not.
    let shown = shown_quiz(&preview.body, 0);
    let form = quiz_form_in(&shown, "fsdp-wrapping", 0, &[(0, 0)], &root.path().join("fsdp"));
    let answered = instructor.post(&app, "/lessons/fsdp-wrapping/quizzes/0", &pairs(&form)).await;
    assert!(answered.status.is_redirection(), "{}: {}", answered.status, answered.body);
    let refused = learner.post(&app, "/lessons/fsdp-wrapping/quizzes/0", &pairs(&form)).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.body);

    // The instructor view of one course: its questions, the draft's too, and its downloads.
    let view = instructor.get(&app, "/instructor?course=fsdp").await;
    assert_eq!(view.status, StatusCode::OK);
    assert!(view.body.contains("What does a wrapping policy decide?"), "{}", view.body);
    assert!(!view.body.contains("/lessons/dataparallel#quiz-0"), "not the DDP course's");
    assert!(view.body.contains(r#"href="/instructor/questions.csv?course=fsdp""#));
    let csv = instructor.get(&app, "/instructor/questions.csv?course=fsdp").await;
    assert_eq!(
        csv.headers[header::CONTENT_DISPOSITION],
        "attachment; filename=\"questions-fsdp.csv\""
    );
    let lines: Vec<&str> = csv.body.lines().collect();
    assert_eq!(lines.len(), 2, "{}", csv.body);
    assert_eq!(lines[1], "fsdp-wrapping,1,1,What does a wrapping policy decide?,1,1,100");
    let csv = instructor.get(&app, "/instructor/learners.csv?course=fsdp").await.body;
    assert!(csv.lines().all(|l| l.starts_with("learner") || l.contains(",0,1,")), "of 1: {csv}");
    let all = instructor.get(&app, "/instructor/questions.csv").await.body;
    assert!(all.contains("dataparallel,1,1,") && all.contains("fsdp-wrapping,1,1,"));
    for forged in ["/instructor?course=nope", "/instructor/questions.csv?course=nope"] {
        assert_eq!(instructor.get(&app, forged).await.status, StatusCode::NOT_FOUND, "{forged}");
    }
    assert_eq!(
        learner.get(&app, "/instructor/questions.csv?course=fsdp").await.status,
        StatusCode::FORBIDDEN
    );

    // Search and the XP page say which course.
    let found = get(&app, "/search?q=sharding", None).await.body;
    assert!(found.contains("Sharded data parallel") && found.contains("/lessons/why-shard#"));
    let xp = get(&app, "/xp", None).await.body;
    assert!(xp.contains(r#"data-course="ddp""#) && xp.contains(r#"data-course="fsdp""#));

    // The learner finishes the second course as learners have it: one lesson.
    let page = learner.get(&app, "/lessons/why-shard").await;
    let complete = page.body.split(r#"action=""#).find(|s| s.starts_with("/api/")).unwrap();
    let complete = complete.split('"').next().unwrap().to_string();
    learner.post(&app, &complete, &[("slug", "why-shard")]).await;
    let finished = panel(&learner.get(&app, "/xp").await);
    let earned =
        |page: &Page| page.body.contains(r#"<li class="earned"><strong>Course complete</strong>"#);
    assert!(earned(&learner.get(&app, "/xp").await), "one lesson of one: {finished:?}");
    // Publishing a second lesson into it takes nothing back.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;

    // Published: everywhere at once, for everyone, with no restart.
    publish(root.path());
    let everywhere = [
        "address",
        "Korean address",
        "search",
        "/courses/fsdp",
        "/ko/courses/fsdp",
        "/lessons/why-shard",
        "sitemap",
        "page API",
    ];
    assert_eq!(draft_reachable(&app, &mut visitor).await, everywhere);
    // The learner who took the course's first lesson is offered this one next.
    let mut next = everywhere.to_vec();
    next.insert(3, "/");
    assert_eq!(draft_reachable(&app, &mut learner).await, next);
    let page = instructor.get(&app, DRAFT).await;
    assert!(!page.body.contains(r#"data-role="draft""#), "no banner once published");
    assert!(page.body.contains(r#"data-part="comments""#), "comments once published");
    let xp = learner.get(&app, "/xp").await;
    assert!(earned(&xp), "the course completed before it grew stays completed");
    let now = panel(&xp);
    assert_eq!((&now.0, &now.2), (&finished.0, &finished.2), "XP and achievements as they were");
    let row = xp.body.split(r#"data-course="fsdp""#).nth(1).unwrap().split("</tr>").next().unwrap();
    assert!(row.contains("1/2"), "one more lesson to take: {row}");

    // A whole course back to draft: its page and lessons are gone for learners, not for
    // instructors, and the other course is untouched.
    let meta = root.path().join("fsdp/course.toml");
    let published = std::fs::read_to_string(&meta).unwrap();
    std::fs::write(&meta, format!("{published}status = \"draft\"\n")).unwrap();
    for path in ["/courses/fsdp", "/lessons/why-shard", DRAFT] {
        assert_eq!(learner.get(&app, path).await.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(instructor.get(&app, path).await.status, StatusCode::OK, "{path}");
    }
    assert!(!learner.get(&app, "/").await.body.contains(r#"data-course="fsdp""#));
    assert!(instructor.get(&app, "/").await.body.contains(r#"data-course="fsdp""#));
    assert_eq!(learner.get(&app, "/lessons/dataparallel").await.status, StatusCode::OK);
}

#[test]
fn drafts_and_publishing_on_sqlite() {
    on_runtime(async {
        let db = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", db.path().join("db.sqlite3").display());
        drafts_and_publishing(&url, db).await;
    });
}

#[test]
fn drafts_and_publishing_on_postgres() {
    on_runtime(async {
        let url = postgres_database("courses_drafts").await;
        drafts_and_publishing(&url, tempfile::tempdir().unwrap()).await;
    });
}

/// Two app processes on one PostgreSQL database and one lessons folder, as two machines
/// sharing both: a lesson published by saving its file is served by both on the next request.
#[test]
fn publishing_reaches_two_app_processes_at_once() {
    use common::{free_port, server_process_with};
    on_runtime(async {
        let url = postgres_database("courses_two_apps").await;
        let root = two_courses();
        let site = tempfile::tempdir().unwrap();
        let lessons = root.path().display().to_string();
        let settings = [("LOCKSTEP_LESSONS", lessons.as_str())];
        let mut bases = Vec::new();
        let mut servers = Vec::new();
        // One after the other: the first applies the migrations.
        for _ in 0..2 {
            let port = free_port();
            servers.push(server_process_with(site.path(), &url, port, &settings).await);
            bases.push(format!("http://127.0.0.1:{port}"));
        }
        let http = common::api::http();
        let fetch = |url: String| {
            let http = http.clone();
            async move { common::api::get_text(&http, &url).await }
        };
        for base in &bases {
            assert_eq!(fetch(format!("{base}{DRAFT}")).await.0, StatusCode::NOT_FOUND.as_u16());
            let (_, found) = fetch(format!("{base}/search?q={DRAFT_WORD}")).await;
            assert!(!found.contains(DRAFT), "{base}");
        }
        publish(root.path());
        for base in &bases {
            let (status, page) = fetch(format!("{base}{DRAFT}")).await;
            assert_eq!(status, StatusCode::OK.as_u16(), "{base}");
            assert!(page.contains(DRAFT_WORD));
            let (_, found) = fetch(format!("{base}/search?q={DRAFT_WORD}")).await;
            assert!(found.contains(DRAFT), "{base}: {found}");
            let (_, course) = fetch(format!("{base}/courses/fsdp")).await;
            assert!(course.contains(DRAFT_TITLE), "{base}");
        }
        drop(servers);
    });
}

/// What the progress panel of a page says: XP, level and achievements.
fn panel(page: &Page) -> (String, String, String) {
    let field = |role: &str| {
        let after = page.body.split(&format!(r#"data-role="{role}">"#)).nth(1).expect(role);
        plain_text(after.split("</li>").next().unwrap().split("</strong>").next().unwrap())
    };
    (field("xp"), field("level"), field("achievements"))
}

/// The layout before there were courses (the lessons root one course, `course.toml` beside its
/// lessons) and the catalogue it became, on one database: a learner's progress from before is
/// theirs after, lesson by lesson, with the same addresses.
#[test]
fn progress_from_the_single_course_layout_is_intact_in_the_catalogue() {
    on_runtime(async {
        let db = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", db.path().join("db.sqlite3").display());
        let old = tempfile::tempdir().unwrap();
        let copied = std::process::Command::new("cp")
            .arg("-r")
            .arg(format!("{}/.", course_dir().display()))
            .arg(old.path())
            .status()
            .unwrap();
        assert!(copied.success());
        let before = app_on(old.path(), &url, tempfile::tempdir().unwrap()).await;
        let mut ada = signed_up(&before, "ada@example.org").await;
        let lesson = "/lessons/dataparallel";
        let page = ada.get(&before, lesson).await;
        let complete = page.body.split(r#"action=""#).find(|s| s.starts_with("/api/")).unwrap();
        let complete = complete.split('"').next().unwrap().to_string();
        let answers = ada.dataparallel_quiz(&before, common::DATAPARALLEL_RIGHT).await;
        ada.post(&before, "/lessons/dataparallel/quizzes/0", &pairs(&answers)).await;
        ada.post(&before, &complete, &[("slug", "dataparallel")]).await;
        let was = panel(&ada.get(&before, "/xp").await);
        assert_ne!(was.0, "0 XP");
        drop(before);

        // The same database under the catalogue: the shipped course moved into its folder,
        // beside a second course.
        let root = two_courses();
        let after = app_on(root.path(), &url, tempfile::tempdir().unwrap()).await;
        assert_eq!(panel(&ada.get(&after, "/xp").await), was, "XP, level, achievements");
        let page = ada.get(&after, lesson).await;
        assert!(page.body.contains("You completed this lesson"), "{}", page.body);
        assert!(page.body.contains("Passed: 4 of 4 right."), "the quiz's review");
        let ddp = ada.get(&after, "/courses/ddp").await.body;
        assert!(ddp.contains("<strong>1/10</strong>"), "{ddp}");
        let xp = ada.get(&after, "/xp").await.body;
        let row = xp.split(r#"data-course="ddp""#).nth(1).unwrap().split("</tr>").next().unwrap();
        assert!(row.contains("1/10"), "{row}");
    });
}

/// A database written by the release before courses (`tests/data/before-courses`, made by its
/// `make.py` with that release's server), opened by this one under the catalogue: its
/// migrations run, and the learner's progress is what that release showed them.
#[test]
fn a_database_from_the_release_before_courses_keeps_its_learners_progress() {
    on_runtime(async {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/before-courses");
        let db = tempfile::tempdir().unwrap();
        std::fs::copy(data.join("lockstep.sqlite3"), db.path().join("db.sqlite3")).unwrap();
        let url = format!("sqlite://{}?mode=rwc", db.path().join("db.sqlite3").display());
        let was: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(data.join("panel.json")).unwrap())
                .unwrap();
        assert_eq!(was["lessons"], "2/10 lessons · 20%", "what the release before showed");
        let root = two_courses();
        let app = app_on(root.path(), &url, db).await;
        let mut ada = Jar::default();
        let form = [("email", "ada@example.org"), ("password", PASSWORD)];
        let signed_in = ada.submit(&app, "/account/sign-in", &form).await;
        assert_eq!(signed_in.status, StatusCode::OK);
        let (xp, _, achievements) = panel(&ada.get(&app, "/xp").await);
        assert_eq!(
            (xp.as_str(), achievements.as_str()),
            (was["xp"].as_str().unwrap(), was["achievements"].as_str().unwrap())
        );
        let page = ada.get(&app, "/xp").await.body;
        assert!(page.contains("2/11 lessons"), "the second course's lesson is one more to take");
        let ddp = ada.get(&app, "/courses/ddp").await.body;
        assert!(ddp.contains("<strong>2/10</strong>"), "{ddp}");
        for lesson in ["/lessons/why-distributed", "/lessons/dataparallel"] {
            let page = ada.get(&app, lesson).await.body;
            assert!(page.contains("You completed this lesson"), "{lesson}");
        }
    });
}
