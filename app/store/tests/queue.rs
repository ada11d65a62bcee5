//! The grading queue on SQLite and on the real PostgreSQL server: claiming, leases, verdicts
//! stored once, retries, expired leases, and many workers claiming at once.

mod common;

use common::{postgres, sqlite};
use grading_protocol::live::Event;
use grading_protocol::Status;
use lockstep_store::{Limit, NewSubmission, Requeue, RetryPolicy, Store, SubmissionStatus};
use lockstep_xp::Action;

const POLICY: RetryPolicy = RetryPolicy { max_attempts: 3, base_delay_ms: 1_000 };

fn script(learner: &str) -> NewSubmission<'_> {
    NewSubmission {
        learner,
        exercise: "ddp-exercise",
        file_name: "train.py",
        script: "import torch\n",
    }
}

async fn kinds(store: &Store, submission: i64) -> Vec<&'static str> {
    store.submission_events(submission, 0).await.unwrap().iter().map(|e| e.event.kind()).collect()
}

async fn one_verdict_per_job(store: &Store) {
    let a = common::submit(store, &script("ada"), 1_000).await;
    let b = common::submit(store, &script("bob"), 1_001).await;
    assert_eq!(store.queue_depth(1_002).await.unwrap(), (2, 2));
    let events = store.submission_events(b, 0).await.unwrap();
    assert_eq!(events[0].event, Event::Queued { ahead: 1 });

    let job = store
        .claim("w1", None, &["ddp-exercise"], "lease-1", 10_000, 2_000)
        .await
        .unwrap()
        .expect("a job");
    assert_eq!((job.submission.id, job.attempt), (a, 1), "oldest first");
    assert_eq!(job.submission.script, "import torch\n");
    assert_eq!(store.queue_depth(2_000).await.unwrap(), (1, 999), "only b is still queued");
    let status = store.submission(a).await.unwrap().unwrap().status;
    assert_eq!(status, SubmissionStatus::Running);

    // Only the lease holder acts on the job.
    assert!(store.renew(job.job, "lease-1", 10_000, 3_000).await.unwrap());
    assert!(!store.renew(job.job, "forged", 10_000, 3_000).await.unwrap());
    let run = Event::RunStarted { index: 1, role: grading_protocol::RunRole::Ddp, nproc: 2 };
    assert_eq!(store.report(job.job, "forged", &run, 3_000).await.unwrap(), None);
    assert_eq!(store.report(job.job, "lease-1", &run, 3_000).await.unwrap(), Some(a));
    let verdict = r#"{"status":"pass"}"#;
    let finish =
        |lease: &'static str| store.finish(job.job, lease, Status::Pass, "ok", verdict, 4_000);
    assert_eq!(finish("forged").await.unwrap(), None);
    let done = finish("lease-1").await.unwrap().expect("the holder's verdict is stored");
    assert_eq!(done.learner_id, "ada");
    assert_eq!(
        done.recorded,
        vec![
            Action::ExercisePassed { exercise: "ddp-exercise".into() },
            Action::ExerciseFirstTry { exercise: "ddp-exercise".into() },
        ]
    );
    assert_eq!(finish("lease-1").await.unwrap(), None, "a job ends once");
    let graded = store.submission(a).await.unwrap().unwrap();
    assert_eq!(graded.status, SubmissionStatus::Graded);
    assert_eq!(graded.verdict_json.as_deref(), Some(verdict));
    assert_eq!(graded.verdict_status, Some(Status::Pass));
    assert_eq!(kinds(store, a).await, ["queued", "started", "run_started", "verdict"]);
    let events = store.submission_events(a, 0).await.unwrap();
    let after_second = store.submission_events(a, events[1].id).await.unwrap();
    assert_eq!(after_second, events[2..], "replay after an event id");

    // The exercise's XP is recorded once: a second pass records nothing.
    let again = common::submit(store, &script("ada"), 5_000).await;
    let job_b = store
        .claim("w1", None, &["ddp-exercise"], "lease-2", 10_000, 5_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(job_b.submission.id, b);
    let job_again = store
        .claim("w2", None, &["ddp-exercise"], "lease-3", 10_000, 5_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(job_again.submission.id, again);
    assert!(
        store
            .claim("w3", None, &["ddp-exercise"], "lease-4", 10_000, 5_000)
            .await
            .unwrap()
            .is_none(),
        "queue empty"
    );
    let done = store
        .finish(job_again.job, "lease-3", Status::Pass, "ok", verdict, 6_000)
        .await
        .unwrap()
        .unwrap();
    assert!(done.recorded.is_empty(), "{:?}", done.recorded);
    let events = store.events("ada").await.unwrap();
    assert_eq!(events.len(), 2, "{events:?}");

    // A fail records nothing; a later pass is not a first try.
    let fail = store.finish(job_b.job, "lease-2", Status::Fail, "no", "{}", 6_000).await.unwrap();
    assert!(fail.unwrap().recorded.is_empty());
    let retry = common::submit(store, &script("bob"), 7_000).await;
    let job = store
        .claim("w1", None, &["ddp-exercise"], "lease-5", 10_000, 7_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(job.submission.id, retry);
    let done = store.finish(job.job, "lease-5", Status::Pass, "ok", "{}", 8_000).await.unwrap();
    assert_eq!(
        done.unwrap().recorded,
        vec![Action::ExercisePassed { exercise: "ddp-exercise".into() }]
    );
    assert_eq!(store.submissions_of("bob", None).await.unwrap().len(), 2);
    assert_eq!(store.submissions_of("bob", Some("ddp-exercise")).await.unwrap()[0].id, retry);
    assert!(store.submissions_of("bob", Some("other")).await.unwrap().is_empty());
    // The hourly limit is counted in the submission's transaction: past it, nothing is queued.
    let two = Limit::new("submit:cy", 2, 3600);
    store.issue_learner("cy", 7).await.unwrap();
    for at in [7_000, 7_001] {
        assert!(store.submit(&script("cy"), at, &two).await.unwrap().is_ok());
    }
    let refused = store.submit(&script("cy"), 7_002, &two).await.unwrap().unwrap_err();
    assert_eq!((refused.attempts, refused.free_at), (2, 7 + 3600));
    assert_eq!(store.submissions_of("cy", None).await.unwrap().len(), 2);
}

async fn lost_workers_and_failures(store: &Store) {
    let s = common::submit(store, &script("ada"), 0).await;
    // The first worker vanishes: its lease runs out and the job goes back in the queue.
    let first = store.claim("w1", None, &["ddp-exercise"], "l1", 1_000, 0).await.unwrap().unwrap();
    assert!(store.requeue_expired(POLICY, 500).await.unwrap().is_empty(), "not yet expired");
    let taken = store.requeue_expired(POLICY, 1_001).await.unwrap();
    assert_eq!(taken, vec![(first.job, Requeue::Retry { at_ms: 1_001 })]);
    assert!(store.requeue_expired(POLICY, 1_002).await.unwrap().is_empty(), "taken back once");
    assert_eq!(store.submission(s).await.unwrap().unwrap().status, SubmissionStatus::Queued);
    // It comes back: too late, it holds nothing.
    assert!(!store.renew(first.job, "l1", 1_000, 1_100).await.unwrap());
    let second =
        store.claim("w2", None, &["ddp-exercise"], "l2", 1_000, 1_100).await.unwrap().unwrap();
    assert_eq!((second.job, second.attempt), (first.job, 2));
    assert_eq!(store.finish(first.job, "l1", Status::Pass, "", "{}", 1_200).await.unwrap(), None);

    // The platform fails it: queued again after the backoff, not before.
    let requeue = store.fail(second.job, "l2", "no sandbox", POLICY, 1_300).await.unwrap();
    assert_eq!(requeue, Some(Requeue::Retry { at_ms: 1_300 + 2_000 }));
    assert!(
        store.claim("w2", None, &["ddp-exercise"], "l3", 1_000, 3_299).await.unwrap().is_none(),
        "backing off"
    );
    let third =
        store.claim("w2", None, &["ddp-exercise"], "l3", 1_000, 3_300).await.unwrap().unwrap();
    assert_eq!(third.attempt, 3);
    // The third attempt's worker vanishes too: out of attempts, the submission failed.
    let taken = store.requeue_expired(POLICY, 10_000).await.unwrap();
    assert_eq!(taken, vec![(third.job, Requeue::GaveUp)]);
    let failed = store.submission(s).await.unwrap().unwrap();
    assert_eq!(failed.status, SubmissionStatus::Failed);
    assert_eq!(failed.verdict_json, None);
    assert_eq!(
        kinds(store, s).await,
        ["queued", "started", "requeued", "started", "requeued", "started", "failed"]
    );
    assert!(store
        .claim("w3", None, &["ddp-exercise"], "l4", 1_000, 20_000)
        .await
        .unwrap()
        .is_none());

    // An instructor's re-run queues it again.
    assert!(store.rerun(s, 30_000).await.unwrap());
    assert!(!store.rerun(s, 30_000).await.unwrap(), "already queued");
    let rerun =
        store.claim("w3", None, &["ddp-exercise"], "l5", 1_000, 30_000).await.unwrap().unwrap();
    assert_eq!((rerun.submission.id, rerun.attempt), (s, 1));

    // Cancelling: only before a worker takes it.
    let queued = common::submit(store, &script("bob"), 31_000).await;
    assert!(!store.cancel(s, 31_000).await.unwrap(), "running");
    assert!(store.cancel(queued, 31_000).await.unwrap());
    assert_eq!(
        store.submission(queued).await.unwrap().unwrap().status,
        SubmissionStatus::Cancelled
    );
    assert!(store
        .claim("w4", None, &["ddp-exercise"], "l6", 1_000, 31_000)
        .await
        .unwrap()
        .is_none());
    assert_eq!(kinds(store, queued).await, ["queued", "cancelled"]);
    let (depth, _) = store.queue_depth(31_000).await.unwrap();
    assert_eq!(depth, 0);
}

/// Eight workers claim forty jobs at once: every job is claimed exactly once.
async fn workers_never_share_a_job(store: &Store) {
    const JOBS: usize = 40;
    for i in 0..JOBS {
        common::submit(store, &script(&format!("l{i}")), i as i64).await;
    }
    let (depth, oldest) = store.queue_depth(1_000).await.unwrap();
    assert_eq!((depth, oldest), (JOBS as i64, 1_000));
    let workers = (0..8).map(|w| {
        let store = store.clone();
        tokio::spawn(async move {
            let mut mine = Vec::new();
            let mut n = 0;
            while let Some(job) = store
                .claim(
                    &format!("w{w}"),
                    None,
                    &["ddp-exercise"],
                    &format!("w{w}-{n}"),
                    60_000,
                    1_000,
                )
                .await
                .unwrap()
            {
                mine.push(job.submission.id);
                n += 1;
            }
            mine
        })
    });
    let mut all: Vec<i64> = Vec::new();
    for w in workers {
        all.extend(w.await.unwrap());
    }
    all.sort();
    let claimed = all.len();
    all.dedup();
    assert_eq!((claimed, all.len()), (JOBS, JOBS), "each job once");
}

/// What `/metrics` shows: the queue, grades by verdict (in all and in the last minute) and
/// each worker's last claim or renewal.
async fn figures_follow_the_queue(store: &Store) {
    let now = 1_800_000_000_000; // ms
    let empty = store.figures(now).await.unwrap();
    assert_eq!((empty.queued, empty.oldest_queued_ms, empty.running), (0, 0, 0));
    common::submit(store, &script("ada"), now - 9_000).await;
    common::submit(store, &script("bob"), now - 4_000).await;
    store.worker_seen("idle-worker", now - 120_000).await.unwrap();
    let job = store
        .claim("w1", None, &["ddp-exercise"], "lease-1", 60_000, now - 3_000)
        .await
        .unwrap()
        .unwrap();
    assert!(store.renew(job.job, "lease-1", 60_000, now - 1_000).await.unwrap());
    let f = store.figures(now).await.unwrap();
    assert_eq!((f.queued, f.oldest_queued_ms, f.running), (1, 4_000, 1));
    assert_eq!(
        f.workers,
        vec![("idle-worker".to_string(), now - 120_000), ("w1".to_string(), now - 1_000)],
        "the renewal is w1's heartbeat"
    );
    store.finish(job.job, "lease-1", Status::Pass, "ok", "{}", now - 500).await.unwrap();
    let f = store.figures(now).await.unwrap();
    assert_eq!(f.graded, vec![("pass".to_string(), 1)]);
    assert_eq!(f.graded_last_minute, vec![("pass".to_string(), 1)]);
    let later = store.figures(now + 120_000).await.unwrap();
    assert!(later.graded_last_minute.is_empty(), "a minute later: {later:?}");
    let next_day = store.figures(now + monitor_day()).await.unwrap();
    assert!(next_day.workers.is_empty(), "workers silent for a day are left out");
}

/// What the pilot supervisor's report reads and writes: the due jobs with their last event, a
/// wait noted only while the submission is queued, and the workers whose lease was taken back.
async fn pilots_see_due_jobs_and_lost_workers(store: &Store) {
    use grading_protocol::live::NodeWait;
    let now = 1_800_000_000_000;
    let a = common::submit(store, &script("ada"), now - 5_000).await;
    let b = common::submit(store, &script("bob"), now - 4_000).await;
    let due = store.due_jobs(now).await.unwrap();
    assert_eq!(due.iter().map(|d| d.submission).collect::<Vec<_>>(), [a, b], "in claim order");
    assert_eq!(due[1].last, Event::Queued { ahead: 1 });
    let wait = Event::WaitingForNode(NodeWait {
        partition: "gpu".into(),
        ahead: 2,
        reason: "Priority".into(),
        gpus: 4,
    });
    assert!(store.note_queued(b, &wait, now - 3_500).await.unwrap());
    assert_eq!(store.due_jobs(now).await.unwrap()[1].last, wait, "the latest event");

    // A claims, on a node; its worker then stops answering and the reaper takes it back.
    let job = store.claim(
        "slurm/gpu-07/slurm-41",
        Some("gpu-07"),
        &["ddp-exercise"],
        "l1",
        1_000,
        now - 3_000,
    );
    let job = job.await.unwrap().unwrap();
    assert_eq!(job.submission.id, a);
    let started = store.submission_events(a, 0).await.unwrap().pop().unwrap().event;
    assert_eq!(
        started,
        Event::Started {
            worker: "slurm/gpu-07/slurm-41".into(),
            attempt: 1,
            node: Some("gpu-07".into())
        }
    );
    assert!(!store.note_queued(a, &wait, now - 2_900).await.unwrap(), "a is running");
    assert_eq!(store.running_jobs().await.unwrap(), 1);
    assert!(store.lost_workers(now - 60_000).await.unwrap().is_empty());
    store.worker_seen("slurm/gpu-07/slurm-41", now - 3_000).await.unwrap();
    let taken = store.requeue_expired(POLICY, now - 1_000).await.unwrap();
    assert_eq!(taken.len(), 1);
    assert_eq!(store.lost_workers(now - 60_000).await.unwrap(), ["slurm/gpu-07/slurm-41"]);
    assert!(store.lost_workers(now).await.unwrap().is_empty(), "only since the given time");
    assert_eq!(store.due_jobs(now).await.unwrap().len(), 2, "a is due again, at once");
    // It comes back and claims again (the claim API notes it seen first): no longer lost.
    store.worker_seen("slurm/gpu-07/slurm-41", now).await.unwrap();
    store
        .claim("slurm/gpu-07/slurm-41", Some("gpu-07"), &["ddp-exercise"], "l2", 1_000, now)
        .await
        .unwrap();
    assert!(store.lost_workers(now - 60_000).await.unwrap().is_empty(), "it came back");
}

#[tokio::test]
async fn sqlite_pilots_see_due_jobs_and_lost_workers() {
    let (_dir, store) = sqlite().await;
    pilots_see_due_jobs_and_lost_workers(&store).await;
}

#[tokio::test]
async fn postgres_pilots_see_due_jobs_and_lost_workers() {
    pilots_see_due_jobs_and_lost_workers(&postgres("pilots").await).await;
}

fn monitor_day() -> i64 {
    lockstep_store::WORKER_FORGOTTEN_MS + 1
}

#[tokio::test]
async fn sqlite_figures_follow_the_queue() {
    let (_dir, store) = sqlite().await;
    figures_follow_the_queue(&store).await;
}

#[tokio::test]
async fn postgres_figures_follow_the_queue() {
    figures_follow_the_queue(&postgres("figures").await).await;
}

/// A worker is handed only the exercises it says it grades, oldest first among them, however
/// old the others' submissions are.
async fn workers_take_only_their_exercises(store: &Store) {
    let other = NewSubmission { exercise: "other-exercise", ..script("ada") };
    let a = common::submit(store, &script("ada"), 1_000).await;
    let b = common::submit(store, &other, 1_001).await;
    assert!(store.claim("w0", None, &[], "l0", 10_000, 2_000).await.unwrap().is_none());
    let unknown = store.claim("w1", None, &["new-exercise"], "l1", 10_000, 2_000).await.unwrap();
    assert!(unknown.is_none(), "nothing for an exercise nobody submitted");
    let job = store.claim("w2", None, &["other-exercise"], "l2", 10_000, 2_000).await.unwrap();
    assert_eq!(job.map(|j| j.submission.id), Some(b));
    let both = ["ddp-exercise", "other-exercise"];
    let job = store.claim("w3", None, &both, "l3", 10_000, 2_000).await.unwrap();
    assert_eq!(job.map(|j| j.submission.id), Some(a));
    assert!(store.claim("w4", None, &both, "l4", 10_000, 2_000).await.unwrap().is_none());
}

#[tokio::test]
async fn sqlite_workers_take_only_their_exercises() {
    let (_dir, store) = sqlite().await;
    workers_take_only_their_exercises(&store).await;
}

#[tokio::test]
async fn postgres_workers_take_only_their_exercises() {
    workers_take_only_their_exercises(&postgres("queue_exercises").await).await;
}

#[tokio::test]
async fn sqlite_one_verdict_per_job() {
    let (_dir, store) = sqlite().await;
    one_verdict_per_job(&store).await;
}

#[tokio::test]
async fn postgres_one_verdict_per_job() {
    one_verdict_per_job(&postgres("queue_verdict").await).await;
}

#[tokio::test]
async fn sqlite_lost_workers_and_failures() {
    let (_dir, store) = sqlite().await;
    lost_workers_and_failures(&store).await;
}

#[tokio::test]
async fn postgres_lost_workers_and_failures() {
    lost_workers_and_failures(&postgres("queue_lost").await).await;
}

/// A stale worker's `finish` takes the write lock, finds it no longer holds the lease and drops
/// its transaction; the rollback reaches SQLite a moment later. The lease holder's `fail`, right
/// after, must wait for it rather than fail with "database is locked" (seen once on CI).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_write_right_after_a_dropped_transaction_waits_for_its_lock() {
    let (_dir, store) = sqlite().await;
    let policy = RetryPolicy { max_attempts: 1_000, base_delay_ms: 0 };
    common::submit(&store, &script("ada"), 0).await;
    let mut job = store.claim("w", None, &["ddp-exercise"], "l0", 1_000, 0).await.unwrap().unwrap();
    for round in 1..=300 {
        let stale = store.finish(job.job, "gone", Status::Pass, "", "{}", round).await.unwrap();
        assert_eq!(stale, None);
        let requeue = store.fail(job.job, &format!("l{}", round - 1), "x", policy, round).await;
        assert!(matches!(requeue, Ok(Some(Requeue::Retry { .. }))), "round {round}: {requeue:?}");
        job = store
            .claim("w", None, &["ddp-exercise"], &format!("l{round}"), 1_000, round)
            .await
            .unwrap()
            .unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_workers_never_share_a_job() {
    let (_dir, store) = sqlite().await;
    workers_never_share_a_job(&store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_workers_never_share_a_job() {
    workers_never_share_a_job(&postgres("queue_share").await).await;
}
