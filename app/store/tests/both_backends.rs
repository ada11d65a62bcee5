//! The same tests against SQLite and a real PostgreSQL server.
//!
//! The PostgreSQL URL comes from `LOCKSTEP_TEST_POSTGRES_URL`, which the test command
//! (`cargo xtask test`) sets after starting a throwaway server. Each test creates its own
//! database so tests run in parallel without seeing each other's rows. Without the variable the
//! PostgreSQL half fails, loudly: a database test that silently skips would hide a broken backend.

mod common;

use common::{postgres, postgres_database, sqlite};
use lockstep_store::{Role, Store};
use lockstep_xp::Action;

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

async fn accounts_are_unique_and_roles_and_epochs_change(store: &Store) {
    let a =
        store.create_account("ada@example.org", "hash1", "acct-ada", 10).await.unwrap().unwrap();
    assert_eq!((a.email.as_str(), a.role, a.session_epoch), ("ada@example.org", Role::Learner, 0));
    assert_eq!(
        store.create_account("ada@example.org", "hash2", "acct-ada-2", 11).await.unwrap(),
        None,
        "a taken email makes no second account"
    );
    assert!(store.events("acct-ada-2").await.unwrap().is_empty());
    assert!(store.set_role("ada@example.org", Role::Instructor).await.unwrap());
    assert!(!store.set_role("nobody@example.org", Role::Instructor).await.unwrap());
    assert_eq!(store.set_password_hash(a.id, "hash3").await.unwrap(), Some(1));
    assert_eq!(store.set_password_hash(-1, "hash3").await.unwrap(), None);
    let again = store.account_by_email("ada@example.org").await.unwrap().unwrap();
    assert_eq!(
        (again.role, again.password_hash.as_str(), again.session_epoch),
        (Role::Instructor, "hash3", 1)
    );
    assert_eq!(store.account_by_id(a.id).await.unwrap(), Some(again));
    assert_eq!(store.accounts().await.unwrap().len(), 1);
}

/// Anonymous progress merged into an account: what the account lacked moves, what it had
/// stays behind counted once, quiz answers move, and merging again moves nothing.
async fn merging_counts_nothing_twice(store: &Store) {
    let account = store.create_account("bo@example.org", "h", "acct-bo", 1).await.unwrap().unwrap();
    let lesson = Action::LessonCompleted { lesson: "torchrun".into() };
    let sim = Action::SimulationExplored { lesson: "torchrun".into(), sim: 0 };
    store.record(&account.learner_id, &lesson, 5).await.unwrap();
    store.record("anon", &lesson, 6).await.unwrap();
    store.record("anon", &sim, 7).await.unwrap();
    store.record("anon", &quiz("torchrun", 0), 8).await.unwrap();
    store.record_quiz_answers("anon", "torchrun", 0, &[vec![1]], 8).await.unwrap();
    // A reset event moves as history and counts nowhere.
    store.record("anon", &quiz("dataparallel", 0), 3).await.unwrap();
    store.reset_lesson("anon", "dataparallel", 4).await.unwrap();
    let merged = store.merge_learner("anon", &account.learner_id).await.unwrap();
    assert_eq!(merged.moved, vec![sim.clone(), quiz("torchrun", 0)]);
    assert_eq!((merged.already_had, merged.quiz_answers), (1, 1));
    let mine: Vec<Action> =
        store.events(&account.learner_id).await.unwrap().into_iter().map(|e| e.action).collect();
    assert_eq!(mine, vec![lesson.clone(), sim, quiz("torchrun", 0)]);
    assert_eq!(
        store.last_quiz_answers(&account.learner_id, "torchrun").await.unwrap(),
        vec![(0, vec![vec![1]])]
    );
    let again = store.merge_learner("anon", &account.learner_id).await.unwrap();
    assert!(again.moved.is_empty());
    assert_eq!(store.merge_learner("acct-bo", "acct-bo").await.unwrap(), Default::default());
    // The instructor's view: the account, not the merged anonymous learner.
    let report = store.learners_report().await.unwrap();
    assert!(report.iter().all(|l| l.learner_id != "anon"), "{report:?}");
    let bo = report.iter().find(|l| l.email.as_deref() == Some("bo@example.org")).unwrap();
    assert_eq!(bo.events.len(), 3);
    let firsts = store.first_quiz_answers().await.unwrap();
    assert_eq!(firsts.len(), 1);
    assert_eq!((firsts[0].lesson.as_str(), firsts[0].quiz), ("torchrun", 0));
}

async fn sign_in_failures_are_counted_per_key(store: &Store) {
    for at in [100, 110, 120] {
        store.record_sign_in_failure(&["account:x", "address:1.2.3.4"], at, 0).await.unwrap();
    }
    store.record_sign_in_failure(&["account:y", "address:1.2.3.4"], 130, 0).await.unwrap();
    assert_eq!(store.sign_in_failures("account:x", 0).await.unwrap(), (3, Some(100)));
    assert_eq!(store.sign_in_failures("account:x", 105).await.unwrap(), (2, Some(110)));
    assert_eq!(store.sign_in_failures("address:1.2.3.4", 0).await.unwrap(), (4, Some(100)));
    store.clear_sign_in_failures("account:x").await.unwrap();
    assert_eq!(store.sign_in_failures("account:x", 0).await.unwrap(), (0, None));
    // Old failures are forgotten as new ones are counted.
    store.record_sign_in_failure(&["account:z"], 500, 125).await.unwrap();
    assert_eq!(store.sign_in_failures("address:1.2.3.4", 0).await.unwrap(), (1, Some(130)));
}

#[tokio::test]
async fn sqlite_accounts() {
    let (_dir, store) = sqlite().await;
    accounts_are_unique_and_roles_and_epochs_change(&store).await;
    merging_counts_nothing_twice(&store).await;
    sign_in_failures_are_counted_per_key(&store).await;
}

#[tokio::test]
async fn postgres_accounts() {
    let store = postgres("accounts").await;
    accounts_are_unique_and_roles_and_epochs_change(&store).await;
    merging_counts_nothing_twice(&store).await;
    sign_in_failures_are_counted_per_key(&store).await;
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
