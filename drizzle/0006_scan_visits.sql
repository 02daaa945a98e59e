-- Written by hand; a new table only, no rebuild (decision 032).
-- One row per counted visit: the visitor's salted daily fingerprint (never the address or User-Agent),
-- the article and kind, and when. The consumer counts an event only when no row of the same fingerprint,
-- article and kind lies within 30 minutes of it; rows are pruned about an hour after they are written.
CREATE TABLE `scan_visits` (
	`fingerprint` text NOT NULL,
	`article_id` integer NOT NULL,
	`kind` text NOT NULL,
	`counted_at` integer NOT NULL,
	`inserted_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `scan_visits_visitor_idx` ON `scan_visits` (`fingerprint`,`article_id`,`kind`,`counted_at`);
--> statement-breakpoint
CREATE INDEX `scan_visits_inserted_idx` ON `scan_visits` (`inserted_at`);
