-- Every limit (sign-ins per account and per address, password checks, sign-ups per address,
-- submissions per learner) counts its attempts here, per key, over a sliding window. An
-- attempt is recorded before the work it limits (an Argon2 check, a queued grading), in the
-- transaction that counts the earlier ones, so parallel requests cannot all pass a count read
-- before any of them wrote.
CREATE TABLE limit_attempts (
    id   BIGSERIAL PRIMARY KEY,
    key  TEXT   NOT NULL,
    at   BIGINT NOT NULL
);
CREATE INDEX limit_attempts_by_key ON limit_attempts (key, at);

-- One row per key, written first by every counting transaction: on PostgreSQL the write holds
-- the row's lock until commit, so two transactions counting the same key take turns (SQLite's
-- writers take turns anyway).
CREATE TABLE limit_keys (
    key   TEXT   PRIMARY KEY,
    used  BIGINT NOT NULL
);

INSERT INTO limit_attempts (key, at) SELECT key, failed_at FROM sign_in_failures;
DROP TABLE sign_in_failures;
