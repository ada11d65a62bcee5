-- A learner's latest script per exercise: what the editor shows when they come back, on any
-- device. Written by the editor as they type (accounts only) and by every accepted or refused
-- submission; one row per (learner, exercise), overwritten, so it cannot grow.
CREATE TABLE drafts (
    learner_id  TEXT    NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    exercise    TEXT    NOT NULL,
    script      TEXT    NOT NULL,
    file_name   TEXT    NOT NULL,
    -- Unix milliseconds: the editor compares it with the copy the browser kept.
    saved_ms    BIGINT  NOT NULL,
    PRIMARY KEY (learner_id, exercise)
);
