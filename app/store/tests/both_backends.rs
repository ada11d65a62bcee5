//! The same tests against SQLite and a real PostgreSQL server.
//!
//! The PostgreSQL URL comes from `LOCKSTEP_TEST_POSTGRES_URL`, which the test command
//! (`cargo xtask test`) sets after starting a throwaway server. Each test creates its own
//! database so tests run in parallel without seeing each other's rows. Without the variable the
//! PostgreSQL half fails, loudly: a database test that silently skips would hide a broken backend.

use lockstep_store::{Backend, Store};
use lockstep_xp::Action;
use sqlx::Connection;

async fn sqlite() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.sqlite3").display());
    let store = Store::connect(&url).await.unwrap();
    assert_eq!(store.backend(), Backend::Sqlite);
    (dir, store)
}

/// A new, empty database on the test server; its URL.
async fn postgres_database(name: &str) -> String {
    let base = std::env::var("LOCKSTEP_TEST_POSTGRES_URL").expect(
        "LOCKSTEP_TEST_POSTGRES_URL is not set: run the database tests through `cargo xtask test`, \
         which starts a PostgreSQL server for them",
    );
    let db = format!("t_{name}_{}", std::process::id());
    let mut admin = sqlx::PgConnection::connect(&base).await.unwrap();
    sqlx::Executor::execute(&mut admin, format!("DROP DATABASE IF EXISTS {db}").as_str())
        .await
        .unwrap();
    sqlx::Executor::execute(&mut admin, format!("CREATE DATABASE {db}").as_str()).await.unwrap();
    let (prefix, _) = base.rsplit_once('/').unwrap();
    format!("{prefix}/{db}")
}

async fn postgres(name: &str) -> Store {
    let store = Store::connect(&postgres_database(name).await).await.unwrap();
    assert_eq!(store.backend(), Backend::Postgres);
    store
}

async fn completions_are_recorded_once(store: &Store) {
    assert!(store.complete_lesson("l1", "ddp-allreduce", 100).await.unwrap());
    assert!(!store.complete_lesson("l1", "ddp-allreduce", 200).await.unwrap());
    assert!(store.complete_lesson("l1", "dataparallel", 150).await.unwrap());
    assert!(store.complete_lesson("l2", "dataparallel", 50).await.unwrap());
    assert_eq!(store.completed_lessons("l1").await.unwrap(), vec!["ddp-allreduce", "dataparallel"]);
    assert_eq!(store.completed_lessons("l2").await.unwrap(), vec!["dataparallel"]);
    assert!(store.completed_lessons("nobody").await.unwrap().is_empty());
}

fn quiz(lesson: &str, quiz: u32) -> Action {
    Action::QuizPassed { lesson: lesson.into(), quiz }
}

async fn events_are_recorded_once_and_reset_by_lesson(store: &Store) {
    let sim = Action::SimulationExplored { lesson: "ddp-allreduce".into(), sim: 1 };
    assert!(store.record("l1", &sim, 10).await.unwrap());
    assert!(!store.record("l1", &sim, 20).await.unwrap(), "a repeat records nothing");
    assert!(store.record("l1", &quiz("ddp-allreduce", 0), 30).await.unwrap());
    assert!(store.record("l1", &quiz("dataparallel", 0), 40).await.unwrap());
    let ex = Action::ExercisePassed { exercise: "ddp-conversion".into() };
    assert!(store.record("l1", &ex, 50).await.unwrap());
    let got: Vec<(Action, i64)> =
        store.events("l1").await.unwrap().into_iter().map(|e| (e.action, e.at)).collect();
    assert_eq!(
        got,
        vec![
            (sim.clone(), 10),
            (quiz("ddp-allreduce", 0), 30),
            (quiz("dataparallel", 0), 40),
            (ex.clone(), 50)
        ]
    );
    // Resetting a lesson keeps its events but stops them counting; they can be earned again.
    assert_eq!(store.reset_lesson("l1", "ddp-allreduce", 60).await.unwrap(), 2);
    assert_eq!(store.reset_lesson("l1", "ddp-allreduce", 61).await.unwrap(), 0);
    let left: Vec<Action> =
        store.events("l1").await.unwrap().into_iter().map(|e| e.action).collect();
    assert_eq!(left, vec![quiz("dataparallel", 0), ex]);
    assert!(store.record("l1", &sim, 70).await.unwrap(), "earned again after the reset");
    assert!(store.events("l2").await.unwrap().is_empty(), "another learner's events are their own");
}

