//! Submissions and the grading queue.
//!
//! A submission is a learner's script; each grading of it is a row of `jobs`. Workers claim a
//! due, queued job under a lease: a random id they must show for everything they do with the
//! job, renewed by heartbeats. Only the current lease's holder can report, finish or fail a
//! job, so a worker that was presumed dead cannot store a second verdict. The server puts jobs
//! whose lease expired back in the queue. Every change of state writes its event in the same
//! transaction, so the live page never shows a state the database does not have.
//!
//! Modelled on crates.io's worker queue (claim with `FOR UPDATE SKIP LOCKED`, retries with
//! exponential backoff), with leases instead of a transaction held open for the job: gradings
//! take minutes and run on other machines.
//!
//! # Submission → verdict → XP
//!
//! A lesson declares an exercise with a code fence's `exercise="ID"` (its code is the starting
//! script); `Course::exercise` finds it. A signed-in learner (browser session, or a learner token
//! for the terminal) posts a script to `/api/submissions`; it is checked (not empty, no NUL byte,
//! at most 256 KiB, a known exercise, under the hourly limit) and `Store::submit` writes the
//! submission, its job and a `queued` event in one transaction. A worker claims the oldest due job
//! among the exercises it grades at the server's version of their checks (its claim lists them; the
//! server keeps the registry's, so a worker from before a new exercise or a change of checks is
//! handed none of them) (`UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED) RETURNING` on
//! PostgreSQL, the same statement without the lock clause on SQLite, where writers take turns)
//! under a fresh random lease id and a lease of `LOCKSTEP_LEASE_SECONDS`. Everything it does with
//! the job names the lease; the store acts only `WHERE lease_id = $lease AND status = 'running'`,
//! so a worker presumed dead cannot report or store a verdict. The worker renews every third of the
//! lease, reports each event of `gpu-runner grade --events`, and hands in the verdict:
//! `Store::finish` stores it, ends the job, writes the `verdict` event and, on a pass, records
//! `ExercisePassed` (and `ExerciseFirstTry` when it was the learner's first submission of that
//! exercise) in one transaction. A grade that could not run is a failure of the platform: queued
//! again after 30 s × 2^(attempt−1), failed after 3 attempts; a graded script (pass, fail, error,
//! timeout) is never retried. Every app machine runs the reaper, which takes back jobs whose lease
//! expired (one reaper per job: the statement that finds it also clears its lease). Events are rows
//! in `submission_events`; the SSE stream reads them after `Last-Event-ID`, woken at once by this
//! process's writes (`Notify`) and polling every 500 ms for writes made on another app machine.

use grading_protocol::live::Event;
use grading_protocol::Status;
use lockstep_xp::Action;
use sqlx::{Any, Transaction};

use crate::limits::{self, Limit, Refused};
use crate::progress::insert_event;
use crate::{Backend, Count, NewId, Store, StoreError};

/// A script to queue.
#[derive(Debug, Clone)]
pub struct NewSubmission<'a> {
    pub learner: &'a str,
    pub exercise: &'a str,
    pub file_name: &'a str,
    pub script: &'a str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubmissionStatus {
    Queued,
    Running,
    Graded,
    /// The platform gave up after its attempts: there is no verdict.
    Failed,
    Cancelled,
}

impl SubmissionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            SubmissionStatus::Queued => "queued",
            SubmissionStatus::Running => "running",
            SubmissionStatus::Graded => "graded",
            SubmissionStatus::Failed => "failed",
            SubmissionStatus::Cancelled => "cancelled",
        }
    }

    fn parse(s: &str) -> Result<SubmissionStatus, StoreError> {
        Ok(match s {
            "queued" => SubmissionStatus::Queued,
            "running" => SubmissionStatus::Running,
            "graded" => SubmissionStatus::Graded,
            "failed" => SubmissionStatus::Failed,
            "cancelled" => SubmissionStatus::Cancelled,
            other => return Err(StoreError::Corrupt(format!("submission status `{other}`"))),
        })
    }

    pub fn is_final(self) -> bool {
        !matches!(self, SubmissionStatus::Queued | SubmissionStatus::Running)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Submission {
    pub id: i64,
    pub learner_id: String,
    pub exercise: String,
    pub file_name: String,
    pub script: String,
    pub status: SubmissionStatus,
    /// The grading protocol's verdict JSON, once graded ([`Submission::verdict`] reads it).
    pub verdict_json: Option<String>,
    pub verdict_status: Option<Status>,
    pub created_at: i64,
    pub finished_at: Option<i64>,
}

impl Submission {
    /// Its verdict, once graded.
    pub fn verdict(&self) -> Option<grading_protocol::Verdict> {
        self.verdict_json.as_deref().and_then(read_verdict)
    }
}

/// A verdict as a worker handed it in and the store keeps it; `None` for JSON that is not one
/// (the worker API takes only verdicts it could read).
fn read_verdict(json: &str) -> Option<grading_protocol::Verdict> {
    serde_json::from_str(json).ok()
}

/// One event of a submission, with the id `Last-Event-ID` names.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    pub id: i64,
    pub event: Event,
    pub at_ms: i64,
}

