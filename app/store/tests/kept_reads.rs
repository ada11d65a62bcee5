//! Reads kept between writes (`Store::cached`): after every kind of write this process makes,
//! the kept reads equal the database's, on SQLite and on PostgreSQL (listening for other
//! processes' writes, or not, when nothing is kept). On SQLite a write by another process shows
//! once its time to live is over; on PostgreSQL at once, announced.

mod common;

use std::time::Duration;

use common::{postgres, sqlite};
use grading_protocol::Status;
use lockstep_store::{NewSubmission, Role, Store};
use lockstep_xp::Action;

const LESSONS: [&str; 2] = ["torchrun", "dataparallel"];

/// The kept reads of `learner` equal fresh reads of the database.
async fn agree(store: &Store, learner: &str, step: &str) {
    let kept = store.cached().learner(learner).await.unwrap();
    assert_eq!(kept.events, store.events(learner).await.unwrap(), "events after {step}");
    for lesson in LESSONS {
        assert_eq!(
            kept.last_quiz_answers(lesson),
            store.last_quiz_answers(learner, lesson).await.unwrap(),
            "quiz answers of {lesson} after {step}"
        );
    }
}

async fn every_write_shows_at_once(store: &Store) {
    let account = store.create_account("kim@example.org", "h1", "acct-kim", 1).await.unwrap();
    let account = account.unwrap();
    let me = account.learner_id.as_str();
    agree(store, me, "nothing").await;
    agree(store, "anon", "nothing").await;

    let lesson = Action::LessonCompleted { lesson: "torchrun".into() };
    store.record(me, &lesson, 2).await.unwrap();
    agree(store, me, "record").await;
    common::answer(store, me, ("torchrun", 0), &[vec![1], vec![0, 2]], &[], 3).await.unwrap();
    agree(store, me, "the first quiz answers").await;
    common::answer(store, me, ("torchrun", 0), &[vec![2], vec![0]], &[], 4).await.unwrap();
    agree(store, me, "answers again").await;
    common::answer(store, me, ("dataparallel", 1), &[vec![3]], &[], 5).await.unwrap();
    agree(store, me, "answers in another lesson").await;
    store.reset_lesson(me, "torchrun", 6).await.unwrap();
    agree(store, me, "reset").await;
    assert_eq!(store.cached().learner(me).await.unwrap().last_quiz_answers("torchrun"), []);
    // The attempt a quiz is on starts again after a reset; the attempts ever made do not.
    assert_eq!(store.quiz_attempts(me, "torchrun", 0).await.unwrap(), (0, 2));
    assert_eq!(store.quiz_attempts(me, "dataparallel", 1).await.unwrap(), (1, 1));

    store.issue_learner("anon", 7).await.unwrap();
    store.record("anon", &lesson, 7).await.unwrap();
    common::answer(store, "anon", ("torchrun", 0), &[vec![1]], &[], 7).await.unwrap();
    agree(store, "anon", "anonymous progress").await;
    store.merge_learner("anon", me).await.unwrap();
    agree(store, "anon", "merge (from)").await;
    agree(store, me, "merge (into)").await;

    let new = NewSubmission { learner: me, exercise: "ddp", file_name: "t.py", script: "x\n" };
    common::submit(store, &new, 8_000).await;
    let job = store.claim("w", None, &["ddp"], "lease", 10_000, 8_000).await.unwrap().unwrap();
    store.finish(job.job, "lease", Status::Pass, "ok", "{}", 9_000).await.unwrap().unwrap();
    agree(store, me, "a passed exercise").await;
    assert!(store.cached().learner(me).await.unwrap().events.iter().any(|e| matches!(
        &e.action,
        Action::ExercisePassed { exercise } if exercise == "ddp"
    )));

    let kept = |store: &Store| {
        let store = store.clone();
        async move { store.cached().account_by_id(account.id).await.unwrap().unwrap() }
    };
    assert_eq!(kept(store).await, account);
    store.set_password_hash(account.id, "h2", 8).await.unwrap();
    assert_eq!(kept(store).await.session_epoch, 1, "a password change ends sessions at once");
    store.set_role("kim@example.org", Role::Instructor).await.unwrap();
    assert_eq!(kept(store).await.role, Role::Instructor);
    assert_eq!(store.cached().account_by_id(-1).await.unwrap(), None);
}

#[tokio::test]
async fn sqlite_every_write_shows_at_once() {
    let (_dir, store) = sqlite().await;
    every_write_shows_at_once(&store).await;
}

#[tokio::test]
async fn postgres_every_write_shows_at_once() {
    every_write_shows_at_once(&postgres("kept_reads").await).await;
    let store = postgres("kept_reads_listening").await;
    listening(&store).await;
    every_write_shows_at_once(&store).await;
}

async fn listening(store: &Store) {
    store.listen_for_writes().unwrap();
    let start = std::time::Instant::now();
    while !store.listening() {
        assert!(start.elapsed() < Duration::from_secs(10), "not listening after 10 s");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// `lockstep admin` changes accounts from its own process; on PostgreSQL it announces the
/// change, and the server's kept account shows it as soon as the announcement arrives.
#[tokio::test]
async fn postgres_another_process_write_is_announced() {
    let url = common::postgres_database("kept_reads_announced").await;
    let server = Store::connect(&url).await.unwrap();
    listening(&server).await;
    let admin = Store::connect(&url).await.unwrap();
    let account = server.create_account("lee@example.org", "h", "acct-lee", 1).await.unwrap();
    let id = account.unwrap().id;
    for _ in 0..2 {
        assert_eq!(server.cached().account_by_id(id).await.unwrap().unwrap().session_epoch, 0);
    }
    admin.set_password_hash(id, "reset", 9).await.unwrap();
    let start = std::time::Instant::now();
    while server.cached().account_by_id(id).await.unwrap().unwrap().session_epoch != 1 {
        // Without the announcement it would be the kept account's whole minute.
        assert!(start.elapsed() < Duration::from_secs(2), "still stale after 2 s");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// `lockstep admin` changes accounts from its own process: the server's kept account shows
/// the change within its two seconds.
#[tokio::test]
async fn sqlite_another_process_write_shows_within_the_time_to_live() {
    let (dir, server) = sqlite().await;
    let url = format!("sqlite://{}", dir.path().join("t.sqlite3").display());
    let admin = Store::connect(&url).await.unwrap();
    let account = server.create_account("lee@example.org", "h", "acct-lee", 1).await.unwrap();
    let id = account.unwrap().id;
    assert_eq!(server.cached().account_by_id(id).await.unwrap().unwrap().session_epoch, 0);
    admin.set_password_hash(id, "reset", 9).await.unwrap();
    let start = std::time::Instant::now();
    loop {
        let epoch = server.cached().account_by_id(id).await.unwrap().unwrap().session_epoch;
        if epoch == 1 {
            break;
        }
        assert!(start.elapsed() < Duration::from_millis(2_500), "still stale after 2.5 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