/// Fifty requests recording the same action at once (a replayed form, a double click on a
/// slow line): exactly one is recorded.
async fn concurrent_repeats_record_one_event(store: &Store) {
    let action = quiz("torchrun", 0);
    let tasks: Vec<_> = (0..50)
        .map(|i| {
            let (store, action) = (store.clone(), action.clone());
            tokio::spawn(async move { store.record("racer", &action, 100 + i).await.unwrap() })
        })
        .collect();
    let mut firsts = 0;
    for t in tasks {
        firsts += usize::from(t.await.unwrap());
    }
    assert_eq!(firsts, 1);
    assert_eq!(store.events("racer").await.unwrap().len(), 1);
}

/// A database from before events existed: its lesson completions become events, nothing lost.
async fn old_completions_become_events(url: &str, all: &sqlx::migrate::Migrator) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let first = sqlx::migrate::Migrator {
        migrations: std::borrow::Cow::Owned(all.migrations[..1].to_vec()),
        ..sqlx::migrate::Migrator::DEFAULT
    };
    first.run(&pool).await.unwrap();
    for (learner, lesson, at) in
        [("old", "torchrun", 5), ("old", "dataparallel", 7), ("other", "torchrun", 9)]
    {
        sqlx::query("INSERT INTO learners (id, created_at) VALUES ($1, 1) ON CONFLICT DO NOTHING")
            .bind(learner)
            .execute(&pool)
            .await
            .unwrap();
        sqlx::query("INSERT INTO lesson_completions (learner_id, lesson_slug, completed_at) VALUES ($1, $2, $3)")
            .bind(learner)
            .bind(lesson)
            .bind(at)
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;
    let store = Store::connect(url).await.unwrap();
    assert_eq!(store.completed_lessons("old").await.unwrap(), vec!["torchrun", "dataparallel"]);
    let events: Vec<(Action, i64)> =
        store.events("other").await.unwrap().into_iter().map(|e| (e.action, e.at)).collect();
    assert_eq!(events, vec![(Action::LessonCompleted { lesson: "torchrun".into() }, 9)]);
    assert!(!store.complete_lesson("old", "torchrun", 50).await.unwrap(), "still counted once");
}

async fn reconnect_keeps_data_and_migrations_are_idempotent(store: Store, url: &str) {
    store.complete_lesson("l1", "x", 1).await.unwrap();
    store.close().await;
    let again = Store::connect(url).await.unwrap();
    assert_eq!(again.completed_lessons("l1").await.unwrap(), vec!["x"]);
}

#[tokio::test]
async fn sqlite_completions() {
    let (_dir, store) = sqlite().await;
    completions_are_recorded_once(&store).await;
}

#[tokio::test]
async fn postgres_completions() {
    let store = postgres("completions").await;
    completions_are_recorded_once(&store).await;
}

#[tokio::test]
async fn sqlite_events() {
    let (_dir, store) = sqlite().await;
    events_are_recorded_once_and_reset_by_lesson(&store).await;
}

#[tokio::test]
async fn postgres_events() {
    let store = postgres("events").await;
    events_are_recorded_once_and_reset_by_lesson(&store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_concurrent_repeats() {
    let (_dir, store) = sqlite().await;
    concurrent_repeats_record_one_event(&store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_concurrent_repeats() {
    let store = postgres("concurrent").await;
    concurrent_repeats_record_one_event(&store).await;
}

#[tokio::test]
async fn sqlite_migrates_old_completions() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("old.sqlite3").display());
    old_completions_become_events(&url, &sqlx::migrate!("migrations/sqlite")).await;
}

#[tokio::test]
async fn postgres_migrates_old_completions() {
    // A database of its own, left at the first migration.
    let url = postgres_database("oldschema").await;
    old_completions_become_events(&url, &sqlx::migrate!("migrations/postgres")).await;
}

#[tokio::test]
async fn sqlite_reconnect() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.sqlite3").display());
    let store = Store::connect(&url).await.unwrap();
    reconnect_keeps_data_and_migrations_are_idempotent(store, &url).await;
}

#[tokio::test]
async fn postgres_reconnect() {
    let store = postgres("reconnect").await;
    let base = std::env::var("LOCKSTEP_TEST_POSTGRES_URL").unwrap();
    let (prefix, _) = base.rsplit_once('/').unwrap();
    let url = format!("{prefix}/t_reconnect_{}", std::process::id());
    reconnect_keeps_data_and_migrations_are_idempotent(store, &url).await;
}

#[tokio::test]
async fn unsupported_url_is_a_clear_error() {
    let err = Store::connect("mysql://x").await.unwrap_err();
    assert!(err.to_string().contains("unsupported database URL `mysql://x`"), "{err}");
}
