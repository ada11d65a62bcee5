-- What a learner did that earns XP, as lockstep-xp's actions: (kind, subject) pairs such as
-- ('lesson', 'ddp-allreduce') or ('quiz', 'ddp-allreduce#0'). XP itself is never stored: it
-- is derived from these rows, so a repeat cannot award twice and a changed rule recomputes it.
CREATE TABLE xp_events (
    id          BIGSERIAL PRIMARY KEY,
    learner_id  TEXT    NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,
    subject     TEXT    NOT NULL,
    -- The lesson the action belongs to, for resetting a lesson; NULL for exercises.
    lesson      TEXT,
    recorded_at BIGINT  NOT NULL,
    -- Set when the learner reset the lesson: the row is kept, and counts no more.
    reset_at    BIGINT
);

-- One live event per action: recording it again (a double click, a replayed form, fifty
-- requests at once) inserts nothing.
CREATE UNIQUE INDEX xp_events_once ON xp_events (learner_id, kind, subject) WHERE reset_at IS NULL;
CREATE INDEX xp_events_by_lesson ON xp_events (lesson, kind);

-- The completions recorded so far become events, and the table they lived in goes.
INSERT INTO xp_events (learner_id, kind, subject, lesson, recorded_at)
    SELECT learner_id, 'lesson', lesson_slug, lesson_slug, completed_at FROM lesson_completions;
DROP TABLE lesson_completions;

-- Every answer to a quiz, kept: the learner's last one is reviewed on the page (re-marked
-- against the quiz as it is now), and the instructor's statistics count them all.
CREATE TABLE quiz_attempts (
    id          BIGSERIAL PRIMARY KEY,
    learner_id  TEXT    NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    lesson      TEXT    NOT NULL,
    quiz        BIGINT  NOT NULL,
    -- The options chosen: questions separated by ';', options by ',' ("1;0,2;").
    answers     TEXT    NOT NULL,
    answered_at BIGINT  NOT NULL,
    reset_at    BIGINT
);
CREATE INDEX quiz_attempts_by_learner ON quiz_attempts (learner_id, lesson, quiz);
