//! The same tests against SQLite and a real PostgreSQL server.
//!
//! The PostgreSQL URL comes from `LOCKSTEP_TEST_POSTGRES_URL`, which the test command
//! (`cargo xtask test`) sets after starting a throwaway server. Each test creates its own
//! database so tests run in parallel without seeing each other's rows. Without the variable the
//! PostgreSQL half fails, loudly: a database test that silently skips would hide a broken backend.

mod common;

use common::{postgres, postgres_database, sqlite};
use lockstep_store::{Limit, Refused, Role, Store, TokenKind};
use lockstep_xp::Action;

async fn completions_are_recorded_once(store: &Store) {
    store.issue_learner("l1", 1).await.unwrap();
    store.issue_learner("l2", 1).await.unwrap();
    assert!(common::complete(store, "l1", "ddp-allreduce", 100).await);
    assert!(!common::complete(store, "l1", "ddp-allreduce", 200).await);
    assert!(common::complete(store, "l1", "dataparallel", 150).await);
    assert!(common::complete(store, "l2", "dataparallel", 50).await);
    assert_eq!(common::completed(store, "l1").await, vec!["ddp-allreduce", "dataparallel"]);
    assert_eq!(common::completed(store, "l2").await, vec!["dataparallel"]);
    assert!(common::completed(store, "nobody").await.is_empty());
}

fn quiz(lesson: &str, quiz: u32) -> Action {
    Action::QuizPassed { lesson: lesson.into(), quiz }
}

