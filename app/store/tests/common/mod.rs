//! Stores for the tests: a SQLite file in a temporary folder, or a new database on the
//! PostgreSQL server the test command starts.
#![allow(dead_code)]

use lockstep_store::{Backend, Store};
use sqlx::Connection;

pub async fn sqlite() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.sqlite3").display());
    let store = Store::connect(&url).await.unwrap();
    assert_eq!(store.backend(), Backend::Sqlite);
    (dir, store)
}

/// A new, empty database on the test server; its URL.
pub async fn postgres_database(name: &str) -> String {
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

pub async fn postgres(name: &str) -> Store {
    let store = Store::connect(&postgres_database(name).await).await.unwrap();
    assert_eq!(store.backend(), Backend::Postgres);
    store
}

/// Submits `new` as its learner, issuing the learner first as the server does, under a limit
/// no test reaches.
pub async fn submit(store: &Store, new: &lockstep_store::NewSubmission<'_>, at_ms: i64) -> i64 {
    store.issue_learner(new.learner, at_ms / 1000).await.unwrap();
    let unlimited = lockstep_store::Limit::new(format!("submit:{}", new.learner), u64::MAX, 3600);
    store.submit(new, at_ms, &unlimited).await.unwrap().expect("no limit reached")
}

/// Marks a lesson complete; `true` the first time.
pub async fn complete(store: &Store, learner: &str, slug: &str, at: i64) -> bool {
    let action = lockstep_xp::Action::LessonCompleted { lesson: slug.into() };
    store.record(learner, &action, at).await.unwrap()
}

/// The lessons a learner completed (and did not reset), oldest first.
pub async fn completed(store: &Store, learner: &str) -> Vec<String> {
    let events = store.events(learner).await.unwrap();
    events
        .into_iter()
        .filter_map(|e| match e.action {
            lockstep_xp::Action::LessonCompleted { lesson } => Some(lesson),
            _ => None,
        })
        .collect()
}

/// Keeps an answer and records what it earned in one write, as the quiz's rule does; per
/// action, whether it was recorded now.
pub async fn answer(
    store: &Store,
    learner: &str,
    (lesson, quiz): (&str, u32),
    answers: &[Vec<usize>],
    earned: &[lockstep_xp::Action],
    now: i64,
) -> Result<Vec<bool>, lockstep_store::StoreError> {
    let mut write = store.write().await?;
    write.keep_quiz_answers(learner, (lesson, quiz), answers, false, now).await?;
    let mut recorded = Vec::new();
    for action in earned {
        recorded.push(write.record(learner, action, now).await?);
    }
    write.commit().await?;
    Ok(recorded)
}
