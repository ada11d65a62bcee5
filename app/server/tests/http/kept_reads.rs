//! Reads kept on PostgreSQL, with two app machines on one database: a write on one is on the
//! other's next page, and a machine that lost the connection it listens on keeps nothing from
//! before. Each app is built as the server builds itself, with its own store, caches and
//! listening connection.

use crate::common;

use std::time::{Duration, Instant};

use common::in_process::*;
use sqlx::{Connection, Executor, PgConnection};

const LESSON: &str = "/lessons/dataparallel";
const SIGNED_OUT: &str = "Progress is local-only";

/// The XP the progress panel shows.
fn xp(page: &Page) -> u32 {
    let after = page.body.split(r#"data-role="xp">"#).nth(1).expect("a progress panel");
    after.split(" XP").next().unwrap().parse().unwrap()
}

/// The backend ids of the connections that listen for writes, on the database of `url`.
async fn listeners(db: &mut PgConnection) -> Vec<i32> {
    sqlx::query_scalar(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = \
         current_database() ORDER BY pid",
    )
    .bind(lockstep_store::announce::LISTENER_NAME)
    .fetch_all(db)
    .await
    .unwrap()
}

async fn until_listening(db: &mut PgConnection, apps: usize) -> Vec<i32> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let pids = listeners(db).await;
        if pids.len() == apps {
            return pids;
        }
        assert!(Instant::now() < deadline, "{} of {apps} apps listening", pids.len());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `jar`'s next page at `path` on `app` until `shows` holds of it. A notification reaches the
/// other machine a moment after the write's response, so a page asked for in that moment may
/// still be the one before; without the notification it would be for the caches' whole minute.
async fn shown_on(app: &App, jar: &mut Jar, path: &str, what: &str, shows: impl Fn(&Page) -> bool) {
    let start = Instant::now();
    let mut pages = 0;
    loop {
        let page = jar.get(app, path).await;
        pages += 1;
        if shows(&page) {
            eprintln!("{what}: on the other app's page {pages}, {:?} after", start.elapsed());
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(5), "{what}: not on the other app");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[test]
fn a_write_on_one_app_is_on_the_others_next_page() {
    on_runtime(async {
        let url = postgres_database("kept_reads").await;
        let mut db = PgConnection::connect(&url).await.unwrap();
        let a = app_on(&lessons_root(), &url, tempfile::tempdir().unwrap()).await;
        let b = app_on(&lessons_root(), &url, tempfile::tempdir().unwrap()).await;
        until_listening(&mut db, 2).await;

        // Signed up on one, read on the other twice: its reads are kept there now.
        let mut ada = signed_up(&a, "ada@example.org").await;
        for _ in 0..2 {
            let page = ada.get(&b, LESSON).await;
            assert!(!page.body.contains(SIGNED_OUT), "signed in on both");
            assert_eq!(xp(&page), 0);
        }

        // Progress written on one.
        let page = ada.get(&a, LESSON).await;
        let complete = page.body.split(r#"action=""#).find(|s| s.starts_with("/api/")).unwrap();
        let complete = complete.split('"').next().unwrap().to_string();
        ada.post(&a, &complete, &[("slug", "dataparallel")]).await;
        let earned = xp(&ada.get(&a, LESSON).await);
        assert!(earned > 0);
        shown_on(&b, &mut ada, LESSON, "progress", |p| xp(p) == earned).await;

        // A comment written on one, under a page the other keeps the comments of.
        let body = "Why does the sampler need set_epoch?";
        assert!(!ada.get(&b, LESSON).await.body.contains(body));
        let posted = ada
            .post(
                &a,
                "/comments",
                &[("place", "lesson:dataparallel"), ("parent", ""), ("body", body)],
            )
            .await;
        assert!(posted.status.is_redirection() || posted.status.is_success(), "{}", posted.status);
        shown_on(&b, &mut ada, LESSON, "a comment", |p| p.body.contains(body)).await;

        // Signed out on one: the session the other kept is gone there too.
        let mut kept = Jar::default();
        kept.plant("lockstep_session", ada.cookie("lockstep_session").unwrap());
        assert!(!kept.get(&b, LESSON).await.body.contains(SIGNED_OUT));
        ada.submit(&a, "/account/sign-out", &[]).await;
        shown_on(&b, &mut kept, LESSON, "signing out", |p| p.body.contains(SIGNED_OUT)).await;

        // A write no app announces (straight into the database): the other machine's kept
        // account still has the old session epoch, until its listening connection is lost,
        // when it forgets everything; back, it reads afresh.
        let form = [("email", "ada@example.org"), ("password", PASSWORD)];
        let mut ada = Jar::default();
        ada.submit(&a, "/account/sign-in", &form).await;
        for _ in 0..2 {
            assert!(!ada.get(&b, LESSON).await.body.contains(SIGNED_OUT));
        }
        db.execute("UPDATE accounts SET session_epoch = session_epoch + 1").await.unwrap();
        assert!(
            !ada.get(&b, LESSON).await.body.contains(SIGNED_OUT),
            "unannounced, the kept account is what the page reads (else this test shows nothing)"
        );
        let before = until_listening(&mut db, 2).await;
        for pid in &before {
            sqlx::query("SELECT pg_terminate_backend($1)")
                .bind(pid)
                .execute(&mut db)
                .await
                .unwrap();
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while until_listening(&mut db, 2).await.iter().any(|p| before.contains(p)) {
            assert!(Instant::now() < deadline, "the apps listen again");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(
            ada.get(&b, LESSON).await.body.contains(SIGNED_OUT),
            "what was kept before the connection was lost is forgotten"
        );
    });
}
