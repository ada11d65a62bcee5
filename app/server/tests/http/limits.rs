//! Every limit holds under parallel requests: a burst of requests at once, spread over two real
//! app processes sharing one database, and exactly the limit passes. Sign-ins per account and
//! per address, the change-password form's checks of the current password, sign-ups per
//! address, submissions per learner. On SQLite (two processes on one file) and on the real
//! PostgreSQL server.
//!
//! The servers trust `X-Forwarded-For`, as behind a proxy, so each case has an address of its
//! own and does not spend another's.

use crate::common;

use std::path::Path;

use axum::body::Bytes;
use common::api::{call, http, Http};
use common::{free_port, server_process_with, ServerProcess};
use http_body_util::{BodyExt, Full};
use serde_json::json;

const PASSWORD: &str = "gradient buckets overlap";
const SIGN_UPS_PER_HOUR: usize = 10;
const SUBMISSIONS_PER_HOUR: usize = 20;

struct Apps {
    bases: [String; 2],
    http: Http,
    _servers: [ServerProcess; 2],
    _site: tempfile::TempDir,
}

async fn two_apps(url: &str) -> Apps {
    // No browser bundle: these requests read no page's script.
    let site = tempfile::tempdir().unwrap();
    let settings = [
        ("LOCKSTEP_TRUST_FORWARDED_FOR", "true"),
        ("LOCKSTEP_SIGN_UPS_PER_HOUR", "10"),
        ("LOCKSTEP_SUBMISSIONS_PER_HOUR", "20"),
    ];
    let start = || async {
        let port = free_port();
        let server = server_process_with(site.path(), url, port, &settings).await;
        (format!("http://127.0.0.1:{port}"), server)
    };
    // One after the other: the first applies the migrations.
    let (a, first) = start().await;
    let (b, second) = start().await;
    Apps { bases: [a, b], http: http(), _servers: [first, second], _site: site }
}

/// What a browser's form post got back: where it was sent, and its session cookie.
struct Posted {
    location: String,
    session: Option<String>,
}

impl Apps {
    /// The `i`th request of a burst goes to app `i % 2`.
    fn base(&self, i: usize) -> &str {
        &self.bases[i % 2]
    }

    async fn post_form(
        &self,
        i: usize,
        path: &str,
        form: &[(&str, &str)],
        address: &str,
        session: Option<&str>,
    ) -> Posted {
        let body: String =
            form_urlencoded::Serializer::new(String::new()).extend_pairs(form).finish();
        let mut req = axum::http::Request::post(format!("{}{path}", self.base(i)))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("sec-fetch-site", "same-origin")
            .header("x-forwarded-for", address);
        if let Some(s) = session {
            req = req.header("cookie", format!("lockstep_session={s}"));
        }
        let res = self.http.request(req.body(Full::new(Bytes::from(body))).unwrap()).await.unwrap();
        assert_eq!(res.status(), 303, "{path}");
        let location = res.headers()["location"].to_str().unwrap().to_string();
        let session = res.headers().get_all("set-cookie").iter().find_map(|v| {
            let v = v.to_str().unwrap();
            v.strip_prefix("lockstep_session=").map(|v| v.split(';').next().unwrap().to_string())
        });
        Posted { location, session }
    }

    async fn page(&self, i: usize, path: &str, session: &str) -> String {
        let req = axum::http::Request::get(format!("{}{path}", self.base(i)))
            .header("cookie", format!("lockstep_session={session}"))
            .body(Full::new(Bytes::new()))
            .unwrap();
        let res = self.http.request(req).await.unwrap();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        common::without_markers(std::str::from_utf8(&bytes).unwrap())
    }

    /// The error the account page shows the session, if any.
    async fn form_error(&self, i: usize, session: &str) -> Option<String> {
        let page = self.page(i, "/account", session).await;
        let after = page.split(r#"data-role="form-error""#).nth(1)?;
        Some(after.split_once('>').unwrap().1.split('<').next().unwrap().to_string())
    }

    /// Signs up `email` from `address`; its session.
    async fn account(&self, email: &str, address: &str) -> String {
        let up = self
            .post_form(
                0,
                "/account/sign-up",
                &[("email", email), ("password", PASSWORD)],
                address,
                None,
            )
            .await;
        assert_eq!(up.location, "/", "{email} signed up");
        up.session.unwrap()
    }
}

/// Counts each distinct answer of a burst.
fn tally(answers: Vec<String>) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for a in answers {
        match counts.iter_mut().find(|(k, _)| *k == a) {
            Some((_, n)) => *n += 1,
            None => counts.push((a, 1)),
        }
    }
    counts.sort();
    counts
}

/// Runs `n` requests at once, `request(i)` each, and tallies what they said.
async fn burst<F, Fut>(n: usize, request: F) -> Vec<(String, usize)>
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = String>,
{
    tally(futures::future::join_all((0..n).map(request)).await)
}

const WRONG: &str = "The email or the password is wrong.";
const LOCKED: &str = "Too many failed sign-ins. Try again in 15 minutes.";

