-- When each lesson was first seen published (Unix seconds), by slug: the achievements about a
-- whole course are judged at each event against the lessons published by then, so a lesson
-- published later never takes one back. 0: published before this table existed.
CREATE TABLE publications (
    lesson  TEXT    PRIMARY KEY,
    at      BIGINT  NOT NULL
);
