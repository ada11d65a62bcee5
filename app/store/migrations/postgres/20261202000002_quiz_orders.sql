-- Whether an attempt was answered on a page that showed the options in the order every visitor
-- without a learner id gets, rather than the learner's own: its review shows them as they were.
-- 0 for the attempts before, which were reviewed in the learner's order.
ALTER TABLE quiz_attempts ADD COLUMN visitor_order INTEGER NOT NULL DEFAULT 0;
