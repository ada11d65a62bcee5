-- When each grading worker last spoke to the server (a claim, even an empty one, or a lease
-- renewal): what operators watch to see that grading capacity is alive.
CREATE TABLE workers (
    name         TEXT   PRIMARY KEY,
    last_seen_ms BIGINT NOT NULL
);
-- Grades per minute by verdict count recent verdicts.
CREATE INDEX submissions_finished ON submissions (finished_at);
