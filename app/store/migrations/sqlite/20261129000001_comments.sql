-- The name a learner is shown by beside their comments, chosen on the account page (the email
-- is never shown). NULL until chosen: pages show a name made from the account's id.
ALTER TABLE accounts ADD COLUMN display_name TEXT;

-- Comments under a lesson or an exercise, with one level of replies. Every state is a time
-- (Unix milliseconds) or NULL, so both backends read them alike.
CREATE TABLE comments (
    id           INTEGER PRIMARY KEY,
    -- 'lesson:SLUG' or 'exercise:ID': where the thread is shown.
    place        TEXT    NOT NULL,
    -- NULL for a thread's first comment; a reply names it (never another reply).
    parent_id    BIGINT  REFERENCES comments (id),
    account_id   BIGINT  NOT NULL REFERENCES accounts (id),
    -- Markdown, checked; emptied when its author deletes a comment that has replies.
    body         TEXT    NOT NULL,
    -- The heading id of the section the author was reading, if any.
    section      TEXT,
    created_ms   BIGINT  NOT NULL,
    edited_ms    BIGINT,
    -- Deleted by its author while replies keep the thread: shown as "deleted".
    deleted_ms   BIGINT,
    -- Hidden by an instructor: shown to nobody else.
    hidden_ms    BIGINT,
    -- A new account's comment waiting for an instructor (when the instructor setting asks).
    held_ms      BIGINT,
    -- On a thread's first comment: no more replies.
    locked_ms    BIGINT,
    -- On a thread's first comment: its latest comment's time, for newest-activity-first.
    activity_ms  BIGINT  NOT NULL
);
CREATE INDEX comments_by_place ON comments (place, activity_ms);
CREATE INDEX comments_by_parent ON comments (parent_id);
CREATE INDEX comments_by_author ON comments (account_id, created_ms);
