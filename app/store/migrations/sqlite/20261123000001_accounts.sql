-- An account owns one learner: its progress lives in the same xp_events and quiz_attempts rows
-- as an anonymous learner's, so signing in merges by moving rows, never by copying XP.
CREATE TABLE accounts (
    id             INTEGER PRIMARY KEY,
    -- Lower-cased and trimmed by the server before it gets here.
    email          TEXT    NOT NULL UNIQUE,
    -- PHC string (Argon2id), from the password-auth crate.
    password_hash  TEXT    NOT NULL,
    -- 'learner' or 'instructor'; only the command line grants 'instructor'.
    role           TEXT    NOT NULL DEFAULT 'learner',
    learner_id     TEXT    NOT NULL UNIQUE REFERENCES learners (id),
    -- Sessions remember the epoch they were signed in at; a password change or reset bumps
    -- it, which signs out every other session.
    session_epoch  BIGINT  NOT NULL DEFAULT 0,
    created_at     BIGINT  NOT NULL
);

-- An anonymous learner whose progress was merged into an account: its rows that duplicated
-- the account's progress stay with it (kept, counted nowhere).
ALTER TABLE learners ADD COLUMN merged_into TEXT;

-- Failed sign-ins, counted per key ('account:EMAIL', 'address:IP') over a sliding window.
-- In the database, not in memory, so the limit holds across several app machines.
CREATE TABLE sign_in_failures (
    id          INTEGER PRIMARY KEY,
    key         TEXT    NOT NULL,
    failed_at   BIGINT  NOT NULL
);
CREATE INDEX sign_in_failures_by_key ON sign_in_failures (key, failed_at);