async fn events_are_recorded_once_and_reset_by_lesson(store: &Store) {
    let sim = Action::SimulationExplored { lesson: "ddp-allreduce".into(), sim: 1 };
    store.issue_learner("l1", 1).await.unwrap();
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
    store.issue_learner("racer", 1).await.unwrap();
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

/// Streak days are the learner's: each event's day is fixed in the zone they had when it was
/// recorded, a zone changes at most once a day (however many requests ask at once), and a new
/// account takes the zone of the browser it merged.
async fn days_are_counted_in_the_learner_s_zone(store: &Store) {
    use lockstep_store::{ZoneChange, ZONE_CHANGE_MS};
    // 2025-11-29 23:30 and 2025-11-30 00:30 in Seoul (14:30 and 15:30 UTC, one UTC day).
    let (late, early) = (1_764_426_600, 1_764_430_200);
    let lesson = |l: &str| Action::LessonCompleted { lesson: l.into() };
    store.issue_learner("seoul", 1).await.unwrap();
    assert_eq!(store.time_zone("seoul").await.unwrap(), None);
    // Without a zone, the site's default (Seoul) counts.
    store.record("seoul", &lesson("a"), late).await.unwrap();
    let at = (late - 60) * 1000;
    assert_eq!(store.set_time_zone("seoul", "Asia/Seoul", at).await.unwrap(), ZoneChange::Set);
    assert_eq!(
        store.set_time_zone("seoul", "Asia/Seoul", at).await.unwrap(),
        ZoneChange::Unchanged
    );
    store.record("seoul", &lesson("b"), early).await.unwrap();
    let days: Vec<i64> = store.events("seoul").await.unwrap().iter().map(|e| e.day).collect();
    assert_eq!(days, [20_421, 20_422], "two days in Seoul, where UTC has one");
    // Moving to New York within the day is refused; after a day it is kept, and only the
    // events recorded after it are counted there.
    let ny = "America/New_York";
    assert_eq!(store.set_time_zone("seoul", ny, at + 1000).await.unwrap(), ZoneChange::TooSoon);
    assert_eq!(store.time_zone("seoul").await.unwrap().as_deref(), Some("Asia/Seoul"));
    let later = at + ZONE_CHANGE_MS;
    assert_eq!(store.set_time_zone("seoul", ny, later).await.unwrap(), ZoneChange::Set);
    // 2025-12-01 03:00 UTC is 2025-11-30 22:00 in New York.
    store.record("seoul", &lesson("c"), 1_764_558_000).await.unwrap();
    let days: Vec<i64> = store.events("seoul").await.unwrap().iter().map(|e| e.day).collect();
    assert_eq!(days, [20_421, 20_422, 20_422]);
    // Twenty requests at once, each for another zone, a day after: exactly one is kept.
    let zones = ["Europe/Paris", "Asia/Tokyo", "America/Chicago", "Australia/Sydney"];
    let tasks: Vec<_> = (0..20)
        .map(|i| {
            let store = store.clone();
            let zone = zones[i % zones.len()];
            let now = later + ZONE_CHANGE_MS + i as i64;
            tokio::spawn(async move { store.set_time_zone("seoul", zone, now).await.unwrap() })
        })
        .collect();
    let mut set = 0;
    for t in tasks {
        set += usize::from(t.await.unwrap() == ZoneChange::Set);
    }
    assert_eq!(set, 1);
    // Signing up: the account's new learner takes the browser's zone; one with a zone keeps it.
    let account = store.create_account("tz@example.org", "h", "acct-tz", 1).await.unwrap().unwrap();
    store.issue_learner("anon-tz", 1).await.unwrap();
    store.set_time_zone("anon-tz", "Asia/Kolkata", 5).await.unwrap();
    store.merge_learner("anon-tz", &account.learner_id).await.unwrap();
    let zone = store.time_zone(&account.learner_id).await.unwrap();
    assert_eq!(zone.as_deref(), Some("Asia/Kolkata"));
    store.issue_learner("anon-2", 1).await.unwrap();
    store.set_time_zone("anon-2", "Europe/Paris", 5).await.unwrap();
    store.merge_learner("anon-2", &account.learner_id).await.unwrap();
    let zone = store.time_zone(&account.learner_id).await.unwrap();
    assert_eq!(zone.as_deref(), Some("Asia/Kolkata"));
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
    assert_eq!(common::completed(&store, "old").await, vec!["torchrun", "dataparallel"]);
    let events: Vec<(Action, i64)> =
        store.events("other").await.unwrap().into_iter().map(|e| (e.action, e.at)).collect();
    assert_eq!(events, vec![(Action::LessonCompleted { lesson: "torchrun".into() }, 9)]);
    assert!(!common::complete(&store, "old", "torchrun", 50).await, "still counted once");
}

async fn reconnect_keeps_data_and_migrations_are_idempotent(store: Store, url: &str) {
    store.issue_learner("l1", 1).await.unwrap();
    common::complete(&store, "l1", "x", 1).await;
    store.close().await;
    let again = Store::connect(url).await.unwrap();
    assert_eq!(common::completed(&again, "l1").await, vec!["x"]);
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
    // A new password revokes the account's terminal token with the sessions.
    let token = (TokenKind::Learner, "terminal", Some(a.learner_id.as_str()), "sha-of-token");
    assert!(store.create_token(token.0, token.1, token.2, token.3, 12).await.unwrap());
    assert!(store.token_owner("sha-of-token").await.unwrap().is_some());
    assert_eq!(store.set_password_hash(a.id, "hash3", 13).await.unwrap(), Some(1));
    assert_eq!(store.token_owner("sha-of-token").await.unwrap(), None);
    assert_eq!(store.set_password_hash(-1, "hash3", 13).await.unwrap(), None);
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
    store.issue_learner("anon", 5).await.unwrap();
    assert!(store.is_live_learner("anon").await.unwrap());
    store.record("anon", &lesson, 6).await.unwrap();
    store.record("anon", &sim, 7).await.unwrap();
    // An answer and the XP it earned are kept together; a second pass earns nothing new.
    let earned = [quiz("torchrun", 0)];
    for (answer, first) in [(0, true), (1, false)] {
        let answers = [vec![answer]];
        let recorded = common::answer(store, "anon", ("torchrun", 0), &answers, &earned, 8);
        assert_eq!(recorded.await.unwrap(), vec![first]);
    }
    // A reset event moves as history and counts nowhere.
    store.record("anon", &quiz("dataparallel", 0), 3).await.unwrap();
    store.reset_lesson("anon", "dataparallel", 4).await.unwrap();
    let merged = store.merge_learner("anon", &account.learner_id).await.unwrap();
    assert_eq!(merged.moved, vec![sim.clone(), quiz("torchrun", 0)]);
    assert_eq!((merged.already_had, merged.quiz_answers), (1, 2));
    let mine: Vec<Action> =
        store.events(&account.learner_id).await.unwrap().into_iter().map(|e| e.action).collect();
    assert_eq!(mine, vec![lesson.clone(), sim, quiz("torchrun", 0)]);
    assert_eq!(
        store.last_quiz_answers(&account.learner_id, "torchrun").await.unwrap(),
        vec![lockstep_store::LastAnswers {
            quiz: 0,
            answers: vec![vec![1]],
            attempts: 2,
            visitor_order: false
        }]
    );
    // Merged, the anonymous id names no one any more: a cookie replayed after the merge is a
    // stranger's. A made-up id never did.
    assert!(!store.is_live_learner("anon").await.unwrap());
    assert!(store.is_live_learner(&account.learner_id).await.unwrap());
    assert!(!store.is_live_learner("0123456789abcdef0123456789abcdef").await.unwrap());
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

async fn attempts_are_limited_per_key(store: &Store) {
    let limits = |max| [Limit::new("account:x", max, 60), Limit::new("address:1.2.3.4", 10, 60)];
    let mut taken = Vec::new();
    for at in [100, 110, 120] {
        taken.push(store.attempt(&limits(3), at).await.unwrap().expect("under the limit"));
    }
    // The fourth within the window is refused, says when the oldest leaves, and records nothing.
    let refused = store.attempt(&limits(3), 130).await.unwrap().unwrap_err();
    assert_eq!(refused, Refused { key: "account:x".into(), attempts: 3, free_at: 160 });
    let address = Limit::new("address:1.2.3.4", 3, 60);
    assert!(
        store.attempt(std::slice::from_ref(&address), 130).await.unwrap().is_err(),
        "3 counted"
    );
    // A forgiven attempt no longer counts under that key; the window slides past the oldest.
    store.forgive(&taken[2], "address:1.2.3.4").await.unwrap();
    assert!(store.attempt(std::slice::from_ref(&address), 131).await.unwrap().is_ok());
    assert!(store.attempt(&limits(3), 161).await.unwrap().is_ok(), "100 left the window");
    store.clear_attempts("account:x").await.unwrap();
    for at in [162, 163] {
        assert!(store.attempt(&[Limit::new("account:x", 3, 60)], at).await.unwrap().is_ok());
    }
}

/// Parallel attempts at one key: exactly the limit pass, whatever order they commit in.
async fn parallel_attempts_pass_exactly_the_limit(store: &Store) {
    let tasks: Vec<_> = (0..40)
        .map(|_| {
            let store = store.clone();
            tokio::spawn(async move {
                let limits =
                    [Limit::new("account:race", 7, 900), Limit::new("address:race", 50, 900)];
                store.attempt(&limits, 1_000).await.unwrap().is_ok()
            })
        })
        .collect();
    let mut passed = 0;
    for t in tasks {
        passed += usize::from(t.await.unwrap());
    }
    assert_eq!(passed, 7);
}

#[tokio::test]
async fn sqlite_accounts() {
    let (_dir, store) = sqlite().await;
    accounts_are_unique_and_roles_and_epochs_change(&store).await;
    merging_counts_nothing_twice(&store).await;
    attempts_are_limited_per_key(&store).await;
    parallel_attempts_pass_exactly_the_limit(&store).await;
}

#[tokio::test]
async fn postgres_accounts() {
    let store = postgres("accounts").await;
    accounts_are_unique_and_roles_and_epochs_change(&store).await;
    merging_counts_nothing_twice(&store).await;
    attempts_are_limited_per_key(&store).await;
    parallel_attempts_pass_exactly_the_limit(&store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_time_zones() {
    let (_dir, store) = sqlite().await;
    days_are_counted_in_the_learner_s_zone(&store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_time_zones() {
    let store = postgres("time_zones").await;
    days_are_counted_in_the_learner_s_zone(&store).await;
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
