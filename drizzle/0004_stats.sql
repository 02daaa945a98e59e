-- Statistics (issue 10). Hand-written: additive only, no table rebuild.
-- The QR code a scan came from, kept with the raw event (null for a view that came from elsewhere).
ALTER TABLE `scan_events` ADD `qrcode_id` integer;--> statement-breakpoint
-- "Languages for one article" and "articles never scanned" look rows up by article; the primary key
-- (museum_id, day, article_id, lang) serves the per-day ranges of the two other charts.
CREATE INDEX `daily_stats_article_day_idx` ON `daily_stats` (`museum_id`,`article_id`,`day`);
