//! Accounts without JavaScript, through the router and plain form posts, on SQLite and on the
//! real PostgreSQL server: sign up, merge, sign in on a second device, forged and foreign
//! requests, the sign-in limit, changing the password, signing out.

use crate::common;

use axum::http::{header, StatusCode};
use common::in_process::*;

const QUIZ: &str = "/lessons/dataparallel/quizzes/0";
const PASSWORD: &str = "gradient buckets overlap";

/// The XP the progress panel shows: `<li data-role="xp">N XP</li>`.
fn xp(page: &Page) -> u32 {
    let after = page.body.split(r#"data-role="xp">"#).nth(1).expect("a progress panel");
    after.split(" XP").next().unwrap().parse().unwrap()
}

/// The form error the account page shows, if any.
fn form_error(page: &Page) -> Option<String> {
    let after = page.body.split(r#"data-role="form-error""#).nth(1)?;
    let text = after.split_once('>').unwrap().1;
    Some(text.split('<').next().unwrap().to_string())
}

async fn complete(jar: &mut Jar, app: &App, slug: &str) {
    let lesson = jar.get(app, &format!("/lessons/{slug}")).await;
    let action = lesson.body.split(r#"action=""#).find(|s| s.starts_with("/api/")).unwrap();
    let action = action.split('"').next().unwrap().to_string();
    jar.post(app, &action, &[("slug", slug)]).await;
}

async fn the_whole_loop(app: &App) {
    // Anonymous: a completed lesson and a passed quiz, kept for this browser.
    let mut laptop = Jar::default();
    complete(&mut laptop, app, "why-distributed").await;
    let right = laptop.dataparallel_quiz(app, common::DATAPARALLEL_RIGHT).await;
    let page = laptop.submit(app, QUIZ, &pairs(&right)).await;
    assert!(page.body.contains("+20 XP"), "the quiz pass is announced on the next page");
    let anonymous_xp = xp(&page);
    assert!(anonymous_xp > 20, "{anonymous_xp}");
    assert!(page.body.contains("Progress is local-only"));
    let laptop_learner = laptop.cookie("lockstep_learner").expect("a learner cookie").to_string();

    // Clear errors, nothing created.
    let weak = laptop
        .submit(app, "/account/sign-up", &[("email", "ada@example.org"), ("password", "short")])
        .await;
    assert_eq!(
        form_error(&weak).as_deref(),
        Some("Choose a stronger password: use at least 10 characters.")
    );
    let bad =
        laptop.submit(app, "/account/sign-up", &[("email", "ada"), ("password", PASSWORD)]).await;
    assert!(form_error(&bad).unwrap().contains("email address"), "{:?}", form_error(&bad));
    assert!(form_error(&laptop.get(app, "/account").await).is_none(), "an error is shown once");

    // Signing up merges what this browser did, says so, and forgets the anonymous learner.
    let home = laptop
        .submit(app, "/account/sign-up", &[("email", " Ada@Example.org"), ("password", PASSWORD)])
        .await;
    assert!(home.body.contains("Merged from this browser: 1 lesson, 1 quiz"), "{}", home.body);
    assert_eq!(xp(&home), anonymous_xp, "merged, not doubled");
    assert!(home.body.contains("Signed in as"), "{}", home.body);
    assert!(laptop.cookie("lockstep_learner").is_none(), "the anonymous cookie is forgotten");
    assert!(laptop.cookie("lockstep_session").is_some());

    let taken = Jar::default()
        .submit(app, "/account/sign-up", &[("email", "ada@example.org"), ("password", PASSWORD)])
        .await;
    assert!(form_error(&taken).unwrap().contains("already exists"));

    // A second device with progress of its own, some of it the same: wrong passwords and
    // unknown emails get the same answer, then signing in merges without counting twice.
    let mut phone = Jar::default();
    complete(&mut phone, app, "why-distributed").await;
    complete(&mut phone, app, "torchrun").await;
    let wrong = phone
        .submit(
            app,
            "/account/sign-in",
            &[("email", "ada@example.org"), ("password", "not the password")],
        )
        .await;
    let unknown = phone
        .submit(app, "/account/sign-in", &[("email", "nobody@example.org"), ("password", PASSWORD)])
        .await;
    assert_eq!(form_error(&wrong).as_deref(), Some("The email or the password is wrong."));
    assert_eq!(form_error(&unknown), form_error(&wrong), "no account enumeration");
    // The email stays in the sign-in form: only the password needs typing again, and only
    // once (the next visit starts empty).
    let kept = |page: &Page, form: &str| {
        let form = page.body.split(&format!(r#"data-role="{form}""#)).nth(1).unwrap();
        let form = form.split("</form>").next().unwrap().to_string();
        form.split(r#"name="email""#).nth(1).unwrap().split('>').next().unwrap().to_string()
    };
    assert!(
        kept(&wrong, "sign-in").contains(r#"value="ada@example.org""#),
        "{}",
        kept(&wrong, "sign-in")
    );
    assert!(kept(&unknown, "sign-in").contains(r#"value="nobody@example.org""#));
    assert!(kept(&unknown, "sign-up").contains(r#"value="""#), "not in the other form");
    assert!(kept(&phone.get(app, "/account").await, "sign-in").contains(r#"value="""#));
    let home = phone
        .submit(app, "/account/sign-in", &[("email", "ADA@example.org"), ("password", PASSWORD)])
        .await;
    assert!(home.body.contains("Merged from this browser: 1 lesson"), "{}", home.body);
    assert!(home.body.contains("1 already in your account, counted once"), "{}", home.body);
    let both = xp(&home);
    assert!(both > anonymous_xp, "the torchrun lesson was added");
    assert_eq!(xp(&laptop.get(app, "/").await), both, "the same XP on every device");

    // The laptop's anonymous learner was merged: its cookie, replayed, names no one. Progress
    // made under it goes to a fresh learner, and signing in merges nothing from it.
    let merged_id = laptop_learner.clone();
    let mut replay = Jar::default();
    replay.plant("lockstep_learner", &merged_id);
    assert_eq!(xp(&replay.get(app, "/").await), 0, "the merged learner's XP is not shown");
    complete(&mut replay, app, "torchrun").await;
    let fresh = replay.cookie("lockstep_learner").unwrap().to_string();
    assert_ne!(fresh, merged_id, "a fresh learner, not the merged one");

    // A learner id the server never issued is not adopted either: a planted one is replaced
    // by a fresh id at the first recorded action, and reads nothing before.
    let invented = "0123456789abcdef0123456789abcdef";
    let mut planted = Jar::default();
    planted.plant("lockstep_learner", invented);
    complete(&mut planted, app, "why-distributed").await;
    let issued = planted.cookie("lockstep_learner").unwrap();
    assert_ne!(issued, invented);
    let mut victim = Jar::default();
    victim.plant("lockstep_learner", invented);
    assert_eq!(xp(&victim.get(app, "/").await), 0, "nothing recorded under the invented id");

    // Forged: a cookie naming the account's learner is not accepted as an anonymous learner,
    // and a post from another site changes nothing.
    let forged =
        get(app, "/", Some("lockstep_learner=acct-00000000000000000000000000000000")).await;
    assert_eq!(xp(&forged), 0);
    let mut evil = phone.clone();
    let res = send(
        app,
        axum::http::Request::post("/account/password")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header("sec-fetch-site", "cross-site")
            .header(
                header::COOKIE,
                format!("lockstep_session={}", evil.cookie("lockstep_session").unwrap()),
            )
            .body(axum::body::Body::from(format!("current={PASSWORD}&new=attacker+chose+this")))
            .unwrap(),
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    assert!(evil.get(app, "/account").await.body.contains("Signed in as"));

    // Changing the password: the wrong current one is refused; the right one signs out every
    // other session.
    let refused = laptop
        .submit(
            app,
            "/account/password",
            &[("current", "guess guess guess"), ("new", "a brand new passphrase")],
        )
        .await;
    assert_eq!(form_error(&refused).as_deref(), Some("Your current password is wrong."));
    // A terminal token made before the change stops working with it.
    laptop.post(app, "/account/token", &[]).await;
    let token = laptop.get(app, "/account").await.body;
    let token = token.split("lsl_").nth(1).expect("the new token, shown once");
    let token = format!("lsl_{}", token.split(['<', '"', ' ']).next().unwrap());
    let with_token = |token: String| {
        axum::http::Request::get("/api/submissions")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(axum::body::Body::empty())
            .unwrap()
    };
    assert_eq!(send(app, with_token(token.clone())).await.status, StatusCode::OK);
    let changed = laptop
        .submit(
            app,
            "/account/password",
            &[("current", PASSWORD), ("new", "a brand new passphrase")],
        )
        .await;
    assert_eq!(send(app, with_token(token)).await.status, StatusCode::UNAUTHORIZED);
    assert!(changed.body.contains("Password changed"), "{}", changed.body);
    assert!(changed.body.contains("Signed in as"));
    assert!(
        !phone.get(app, "/account").await.body.contains("Signed in as"),
        "the phone is signed out"
    );
    assert_eq!(xp(&phone.get(app, "/").await), 0);

    // Signing out leaves a fresh anonymous browser; signing in again finds everything.
    let out = laptop.submit(app, "/account/sign-out", &[]).await;
    assert!(out.body.contains("Progress is local-only"));
    assert_eq!(xp(&out), 0);
    let home = laptop
        .submit(
            app,
            "/account/sign-in",
            &[("email", "ada@example.org"), ("password", "a brand new passphrase")],
        )
        .await;
    assert_eq!(xp(&home), both);
}

async fn sign_in_is_limited_per_account(app: &App) {
    let mut jar = Jar::default();
    jar.submit(app, "/account/sign-up", &[("email", "grace@example.org"), ("password", PASSWORD)])
        .await;
    jar.submit(app, "/account/sign-out", &[]).await;
    let mut attacker = Jar::default();
    for _ in 0..5 {
        let page = attacker
            .submit(
                app,
                "/account/sign-in",
                &[("email", "grace@example.org"), ("password", "dictionary word")],
            )
            .await;
        assert_eq!(form_error(&page).as_deref(), Some("The email or the password is wrong."));
    }
    // Locked: even the right password is refused until the window passes.
    let locked = jar
        .submit(app, "/account/sign-in", &[("email", "grace@example.org"), ("password", PASSWORD)])
        .await;
    assert_eq!(
        form_error(&locked).as_deref(),
        Some("Too many failed sign-ins. Try again in 15 minutes.")
    );
    // Another account is not locked by it.
    jar.submit(app, "/account/sign-up", &[("email", "hopper@example.org"), ("password", PASSWORD)])
        .await;
    jar.submit(app, "/account/sign-out", &[]).await;
    let ok = jar
        .submit(app, "/account/sign-in", &[("email", "hopper@example.org"), ("password", PASSWORD)])
        .await;
    assert!(ok.body.contains("Signed in as"), "{}", ok.body);
}

/// `lockstep admin ARGS…` against the app's database: (exit code, stdout, stderr).
fn admin(url: &str, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .arg("admin")
        .arg(format!("--database-url={url}"))
        .args(args)
        .output()
        .unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap(), text(out.stdout), text(out.stderr))
}

/// Runs after `the_whole_loop`: ada@example.org has two lessons and lesson 2's quiz.
async fn instructors_are_made_on_the_command_line(app: &App, url: &str) {
    let mut ada = Jar::default();
    let password = &[("email", "ada@example.org"), ("password", "a brand new passphrase")];
    ada.submit(app, "/account/sign-in", password).await;
    let refused = ada.get(app, "/instructor").await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(refused.body.contains("Instructors only"));
    assert_eq!(ada.get(app, "/instructor/learners.csv").await.status, StatusCode::FORBIDDEN);
    assert_eq!(get(app, "/instructor/questions.csv", None).await.status, StatusCode::FORBIDDEN);

    let (code, _, err) = admin(url, &["grant-instructor", "nobody@example.org"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no account has the email `nobody@example.org`"), "{err}");
    let (code, out, err) = admin(url, &["grant-instructor", "Ada@example.org"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ada@example.org is now an instructor"), "{out}");

    let view = ada.get(app, "/instructor").await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.body);
    assert!(view.body.contains("ada@example.org"), "{}", view.body);
    let csv = ada.get(app, "/instructor/learners.csv").await;
    assert_eq!(csv.headers[header::CONTENT_TYPE], "text/csv; charset=utf-8");
    let ada_row = csv.body.lines().find(|l| l.starts_with("ada@example.org,")).unwrap();
    let fields: Vec<&str> = ada_row.split(',').collect();
    assert_eq!((fields[1], fields[5], fields[7]), ("true", "2", "1"), "{ada_row}");
    // Lesson 2's quiz was answered right once (the first answer counts): four questions,
    // each answered once, all right.
    let questions = ada.get(app, "/instructor/questions.csv").await.body;
    let lesson2: Vec<&str> =
        questions.lines().filter(|l| l.starts_with("dataparallel,1,")).collect();
    assert_eq!(lesson2.len(), 4, "{questions}");
    assert!(lesson2.iter().all(|l| l.ends_with(",1,1,100")), "{questions}");

    // A reset password: printed once, the old sessions end, the new password works.
    let (code, out, err) = admin(url, &["reset-password", "ada@example.org"]);
    assert_eq!(code, 0, "{err}");
    let new = out.split("new password for ada@example.org: ").nth(1).unwrap();
    let new = new.lines().next().unwrap().to_string();
    assert_eq!(new.len(), 20);
    assert!(!ada.get(app, "/account").await.body.contains("Signed in as"));
    let home = ada
        .submit(app, "/account/sign-in", &[("email", "ada@example.org"), ("password", &new)])
        .await;
    assert!(home.body.contains("Signed in as"), "{}", home.body);
    let (code, out, _) = admin(url, &["accounts"]);
    assert_eq!(code, 0);
    assert!(out.contains("ada@example.org\tinstructor"), "{out}");
}

#[test]
fn accounts_without_javascript_on_sqlite() {
    on_runtime(async {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("db.sqlite3").display());
        let app = app_on(&lessons_root(), &url, dir).await;
        the_whole_loop(&app).await;
        sign_in_is_limited_per_account(&app).await;
        instructors_are_made_on_the_command_line(&app, &url).await;
    })
}

#[test]
fn accounts_without_javascript_on_postgres() {
    on_runtime(async {
        let url = postgres_database("accounts_http").await;
        let app = app_on(&lessons_root(), &url, tempfile::tempdir().unwrap()).await;
        the_whole_loop(&app).await;
        sign_in_is_limited_per_account(&app).await;
        instructors_are_made_on_the_command_line(&app, &url).await;
    })
}