async fn sign_in_per_account(apps: &Apps) {
    apps.account("target@example.org", "10.0.1.1").await;
    let said = burst(25, |i| async move {
        let form = [("email", "target@example.org"), ("password", "a dictionary word")];
        let posted = apps.post_form(i, "/account/sign-in", &form, "10.0.1.2", None).await;
        apps.form_error(i, &posted.session.unwrap()).await.unwrap()
    })
    .await;
    assert_eq!(said, vec![(WRONG.to_string(), 5), (LOCKED.to_string(), 20)], "per account");
}

async fn sign_in_per_address(apps: &Apps) {
    let said = burst(60, |i| async move {
        let email = format!("nobody{i}@example.org");
        let form = [("email", email.as_str()), ("password", "a dictionary word")];
        let posted = apps.post_form(i, "/account/sign-in", &form, "10.0.2.1", None).await;
        apps.form_error(i, &posted.session.unwrap()).await.unwrap()
    })
    .await;
    assert_eq!(said, vec![(WRONG.to_string(), 50), (LOCKED.to_string(), 10)], "per address");
}

async fn password_checks_per_account(apps: &Apps) {
    apps.account("changer@example.org", "10.0.3.1").await;
    // Twenty-five sessions of the account, so that each request of the burst reads its own
    // answer back.
    let mut sessions = Vec::new();
    for i in 0..25 {
        let form = [("email", "changer@example.org"), ("password", PASSWORD)];
        let posted = apps.post_form(i, "/account/sign-in", &form, "10.0.3.2", None).await;
        assert_eq!(posted.location, "/");
        sessions.push(posted.session.unwrap());
    }
    let sessions = &sessions;
    let said = burst(25, |i| async move {
        let form = [("current", "a wrong guess at it"), ("new", "another long passphrase")];
        apps.post_form(i, "/account/password", &form, "10.0.3.3", Some(&sessions[i])).await;
        apps.form_error(i, &sessions[i]).await.unwrap()
    })
    .await;
    let wrong = "Your current password is wrong.".to_string();
    assert_eq!(said, vec![(LOCKED.to_string(), 20), (wrong, 5)], "change-password");
    // The account is locked for sign-in too: the same guesses, whichever form makes them.
    let form = [("email", "changer@example.org"), ("password", PASSWORD)];
    let posted = apps.post_form(0, "/account/sign-in", &form, "10.0.3.4", None).await;
    assert_eq!(apps.form_error(0, &posted.session.unwrap()).await.as_deref(), Some(LOCKED));
}

async fn sign_ups_per_address(apps: &Apps) {
    let said = burst(25, |i| async move {
        let email = format!("newcomer{i}@example.org");
        let form = [("email", email.as_str()), ("password", PASSWORD)];
        let posted = apps.post_form(i, "/account/sign-up", &form, "10.0.4.1", None).await;
        if posted.location == "/" {
            "signed up".to_string()
        } else {
            apps.form_error(i, &posted.session.unwrap()).await.unwrap()
        }
    })
    .await;
    let refused = "Too many sign-ups from your network. Try again in 60 minutes.".to_string();
    assert_eq!(
        said,
        vec![(refused, 25 - SIGN_UPS_PER_HOUR), ("signed up".to_string(), SIGN_UPS_PER_HOUR)],
        "sign-ups"
    );
}

async fn submissions_per_learner(apps: &Apps) {
    let session = apps.account("submitter@example.org", "10.0.5.1").await;
    apps.post_form(0, "/account/token", &[], "10.0.5.1", Some(&session)).await;
    let page = apps.page(0, "/account", &session).await;
    let token = page.split("lsl_").nth(1).expect("the token, shown once");
    let token = &format!("lsl_{}", token.split('<').next().unwrap());
    let script = common::api::exercise("solution.py");
    let script = &script;
    let said = burst(30, |i| async move {
        let body = json!({ "exercise": "ddp-conversion", "script": script });
        let url = format!("{}/api/submissions", apps.base(i));
        call(&apps.http, "POST", &url, Some(token), Some(body)).await.0.to_string()
    })
    .await;
    let expected = vec![
        ("201".to_string(), SUBMISSIONS_PER_HOUR),
        ("429".to_string(), 30 - SUBMISSIONS_PER_HOUR),
    ];
    assert_eq!(said, expected, "submissions");
    let (status, list) =
        call(&apps.http, "GET", &format!("{}/api/submissions", apps.base(1)), Some(token), None)
            .await;
    assert_eq!((status, list.as_array().unwrap().len()), (200, SUBMISSIONS_PER_HOUR));
}

async fn every_limit(url: &str) {
    let apps = two_apps(url).await;
    sign_in_per_account(&apps).await;
    sign_in_per_address(&apps).await;
    password_checks_per_account(&apps).await;
    sign_ups_per_address(&apps).await;
    submissions_per_learner(&apps).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_limit_holds_under_parallel_requests_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    every_limit(&format!(
        "sqlite://{}?mode=rwc",
        Path::new(dir.path()).join("db.sqlite3").display()
    ))
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_limit_holds_under_parallel_requests_on_postgres() {
    every_limit(&common::in_process::postgres_database("limits").await).await;
}