/// A job handed to a worker.
#[derive(Debug, Clone, PartialEq)]
pub struct Claimed {
    pub job: i64,
    pub lease: String,
    pub attempt: u32,
    pub submission: Submission,
}

/// What storing a verdict did.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    pub submission: i64,
    pub learner_id: String,
    /// XP actions the pass recorded for the first time (empty for a fail, or a pass the
    /// learner had already).
    pub recorded: Vec<Action>,
}

/// How often and how late a job is tried again after the platform failed it or its worker
/// vanished. A graded script is never tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first one included.
    pub max_attempts: u32,
    /// The wait before the second attempt; it doubles for each attempt after that.
    pub base_delay_ms: i64,
}

impl Default for RetryPolicy {
    fn default() -> RetryPolicy {
        RetryPolicy { max_attempts: 3, base_delay_ms: 30_000 }
    }
}

impl RetryPolicy {
    /// The wait before the attempt that follows attempt `attempts` (1-based).
    pub fn delay_ms(&self, attempts: u32) -> i64 {
        self.base_delay_ms.saturating_mul(1 << attempts.saturating_sub(1).min(20))
    }
}

/// What became of a job given back by the platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requeue {
    /// Queued again, due at this time.
    Retry { at_ms: i64 },
    /// Out of attempts: failed, without a verdict.
    GaveUp,
}

const SUBMISSION_COLUMNS: &str =
    "s.id, s.learner_id, s.exercise, s.file_name, s.script, s.status, \
     s.verdict, s.verdict_status, s.created_at, s.finished_at";

#[derive(sqlx::FromRow)]
struct SubmissionRow {
    id: i64,
    learner_id: String,
    exercise: String,
    file_name: String,
    script: String,
    status: String,
    verdict: Option<String>,
    verdict_status: Option<String>,
    created_at: i64,
    finished_at: Option<i64>,
}

impl TryFrom<SubmissionRow> for Submission {
    type Error = StoreError;

    fn try_from(r: SubmissionRow) -> Result<Submission, StoreError> {
        Ok(Submission {
            id: r.id,
            learner_id: r.learner_id,
            exercise: r.exercise,
            file_name: r.file_name,
            script: r.script,
            status: SubmissionStatus::parse(&r.status)?,
            verdict_json: r.verdict,
            verdict_status: r.verdict_status.as_deref().map(parse_status).transpose()?,
            created_at: r.created_at,
            finished_at: r.finished_at,
        })
    }
}

/// A job, its submission, and the attempts made at it.
#[derive(sqlx::FromRow)]
struct JobRow {
    id: i64,
    submission_id: i64,
    attempts: i64,
}

/// The submission of the job a statement touched.
#[derive(sqlx::FromRow)]
struct OfSubmission {
    submission_id: i64,
}

fn parse_status(s: &str) -> Result<Status, StoreError> {
    Ok(match s {
        "pass" => Status::Pass,
        "fail" => Status::Fail,
        "error" => Status::Error,
        "timeout" => Status::Timeout,
        other => return Err(StoreError::Corrupt(format!("verdict status `{other}`"))),
    })
}

/// Appends `event` to the submission's events inside `tx`.
async fn push_event(
    tx: &mut Transaction<'_, Any>,
    submission: i64,
    event: &Event,
    now_ms: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO submission_events (submission_id, kind, data, at_ms) VALUES ($1, $2, $3, $4)",
    )
    .bind(submission)
    .bind(event.kind())
    .bind(encode(event))
    .bind(now_ms)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub(crate) fn encode(event: &Event) -> String {
    serde_json::to_string(event).expect("events are plain data")
}

pub(crate) fn decode(data: &str) -> Result<Event, StoreError> {
    serde_json::from_str(data)
        .map_err(|e| StoreError::Corrupt(format!("submission event `{data}`: {e}")))
}

