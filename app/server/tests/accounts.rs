//! Accounts without JavaScript, through the router and plain form posts, on SQLite and on the
//! real PostgreSQL server: sign up, merge, sign in on a second device, forged and foreign
//! requests, the sign-in limit, changing the password, signing out.

mod common;

use axum::http::{header, StatusCode};
use common::in_process::*;

const QUIZ: &str = "/lessons/dataparallel/quizzes/0";
/// Lesson 2's quiz, answered right.
const ALL_RIGHT: &[(&str, &str)] =
    &[("q0", "1"), ("q1", "0"), ("q2", "0"), ("q2", "1"), ("q2", "2"), ("q3", "0")];
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
    let page = laptop.submit(app, QUIZ, ALL_RIGHT).await;
    assert!(page.body.contains("+20 XP"), "the quiz pass is announced on the next page");
    let anonymous_xp = xp(&page);
    assert!(anonymous_xp > 20, "{anonymous_xp}");
    assert!(page.body.contains("Progress is local-only"));
    assert!(laptop.cookie("lockstep_learner").is_some());

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
    let home = phone
        .submit(app, "/account/sign-in", &[("email", "ADA@example.org"), ("password", PASSWORD)])
        .await;
    assert!(home.body.contains("Merged from this browser: 1 lesson"), "{}", home.body);
    assert!(home.body.contains("1 already in your account, counted once"), "{}", home.body);
    let both = xp(&home);
    assert!(both > anonymous_xp, "the torchrun lesson was added");
    assert_eq!(xp(&laptop.get(app, "/").await), both, "the same XP on every device");

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
    let changed = laptop
        .submit(
            app,
            "/account/password",
            &[("current", PASSWORD), ("new", "a brand new passphrase")],
        )
        .await;
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

#[test]
fn accounts_without_javascript_on_sqlite() {
    on_runtime(async {
        let app = app(&course_dir()).await;
        the_whole_loop(&app).await;
        sign_in_is_limited_per_account(&app).await;
    })
}

#[test]
fn accounts_without_javascript_on_postgres() {
    on_runtime(async {
        let url = postgres_database("accounts_http").await;
        let app = app_on(&course_dir(), &url, tempfile::tempdir().unwrap()).await;
        the_whole_loop(&app).await;
        sign_in_is_limited_per_account(&app).await;
    })
}
