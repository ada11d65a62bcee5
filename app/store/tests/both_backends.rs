//! The same tests against SQLite and a real PostgreSQL server.
//!
//! The PostgreSQL URL comes from `LOCKSTEP_TEST_POSTGRES_URL`, which the test command
//! (`cargo xtask test`) sets after starting a throwaway server. Each test creates its own
//! database so tests run in parallel without seeing each other's rows. Without the variable the
//! PostgreSQL half fails, loudly: a database test that silently skips would hide a broken backend.

use lockstep_store::{Backend, Store};
use sqlx::Connection;

async fn sqlite() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.sqlite3").display());
    let store = Store::connect(&url).await.unwrap();
    assert_eq!(store.backend(), Backend::Sqlite);
    (dir, store)
}

async fn postgres(name: &str) -> Store {
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
    let store = Store::connect(&format!("{prefix}/{db}")).await.unwrap();
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
