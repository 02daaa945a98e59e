-- Each museum's share of its shard's D1 size (issue 33 §2, decision 150), measured by the daily cron: the bytes of
-- its rows, column by column, scaled so that the museums of a shard add up to the size D1 reports for it.
-- On the directory, not the museum's own row: a daily write there would end every cached visitor page (decision 132).
ALTER TABLE museums ADD COLUMN d1_bytes INTEGER;
ALTER TABLE museums ADD COLUMN d1_measured_at INTEGER;
