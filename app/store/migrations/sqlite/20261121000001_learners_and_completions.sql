-- A learner is anonymous until sign-in exists: an opaque id kept in a cookie.
CREATE TABLE learners (
    id          TEXT    PRIMARY KEY,
    created_at  BIGINT  NOT NULL
);

-- One row per lesson a learner marked complete. XP and achievements will be derived from
-- recorded events like this one, so the server stays the authority on XP.
CREATE TABLE lesson_completions (
    learner_id    TEXT    NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    lesson_slug   TEXT    NOT NULL,
    completed_at  BIGINT  NOT NULL,
    PRIMARY KEY (learner_id, lesson_slug)
);
