-- When the server last took a job back from this worker because its lease ran out: the pilot
-- supervisor ends such a worker's batch job (it may hang on to a GPU node doing nothing).
ALTER TABLE workers ADD COLUMN lost_lease_ms BIGINT;
