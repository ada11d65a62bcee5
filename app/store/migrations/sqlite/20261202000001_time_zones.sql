-- A learner's time zone, as their browser reports it (an IANA name the server checked), and
-- when it was last set: it may change once a day, so that streak days cannot be made by
-- hopping across the date line. NULL: not known yet; pages use the site's default.
ALTER TABLE learners ADD COLUMN time_zone TEXT;
ALTER TABLE learners ADD COLUMN time_zone_set_ms BIGINT;

-- Each XP event's offset from UTC (seconds) in the learner's zone when it was recorded: its
-- local day is fixed then, and a later change of zone never renumbers it. 0 for the events
-- recorded before, whose days were counted in UTC.
ALTER TABLE xp_events ADD COLUMN utc_offset_s INTEGER NOT NULL DEFAULT 0;
