//! Writes a caller combines in one transaction (`Store::write`): all of them show once it
//! commits, none when it is dropped, and this process's kept reads never outlive the commit.

mod common;

use common::{postgres, sqlite};
use lockstep_store::{LastAnswers, Store};
use lockstep_xp::{Action, Event};

fn lesson(slug: &str) -> Action {
    Action::LessonCompleted { lesson: slug.into() }
}

fn quiz(slug: &str, quiz: u32) -> Action {
    Action::QuizPassed { lesson: slug.into(), quiz }
}

async fn writes_commit_together_or_not_at_all(store: &Store) {
    store.issue_learner("l1", 1).await.unwrap();

    let mut write = store.write().await.unwrap();
    write.keep_quiz_answers("l1", ("torchrun", 0), &[vec![1]], false, 10).await.unwrap();
    assert!(write.record("l1", &quiz("torchrun", 0), 10).await.unwrap());
    drop(write);
    assert_eq!(store.events("l1").await.unwrap(), [], "a dropped write records nothing");
    assert_eq!(store.last_quiz_answers("l1", "torchrun").await.unwrap(), []);
    assert_eq!(store.quiz_attempts("l1", "torchrun", 0).await.unwrap(), (0, 0));

    // An answer and the two actions it earned: all or nothing.
    let mut write = store.write().await.unwrap();
    write
        .keep_quiz_answers("l1", ("torchrun", 0), &[vec![2], vec![0, 1]], false, 20)
        .await
        .unwrap();
    assert!(write.record("l1", &quiz("torchrun", 0), 20).await.unwrap());
    assert!(write.record("l1", &lesson("torchrun"), 20).await.unwrap());
    assert!(!write.record("l1", &lesson("torchrun"), 21).await.unwrap(), "once, in a write too");
    write.commit().await.unwrap();
    assert_eq!(
        store.events("l1").await.unwrap(),
        [
            Event { action: quiz("torchrun", 0), at: 20, day: 0 },
            Event { action: lesson("torchrun"), at: 20, day: 0 }
        ]
    );
    assert_eq!(
        store.last_quiz_answers("l1", "torchrun").await.unwrap(),
        [LastAnswers {
            quiz: 0,
            answers: vec![vec![2], vec![0, 1]],
            attempts: 1,
            visitor_order: false
        }]
    );

    // A reset and what is earned again after it, in one transaction.
    let mut write = store.write().await.unwrap();
    assert_eq!(write.reset_lesson("l1", "torchrun", 30).await.unwrap(), 2);
    assert!(write.record("l1", &lesson("torchrun"), 30).await.unwrap());
    drop(write);
    assert_eq!(store.events("l1").await.unwrap().len(), 2, "a dropped reset resets nothing");
    let mut write = store.write().await.unwrap();
    assert_eq!(write.reset_lesson("l1", "torchrun", 31).await.unwrap(), 2);
    assert!(write.record("l1", &lesson("torchrun"), 31).await.unwrap());
    write.commit().await.unwrap();
    assert_eq!(
        store.events("l1").await.unwrap(),
        [Event { action: lesson("torchrun"), at: 31, day: 0 }]
    );
    assert_eq!(store.quiz_attempts("l1", "torchrun", 0).await.unwrap(), (0, 1));
}

/// Kept reads (`Store::cached`) of a learner a committed write changed are not served again,
/// even one read while the write was open, before its commit.
async fn kept_reads_follow_a_committed_write(store: &Store) {
    store.issue_learner("l2", 1).await.unwrap();
    store.issue_learner("l3", 1).await.unwrap();
    assert_eq!(store.cached().learner("l2").await.unwrap().events, []);
    assert_eq!(store.cached().learner("l3").await.unwrap().events, []);

    let mut write = store.write().await.unwrap();
    write.record("l2", &lesson("torchrun"), 10).await.unwrap();
    write.keep_quiz_answers("l3", ("torchrun", 0), &[vec![1]], false, 10).await.unwrap();
    write.record("l3", &quiz("torchrun", 0), 10).await.unwrap();
    // Not committed yet: a read now sees the database before the write, and is kept.
    assert_eq!(store.cached().learner("l2").await.unwrap().events, []);
    write.commit().await.unwrap();

    for learner in ["l2", "l3"] {
        let kept = store.cached().learner(learner).await.unwrap();
        assert_eq!(kept.events, store.events(learner).await.unwrap(), "events of {learner}");
        assert_eq!(kept.events.len(), 1, "{learner}");
        assert_eq!(
            kept.last_quiz_answers("torchrun"),
            store.last_quiz_answers(learner, "torchrun").await.unwrap(),
            "quiz answers of {learner}"
        );
    }

    // A dropped write leaves the kept reads equal to the database.
    let mut write = store.write().await.unwrap();
    write.reset_lesson("l3", "torchrun", 20).await.unwrap();
    drop(write);
    let kept = store.cached().learner("l3").await.unwrap();
    assert_eq!(kept.events, store.events("l3").await.unwrap());
    assert_eq!(kept.last_quiz_answers("torchrun").len(), 1);
}

#[tokio::test]
async fn sqlite_writes_commit_together() {
    let (_dir, store) = sqlite().await;
    writes_commit_together_or_not_at_all(&store).await;
}

#[tokio::test]
async fn postgres_writes_commit_together() {
    writes_commit_together_or_not_at_all(&postgres("writes").await).await;
}

#[tokio::test]
async fn sqlite_kept_reads_follow_a_committed_write() {
    let (_dir, store) = sqlite().await;
    kept_reads_follow_a_committed_write(&store).await;
}

#[tokio::test]
async fn postgres_kept_reads_follow_a_committed_write() {
    kept_reads_follow_a_committed_write(&postgres("writes_kept").await).await;
}
