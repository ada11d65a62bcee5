-- One row per place that has comments, its version raised by every write to them (a post, an
-- edit, a deletion, a moderation): readers of the place poll it to learn, across app
-- machines, that the comments changed.
CREATE TABLE comment_places (
    place    TEXT    PRIMARY KEY,
    version  BIGINT  NOT NULL
);

-- A learner following a thread gets a notification for each reply in it. Replying follows.
CREATE TABLE follows (
    account_id  BIGINT  NOT NULL REFERENCES accounts (id),
    thread_id   BIGINT  NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    PRIMARY KEY (account_id, thread_id)
);

-- "Report a problem": from a lesson, a section, a quiz question or a verdict, by a learner
-- signed in (account_id) or not (NULL). The instructor sets its status and may answer.
CREATE TABLE reports (
    id             BIGSERIAL PRIMARY KEY,
    -- 'lesson:SLUG' or 'exercise:ID', like comments.
    place          TEXT    NOT NULL,
    section        TEXT,
    -- The quiz question (quiz index and question number, 'Q.N'), when reported from one.
    question       TEXT,
    -- The submission whose verdict is reported, when reported from one.
    submission_id  TEXT,
    account_id     BIGINT  REFERENCES accounts (id),
    body           TEXT    NOT NULL,
    -- 'open', 'fixed' or 'wontfix'.
    status         TEXT    NOT NULL,
    reply          TEXT,
    answered_ms    BIGINT,
    created_ms     BIGINT  NOT NULL
);
CREATE INDEX reports_by_place ON reports (place, created_ms);

-- What a learner is told in the app: a reply in a thread they wrote or follow (comment_id), or
-- the instructor's answer to their report (report_id).
CREATE TABLE notifications (
    id          BIGSERIAL PRIMARY KEY,
    account_id  BIGINT  NOT NULL REFERENCES accounts (id),
    comment_id  BIGINT  REFERENCES comments (id) ON DELETE CASCADE,
    report_id   BIGINT  REFERENCES reports (id) ON DELETE CASCADE,
    created_ms  BIGINT  NOT NULL,
    read_ms     BIGINT
);
CREATE INDEX notifications_by_account ON notifications (account_id, created_ms);

-- Instructors' settings for the whole site, by name (e.g. 'hold_first_comments' = 'on').
CREATE TABLE settings (
    name   TEXT  PRIMARY KEY,
    value  TEXT  NOT NULL
);
