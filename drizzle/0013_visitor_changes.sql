-- Written by hand (issue 31 §1, decision 132): visitor pages can never be stale by omission.
-- Every table a visitor page reads (app/visitor-cache/changes.server.ts VISITOR_TABLES, checked against these
-- triggers by tests/integration/visitor-changes.test.ts) notes, on any insert, update or delete, the museum
-- whose pages changed and when (D1's own clock, ms): one row per museum. After a request (or the cron, or a
-- queue batch) that wrote one of these tables, one read of the rows changed since its first such write tells
-- which museums' change stamps to publish (app/visitor-cache/snapshot.server.ts). The stamp itself is the
-- Worker's clock after that read, never this column: D1's clock only selects the rows.
-- `changed_at` is D1's clock, but strictly increasing (one more than the latest when the clock has not moved or
-- went back): a museum's row keeps its value until its next change, so a Worker that already published this
-- value may skip it (snapshot.server.ts).
-- An UPDATE then a guarded INSERT rather than INSERT OR REPLACE or an upsert: a conflict clause of the statement
-- that fires a trigger overrides the trigger's own (an outer INSERT OR IGNORE would turn a REPLACE here into an
-- IGNORE); these two statements never conflict.
-- Machine translations (written by visitors' own first views) do not fire: only rows staff edited, and any
-- deletion. Statistics, scans, claims and sessions have no trigger. Additive only: a table and triggers.
CREATE TABLE `visitor_changes` (
	`museum_id` integer PRIMARY KEY NOT NULL,
	`changed_at` integer NOT NULL
);
-- The publishing read asks for the last seconds' changes: by this index it reads those rows, not every museum's.
CREATE INDEX `visitor_changes_at_idx` ON `visitor_changes` (`changed_at`);
CREATE TRIGGER `visitor_change_museums_insert` AFTER INSERT ON `museums` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`id`);
END;
CREATE TRIGGER `visitor_change_museums_update` AFTER UPDATE ON `museums` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`id`);
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`id` AND OLD.`id` IS NOT NEW.`id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`id`) AND OLD.`id` IS NOT NEW.`id`;
END;
CREATE TRIGGER `visitor_change_museums_delete` AFTER DELETE ON `museums` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`id`);
END;
CREATE TRIGGER `visitor_change_folders_insert` AFTER INSERT ON `folders` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
END;
CREATE TRIGGER `visitor_change_folders_update` AFTER UPDATE ON `folders` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id` AND OLD.`museum_id` IS NOT NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`) AND OLD.`museum_id` IS NOT NEW.`museum_id`;
END;
CREATE TRIGGER `visitor_change_folders_delete` AFTER DELETE ON `folders` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`);
END;
CREATE TRIGGER `visitor_change_articles_insert` AFTER INSERT ON `articles` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
END;
CREATE TRIGGER `visitor_change_articles_update` AFTER UPDATE ON `articles` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id` AND OLD.`museum_id` IS NOT NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`) AND OLD.`museum_id` IS NOT NEW.`museum_id`;
END;
CREATE TRIGGER `visitor_change_articles_delete` AFTER DELETE ON `articles` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`);
END;
CREATE TRIGGER `visitor_change_qrcodes_insert` AFTER INSERT ON `qrcodes` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
END;
CREATE TRIGGER `visitor_change_qrcodes_update` AFTER UPDATE ON `qrcodes` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id` AND OLD.`museum_id` IS NOT NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`) AND OLD.`museum_id` IS NOT NEW.`museum_id`;
END;
CREATE TRIGGER `visitor_change_qrcodes_delete` AFTER DELETE ON `qrcodes` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`);
END;
CREATE TRIGGER `visitor_change_glossary_terms_insert` AFTER INSERT ON `glossary_terms` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
END;
CREATE TRIGGER `visitor_change_glossary_terms_update` AFTER UPDATE ON `glossary_terms` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id` AND OLD.`museum_id` IS NOT NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`) AND OLD.`museum_id` IS NOT NEW.`museum_id`;
END;
CREATE TRIGGER `visitor_change_glossary_terms_delete` AFTER DELETE ON `glossary_terms` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`);
END;
CREATE TRIGGER `visitor_change_media_insert` AFTER INSERT ON `media` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
END;
CREATE TRIGGER `visitor_change_media_update` AFTER UPDATE ON `media` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id` AND OLD.`museum_id` IS NOT NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`) AND OLD.`museum_id` IS NOT NEW.`museum_id`;
END;
CREATE TRIGGER `visitor_change_media_delete` AFTER DELETE ON `media` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`);
END;
CREATE TRIGGER `visitor_change_tours_insert` AFTER INSERT ON `tours` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
END;
CREATE TRIGGER `visitor_change_tours_update` AFTER UPDATE ON `tours` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id` AND OLD.`museum_id` IS NOT NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`) AND OLD.`museum_id` IS NOT NEW.`museum_id`;
END;
CREATE TRIGGER `visitor_change_tours_delete` AFTER DELETE ON `tours` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`);
END;
CREATE TRIGGER `visitor_change_tour_stops_insert` AFTER INSERT ON `tour_stops` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
END;
CREATE TRIGGER `visitor_change_tour_stops_update` AFTER UPDATE ON `tour_stops` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id` AND OLD.`museum_id` IS NOT NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`) AND OLD.`museum_id` IS NOT NEW.`museum_id`;
END;
CREATE TRIGGER `visitor_change_tour_stops_delete` AFTER DELETE ON `tour_stops` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`);
END;
CREATE TRIGGER `visitor_change_narrations_insert` AFTER INSERT ON `narrations` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
END;
CREATE TRIGGER `visitor_change_narrations_update` AFTER UPDATE ON `narrations` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id` AND OLD.`museum_id` IS NOT NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`) AND OLD.`museum_id` IS NOT NEW.`museum_id`;
END;
CREATE TRIGGER `visitor_change_narrations_delete` AFTER DELETE ON `narrations` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`);
END;
CREATE TRIGGER `visitor_change_easy_read_versions_insert` AFTER INSERT ON `easy_read_versions` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
END;
CREATE TRIGGER `visitor_change_easy_read_versions_update` AFTER UPDATE ON `easy_read_versions` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT NEW.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = NEW.`museum_id`);
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id` AND OLD.`museum_id` IS NOT NEW.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`) AND OLD.`museum_id` IS NOT NEW.`museum_id`;
END;
CREATE TRIGGER `visitor_change_easy_read_versions_delete` AFTER DELETE ON `easy_read_versions` BEGIN
	UPDATE `visitor_changes` SET `changed_at` = max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1) WHERE `museum_id` = OLD.`museum_id`;
	INSERT INTO `visitor_changes` (`museum_id`, `changed_at`) SELECT OLD.`museum_id`, max(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), coalesce((SELECT max(`changed_at`) FROM `visitor_changes`), 0) + 1)
		WHERE NOT EXISTS (SELECT 1 FROM `visitor_changes` WHERE `museum_id` = OLD.`museum_id`);
END;
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
