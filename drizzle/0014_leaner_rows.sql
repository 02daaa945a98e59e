-- Written by hand (issue 32 §3, decision 145): the leaner layout docs/scaling.md §1 measured, converted in place.
-- 1. A segment's source text is stored once (`translation_segments`), not once per target language: the
--    memory keeps its key (museum, source language, hash) and points at the segment by it (a foreign key, so a
--    memory row whose segment was not written first fails loudly; no cascade from the segment, so only writes
--    of the memory itself change it, which is what app/visitor-cache/changes.server.ts watches). The memory is WITHOUT ROWID, keyed
--    (museum, source language, hash, target language): the key is the table, no second copy in an index, and
--    the last memory row of a segment deleted deletes the segment (trigger below).
-- 2. The counters (`daily_stats`, `tour_daily_stats`, `easy_read_daily_stats`) are WITHOUT ROWID and their day
--    is an integer (days since 1970-01-01, app/lib/dates.ts dayNumber) instead of 10 characters.
-- 3. Raw scan events are kept 5 days after they are counted (`received_at`), not 35 after they happened: they
--    exist so that a redelivered message or a re-sent offline view counts once (app/queue/scan-stats.server.ts).
-- Each table is rebuilt: created anew, filled from the old one in the new key's order (full pages), the old one
-- dropped, the new one renamed. The triggers of 0013 on `translation_memory` go with it and are created again, unchanged.
CREATE TABLE `translation_segments` (
	`museum_id` integer NOT NULL,
	`source_lang` text NOT NULL,
	`source_hash` text NOT NULL,
	`source_text` text NOT NULL,
	PRIMARY KEY(`museum_id`, `source_lang`, `source_hash`),
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
INSERT INTO `translation_segments` (`museum_id`, `source_lang`, `source_hash`, `source_text`)
	SELECT `museum_id`, `source_lang`, `source_hash`, min(`source_text`) FROM `translation_memory` GROUP BY `museum_id`, `source_lang`, `source_hash`;
CREATE TABLE `translation_memory_new` (
	`museum_id` integer NOT NULL,
	`source_lang` text NOT NULL,
	`source_hash` text NOT NULL,
	`target_lang` text NOT NULL,
	`text` text NOT NULL,
	`origin` text NOT NULL,
	`engine` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`museum_id`, `source_lang`, `source_hash`, `target_lang`),
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`museum_id`, `source_lang`, `source_hash`) REFERENCES `translation_segments`(`museum_id`, `source_lang`, `source_hash`) ON UPDATE no action ON DELETE no action
) WITHOUT ROWID;
INSERT INTO `translation_memory_new` (`museum_id`, `source_lang`, `source_hash`, `target_lang`, `text`, `origin`, `engine`, `updated_at`)
	SELECT `museum_id`, `source_lang`, `source_hash`, `target_lang`, `text`, `origin`, `engine`, `updated_at` FROM `translation_memory`
	ORDER BY `museum_id`, `source_lang`, `source_hash`, `target_lang`;
DROP TABLE `translation_memory`;
ALTER TABLE `translation_memory_new` RENAME TO `translation_memory`;
CREATE TRIGGER `visitor_change_translation_memory_insert` AFTER INSERT ON `translation_memory` WHEN NEW.`origin` = 'edited' BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
END;
CREATE TRIGGER `visitor_change_translation_memory_update` AFTER UPDATE ON `translation_memory` WHEN NEW.`origin` = 'edited' OR OLD.`origin` = 'edited' BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id` AND OLD.`museum_id` IS NOT NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`) AND OLD.`museum_id` IS NOT NEW.`museum_id`;
END;
CREATE TRIGGER `visitor_change_translation_memory_delete` AFTER DELETE ON `translation_memory` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`);
END;
-- The last translation of a segment gone (a reset, a glossary change, an edit undone), its source text goes too.
CREATE TRIGGER `translation_segment_unused` AFTER DELETE ON `translation_memory` BEGIN
	DELETE FROM `translation_segments` WHERE `museum_id` = OLD.`museum_id` AND `source_lang` = OLD.`source_lang` AND `source_hash` = OLD.`source_hash`
		AND NOT EXISTS (SELECT 1 FROM `translation_memory` WHERE `museum_id` = OLD.`museum_id` AND `source_lang` = OLD.`source_lang` AND `source_hash` = OLD.`source_hash`);
END;
CREATE TABLE `daily_stats_new` (
	`museum_id` integer NOT NULL,
	`day` integer NOT NULL,
	`article_id` integer NOT NULL,
	`lang` text NOT NULL,
	`scans` integer DEFAULT 0 NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`museum_id`, `day`, `article_id`, `lang`),
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
INSERT INTO `daily_stats_new` SELECT `museum_id`, CAST(julianday(`day`) - 2440587.5 AS INTEGER), `article_id`, `lang`, `scans`, `views` FROM `daily_stats`
	ORDER BY 1, 2, 3, 4;
DROP TABLE `daily_stats`;
ALTER TABLE `daily_stats_new` RENAME TO `daily_stats`;
CREATE INDEX `daily_stats_article_day_idx` ON `daily_stats` (`museum_id`,`article_id`,`day`);
CREATE TABLE `tour_daily_stats_new` (
	`museum_id` integer NOT NULL,
	`day` integer NOT NULL,
	`tour_id` integer NOT NULL,
	`position` integer NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`museum_id`, `day`, `tour_id`, `position`),
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
INSERT INTO `tour_daily_stats_new` SELECT `museum_id`, CAST(julianday(`day`) - 2440587.5 AS INTEGER), `tour_id`, `position`, `views` FROM `tour_daily_stats`;
DROP TABLE `tour_daily_stats`;
ALTER TABLE `tour_daily_stats_new` RENAME TO `tour_daily_stats`;
CREATE INDEX `tour_daily_stats_tour_idx` ON `tour_daily_stats` (`museum_id`,`tour_id`,`day`);
CREATE TABLE `easy_read_daily_stats_new` (
	`museum_id` integer NOT NULL,
	`day` integer NOT NULL,
	`article_id` integer NOT NULL,
	`lang` text NOT NULL,
	`opens` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`museum_id`, `day`, `article_id`, `lang`),
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
INSERT INTO `easy_read_daily_stats_new` SELECT `museum_id`, CAST(julianday(`day`) - 2440587.5 AS INTEGER), `article_id`, `lang`, `opens` FROM `easy_read_daily_stats`;
DROP TABLE `easy_read_daily_stats`;
ALTER TABLE `easy_read_daily_stats_new` RENAME TO `easy_read_daily_stats`;
-- Every raw event kept gets five more days from now: none is pruned sooner than it would have been counted twice.
CREATE TABLE `scan_events_new` (
	`id` text PRIMARY KEY NOT NULL,
	`museum_id` integer NOT NULL,
	`article_id` integer NOT NULL,
	`qrcode_id` integer,
	`lang` text NOT NULL,
	`kind` text NOT NULL,
	`occurred_at` integer NOT NULL,
	`received_at` integer NOT NULL
) WITHOUT ROWID;
INSERT INTO `scan_events_new` SELECT `id`, `museum_id`, `article_id`, `qrcode_id`, `lang`, `kind`, `occurred_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) FROM `scan_events`;
DROP TABLE `scan_events`;
ALTER TABLE `scan_events_new` RENAME TO `scan_events`;
CREATE INDEX `scan_events_received_idx` ON `scan_events` (`received_at`);
