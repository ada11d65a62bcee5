-- A learner's script submitted for grading. The verdict is the grading protocol's JSON, kept
-- as the runner wrote it; `verdict_status` repeats its status for queries.
CREATE TABLE submissions (
    id              BIGSERIAL PRIMARY KEY,
    learner_id      TEXT    NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    exercise        TEXT    NOT NULL,
    file_name       TEXT    NOT NULL,
    script          TEXT    NOT NULL,
    -- 'queued', 'running', 'graded', 'failed' (the platform gave up: no verdict), 'cancelled'
    status          TEXT    NOT NULL DEFAULT 'queued',
    verdict         TEXT,
    verdict_status  TEXT,
    created_at      BIGINT  NOT NULL,
    finished_at     BIGINT
);
CREATE INDEX submissions_by_learner ON submissions (learner_id, exercise, id);

-- The queue: one row per grading of a submission (an instructor's re-run adds one). A worker
-- claims a queued row that is due and holds it under a lease it must renew; only the holder of
-- the current lease may report on it or finish it, and an expired lease puts the row back in
-- the queue. Times are Unix milliseconds: leases are seconds long.
CREATE TABLE jobs (
    id               BIGSERIAL PRIMARY KEY,
    submission_id    BIGINT  NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    -- 'queued', 'running', 'done' (a verdict was stored), 'failed', 'cancelled'
    status           TEXT    NOT NULL DEFAULT 'queued',
    attempts         BIGINT  NOT NULL DEFAULT 0,
    run_after_ms     BIGINT  NOT NULL,
    -- A fresh random id per claim, so a worker that lost its lease cannot act on a later one.
    lease_id         TEXT,
    lease_owner      TEXT,
    lease_expires_ms BIGINT,
    last_error       TEXT,
    created_ms       BIGINT  NOT NULL,
    finished_ms      BIGINT
);
CREATE INDEX jobs_due ON jobs (status, run_after_ms, id);
CREATE INDEX jobs_by_submission ON jobs (submission_id);

-- What happened to a submission, in order: the live status page and `Last-Event-ID` replay
-- read it, from whichever app machine the browser reaches.
CREATE TABLE submission_events (
    id             BIGSERIAL PRIMARY KEY,
    submission_id  BIGINT  NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    kind           TEXT    NOT NULL,
    data           TEXT    NOT NULL,
    at_ms          BIGINT  NOT NULL
);
CREATE INDEX submission_events_by_submission ON submission_events (submission_id, id);

-- Bearer tokens: workers (which never get database credentials) and learners' terminal
-- clients. Only a SHA-256 of each token is kept.
CREATE TABLE api_tokens (
    id          BIGSERIAL PRIMARY KEY,
    -- 'worker' or 'learner'
    kind        TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    -- The learner a 'learner' token acts for.
    learner_id  TEXT    REFERENCES learners (id) ON DELETE CASCADE,
    token_hash  TEXT    NOT NULL UNIQUE,
    created_at  BIGINT  NOT NULL,
    revoked_at  BIGINT
);
CREATE UNIQUE INDEX api_tokens_worker_name ON api_tokens (name) WHERE kind = 'worker' AND revoked_at IS NULL;