impl Store {
    /// The row-lock clause that lets concurrent claimers skip each other's rows on PostgreSQL;
    /// SQLite needs none, its writers take turns.
    fn skip_locked(&self) -> &'static str {
        match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        }
    }

    /// Keeps the script and queues its grading; the submission's id. `limit` (the learner's
    /// submissions per hour) is counted in the same transaction, so parallel submissions
    /// cannot all pass it; a refused one queues nothing.
    pub async fn submit(
        &self,
        new: &NewSubmission<'_>,
        now_ms: i64,
        limit: &Limit,
    ) -> Result<Result<i64, Refused>, StoreError> {
        let mut tx = self.begin_write().await?;
        if let Err(refused) =
            limits::take(&mut tx, std::slice::from_ref(limit), now_ms / 1000).await?
        {
            return Ok(Err(refused));
        }
        let id = sqlx::query_as::<_, NewId>(
            "INSERT INTO submissions (learner_id, exercise, file_name, script, created_at) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(new.learner)
        .bind(new.exercise)
        .bind(new.file_name)
        .bind(new.script)
        .bind(now_ms / 1000)
        .fetch_one(&mut *tx)
        .await?
        .id;
        let ahead = enqueue(&mut tx, id, now_ms).await?;
        push_event(&mut tx, id, &Event::Queued { ahead }, now_ms).await?;
        tx.commit().await?;
        Ok(Ok(id))
    }

    pub async fn submission(&self, id: i64) -> Result<Option<Submission>, StoreError> {
        let row = sqlx::query_as::<_, SubmissionRow>(&format!(
            "SELECT {SUBMISSION_COLUMNS} FROM submissions s WHERE s.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(Submission::try_from).transpose()
    }

    /// A learner's submissions, newest first (`exercise` limits them to one exercise).
    pub async fn submissions_of(
        &self,
        learner: &str,
        exercise: Option<&str>,
    ) -> Result<Vec<Submission>, StoreError> {
        let rows = sqlx::query_as::<_, SubmissionRow>(&format!(
            "SELECT {SUBMISSION_COLUMNS} FROM submissions s WHERE s.learner_id = $1 \
             AND ($2 IS NULL OR s.exercise = $2) ORDER BY s.id DESC"
        ))
        .bind(learner)
        .bind(exercise)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(Submission::try_from).collect()
    }

    /// Every learner's submissions, newest first, at most `limit`: the instructor's list.
    pub async fn recent_submissions(&self, limit: i64) -> Result<Vec<Submission>, StoreError> {
        let rows = sqlx::query_as::<_, SubmissionRow>(&format!(
            "SELECT {SUBMISSION_COLUMNS} FROM submissions s ORDER BY s.id DESC LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(Submission::try_from).collect()
    }

    /// The submission's events after event `after` (0 for all), oldest first.
    pub async fn submission_events(
        &self,
        submission: i64,
        after: i64,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        #[derive(sqlx::FromRow)]
        struct Stored {
            id: i64,
            data: String,
            at_ms: i64,
        }
        let rows = sqlx::query_as::<_, Stored>(
            "SELECT id, data, at_ms FROM submission_events WHERE submission_id = $1 AND id > $2 \
             ORDER BY id",
        )
        .bind(submission)
        .bind(after)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| Ok(StoredEvent { id: r.id, event: decode(&r.data)?, at_ms: r.at_ms }))
            .collect()
    }

    /// Queued jobs, and the age of the oldest in milliseconds: for monitoring.
    pub async fn queue_depth(&self, now_ms: i64) -> Result<(i64, i64), StoreError> {
        #[derive(sqlx::FromRow)]
        struct Depth {
            n: i64,
            oldest_ms: i64,
        }
        let depth = sqlx::query_as::<_, Depth>(
            "SELECT COUNT(*) AS n, COALESCE(MIN(created_ms), $1) AS oldest_ms FROM jobs \
             WHERE status = 'queued'",
        )
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok((depth.n, now_ms - depth.oldest_ms))
    }

    /// Claims the oldest due job for `worker` (running on the batch system's `node`, if any),
    /// under the fresh random `lease` until `now_ms + lease_ms`. Two workers never get the same
    /// job: on PostgreSQL the row is locked and others skip it; SQLite runs one writer at a time.
    pub async fn claim(
        &self,
        worker: &str,
        node: Option<&str>,
        exercises: &[&str],
        lease: &str,
        lease_ms: i64,
        now_ms: i64,
    ) -> Result<Option<Claimed>, StoreError> {
        if exercises.is_empty() {
            return Ok(None);
        }
        let lock = self.skip_locked();
        // $5, $6, …: one per exercise the worker may take.
        let wanted = (0..exercises.len()).map(|i| format!("${}", i + 5)).collect::<Vec<_>>();
        let wanted = wanted.join(", ");
        let mut tx = self.begin_write().await?;
        let sql = format!(
            "UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_id = $1, \
             lease_owner = $2, lease_expires_ms = $3 \
             WHERE id = (SELECT id FROM jobs WHERE status = 'queued' AND run_after_ms <= $4 \
                         AND submission_id IN (SELECT id FROM submissions WHERE exercise IN ({wanted})) \
                         ORDER BY id LIMIT 1{lock}) \
             RETURNING id, submission_id, attempts"
        );
        let mut query = sqlx::query_as::<_, JobRow>(&sql)
            .bind(lease)
            .bind(worker)
            .bind(now_ms + lease_ms)
            .bind(now_ms);
        for exercise in exercises {
            query = query.bind(*exercise);
        }
        let row = query.fetch_optional(&mut *tx).await?;
        let Some(JobRow { id: job, submission_id: id, attempts }) = row else {
            return Ok(None);
        };
        sqlx::query("UPDATE submissions SET status = 'running' WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let attempt = attempts as u32;
        let started = Event::Started { worker: worker.into(), attempt, node: node.map(Into::into) };
        push_event(&mut tx, id, &started, now_ms).await?;
        let row = sqlx::query_as::<_, SubmissionRow>(&format!(
            "SELECT {SUBMISSION_COLUMNS} FROM submissions s WHERE s.id = $1"
        ))
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
        let submission = Submission::try_from(row)?;
        tx.commit().await?;
        Ok(Some(Claimed { job, lease: lease.into(), attempt, submission }))
    }

    /// Extends the lease to `now_ms + lease_ms`; `false` when the caller no longer holds it.
    pub async fn renew(
        &self,
        job: i64,
        lease: &str,
        lease_ms: i64,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        #[derive(sqlx::FromRow)]
        struct Renewed {
            lease_owner: Option<String>,
        }
        let renewed = sqlx::query_as::<_, Renewed>(
            "UPDATE jobs SET lease_expires_ms = $1 WHERE id = $2 AND lease_id = $3 AND status = 'running' \
             RETURNING lease_owner",
        )
        .bind(now_ms + lease_ms)
        .bind(job)
        .bind(lease)
        // All rows, not the first: on SQLite a write statement read only to its first row
        // keeps its transaction open until the statement is reset, and another connection's
        // transaction that began meanwhile then fails with "database is locked".
        .fetch_all(&self.pool)
        .await?;
        let Some(renewed) = renewed.into_iter().next() else { return Ok(false) };
        // A renewal is the grading worker's heartbeat.
        if let Some(name) = renewed.lease_owner {
            self.worker_seen(&name, now_ms).await?;
        }
        Ok(true)
    }

    /// Appends an event the lease holder reports; `None` when the caller no longer holds the
    /// lease, else the event's submission.
    pub async fn report(
        &self,
        job: i64,
        lease: &str,
        event: &Event,
        now_ms: i64,
    ) -> Result<Option<i64>, StoreError> {
        let rows = sqlx::query_as::<_, OfSubmission>(
            "INSERT INTO submission_events (submission_id, kind, data, at_ms) \
             SELECT submission_id, $1, $2, $3 FROM jobs WHERE id = $4 AND lease_id = $5 AND status = 'running' \
             RETURNING submission_id",
        )
        .bind(event.kind())
        .bind(encode(event))
        .bind(now_ms)
        .bind(job)
        .bind(lease)
        .fetch_all(&self.pool) // to its end: see `renew`
        .await?;
        Ok(rows.first().map(|r| r.submission_id))
    }

    /// Stores the verdict the lease holder hands in, ends the job and, on a pass, records the
    /// exercise for the learner (and a first try, when this was their first submission of it),
    /// all in one transaction. `None` when the caller no longer holds the lease: nothing is
    /// stored, so a job has one verdict however many workers touched it.
    pub async fn finish(
        &self,
        job: i64,
        lease: &str,
        status: Status,
        summary: &str,
        verdict_json: &str,
        now_ms: i64,
    ) -> Result<Option<Finished>, StoreError> {
        #[derive(sqlx::FromRow)]
        struct Graded {
            learner_id: String,
            exercise: String,
        }
        let mut tx = self.begin_write().await?;
        let row = sqlx::query_as::<_, OfSubmission>(
            "UPDATE jobs SET status = 'done', finished_ms = $1, lease_id = NULL \
             WHERE id = $2 AND lease_id = $3 AND status = 'running' RETURNING submission_id",
        )
        .bind(now_ms)
        .bind(job)
        .bind(lease)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(OfSubmission { submission_id: id }) = row else {
            return Ok(None);
        };
        let Graded { learner_id, exercise } = sqlx::query_as::<_, Graded>(
            "UPDATE submissions SET status = 'graded', verdict = $1, verdict_status = $2, \
             finished_at = $3 WHERE id = $4 RETURNING learner_id, exercise",
        )
        .bind(verdict_json)
        .bind(status.as_str())
        .bind(now_ms / 1000)
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
        let mut recorded = Vec::new();
        if status == Status::Pass {
            let earlier = sqlx::query_as::<_, Count>(
                "SELECT COUNT(*) AS n FROM submissions WHERE learner_id = $1 AND exercise = $2 AND id < $3",
            )
            .bind(&learner_id)
            .bind(&exercise)
            .bind(id)
            .fetch_one(&mut *tx)
            .await?
            .n;
            let actions = lockstep_xp::exercise_passed(&exercise, earlier == 0);
            for action in actions {
                if insert_event(&mut tx, &learner_id, &action, now_ms / 1000).await? {
                    recorded.push(action);
                }
            }
        }
        // The summary as a sentence too, for a reader in another language.
        let words = read_verdict(verdict_json).and_then(|v| v.summary_words).map(Box::new);
        let event = Event::Verdict { status, summary: summary.into(), words };
        push_event(&mut tx, id, &event, now_ms).await?;
        tx.commit().await?;
        self.wrote_learner(&learner_id).await;
        Ok(Some(Finished { submission: id, learner_id, recorded }))
    }

    /// The lease holder says the platform could not grade (`reason`): the job is queued again
    /// after the policy's delay, or failed when out of attempts. `None` when the caller no longer
    /// holds the lease.
    pub async fn fail(
        &self,
        job: i64,
        lease: &str,
        reason: &str,
        policy: RetryPolicy,
        now_ms: i64,
    ) -> Result<Option<Requeue>, StoreError> {
        let mut tx = self.begin_write().await?;
        let row = sqlx::query_as::<_, JobRow>(
            "SELECT id, submission_id, attempts FROM jobs WHERE id = $1 AND lease_id = $2 AND status = 'running'",
        )
        .bind(job)
        .bind(lease)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(JobRow { submission_id: id, attempts, .. }) = row else {
            return Ok(None);
        };
        let outcome = give_back(&mut tx, job, id, attempts as u32, reason, policy, now_ms).await?;
        tx.commit().await?;
        Ok(Some(outcome))
    }

    /// Puts back every running job whose lease expired before `now_ms` (its worker stopped
    /// answering): queued again at once, or failed when out of attempts. Safe to run on every
    /// app machine at once: each job is taken back by one of them. Returns the jobs taken back.
    pub async fn requeue_expired(
        &self,
        policy: RetryPolicy,
        now_ms: i64,
    ) -> Result<Vec<(i64, Requeue)>, StoreError> {
        #[derive(sqlx::FromRow)]
        struct Expired {
            #[sqlx(flatten)]
            job: JobRow,
            lease_owner: Option<String>,
        }
        let lock = self.skip_locked();
        let mut taken = Vec::new();
        loop {
            let mut tx = self.begin_write().await?;
            // Expire the lease first, in the statement that finds the job, so that only one
            // reaper acts on it and its holder is locked out from here on.
            let row = sqlx::query_as::<_, Expired>(&format!(
                "UPDATE jobs SET lease_id = NULL \
                 WHERE id = (SELECT id FROM jobs WHERE status = 'running' AND lease_expires_ms < $1 \
                             ORDER BY id LIMIT 1{lock}) \
                 RETURNING id, submission_id, attempts, lease_owner"
            ))
            .bind(now_ms)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(Expired {
                job: JobRow { id: job, submission_id: id, attempts },
                lease_owner: owner,
            }) = row
            else {
                return Ok(taken);
            };
            let reason = format!(
                "the worker {} stopped answering while it graded this",
                owner.as_deref().unwrap_or("?")
            );
            // A lost worker is no fault of the script: try again at once.
            let policy = RetryPolicy { base_delay_ms: 0, ..policy };
            let outcome =
                give_back(&mut tx, job, id, attempts as u32, &reason, policy, now_ms).await?;
            if let Some(owner) = &owner {
                sqlx::query("UPDATE workers SET lost_lease_ms = $1 WHERE name = $2")
                    .bind(now_ms)
                    .bind(owner)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            taken.push((job, outcome));
        }
    }

    /// Cancels a submission that no worker has taken yet; `false` when it is not queued.
    pub async fn cancel(&self, submission: i64, now_ms: i64) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        let done = sqlx::query(
            "UPDATE jobs SET status = 'cancelled', finished_ms = $1 WHERE submission_id = $2 AND status = 'queued'",
        )
        .bind(now_ms)
        .bind(submission)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Ok(false);
        }
        sqlx::query("UPDATE submissions SET status = 'cancelled', finished_at = $1 WHERE id = $2")
            .bind(now_ms / 1000)
            .bind(submission)
            .execute(&mut *tx)
            .await?;
        push_event(&mut tx, submission, &Event::Cancelled, now_ms).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Queues a finished submission to be graded again (an instructor's re-run); `false` when
    /// it is still queued or running.
    pub async fn rerun(&self, submission: i64, now_ms: i64) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        let done = sqlx::query(
            "UPDATE submissions SET status = 'queued', finished_at = NULL \
             WHERE id = $1 AND status NOT IN ('queued', 'running')",
        )
        .bind(submission)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Ok(false);
        }
        let ahead = enqueue(&mut tx, submission, now_ms).await?;
        push_event(&mut tx, submission, &Event::Queued { ahead }, now_ms).await?;
        tx.commit().await?;
        Ok(true)
    }
}

/// Adds a job for the submission; how many queued jobs are ahead of it.
async fn enqueue(
    tx: &mut Transaction<'_, Any>,
    submission: i64,
    now_ms: i64,
) -> Result<u64, StoreError> {
    sqlx::query("INSERT INTO jobs (submission_id, run_after_ms, created_ms) VALUES ($1, $2, $2)")
        .bind(submission)
        .bind(now_ms)
        .execute(&mut **tx)
        .await?;
    let ahead = sqlx::query_as::<_, Count>(
        "SELECT COUNT(*) AS n FROM jobs WHERE status = 'queued' AND submission_id <> $1",
    )
    .bind(submission)
    .fetch_one(&mut **tx)
    .await?;
    Ok(ahead.n as u64)
}

/// Takes a job back from its worker: queued again, or failed when out of attempts.
async fn give_back(
    tx: &mut Transaction<'_, Any>,
    job: i64,
    submission: i64,
    attempts: u32,
    reason: &str,
    policy: RetryPolicy,
    now_ms: i64,
) -> Result<Requeue, StoreError> {
    if attempts >= policy.max_attempts {
        sqlx::query(
            "UPDATE jobs SET status = 'failed', lease_id = NULL, last_error = $1, finished_ms = $2 WHERE id = $3",
        )
        .bind(reason)
        .bind(now_ms)
        .bind(job)
        .execute(&mut **tx)
        .await?;
        sqlx::query("UPDATE submissions SET status = 'failed', finished_at = $1 WHERE id = $2")
            .bind(now_ms / 1000)
            .bind(submission)
            .execute(&mut **tx)
            .await?;
        let reason = format!("{reason}; gave up after {attempts} attempts");
        push_event(tx, submission, &Event::Failed { reason }, now_ms).await?;
        return Ok(Requeue::GaveUp);
    }
    let at_ms = now_ms + policy.delay_ms(attempts);
    sqlx::query(
        "UPDATE jobs SET status = 'queued', lease_id = NULL, lease_owner = NULL, \
         lease_expires_ms = NULL, last_error = $1, run_after_ms = $2 WHERE id = $3",
    )
    .bind(reason)
    .bind(at_ms)
    .bind(job)
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE submissions SET status = 'queued' WHERE id = $1")
        .bind(submission)
        .execute(&mut **tx)
        .await?;
    push_event(tx, submission, &Event::Requeued { reason: reason.into() }, now_ms).await?;
    Ok(Requeue::Retry { at_ms })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_doubles_per_attempt() {
        let p = RetryPolicy { max_attempts: 5, base_delay_ms: 1_000 };
        assert_eq!(
            (1..=4).map(|a| p.delay_ms(a)).collect::<Vec<_>>(),
            vec![1_000, 2_000, 4_000, 8_000]
        );
        assert_eq!(p.delay_ms(0), 1_000);
        assert!(p.delay_ms(200) > 0, "no overflow");
    }
}
