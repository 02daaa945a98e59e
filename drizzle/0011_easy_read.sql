-- Written by hand (issue 22 §2, decisions 094-096). Additive only: two new tables, no rebuild.
-- One easy-to-read version per article: the draft staff edit (`content`, guarded by `version`), the
-- approved copy visitors read (`approved_content`, null until approved), the hash of the article's
-- published text it was generated from (stale when the article's published text changed since), and
-- a generation claim (`generating_until`) so that parallel "generate" calls make one engine call.
CREATE TABLE `easy_read_versions` (
	`article_id` integer PRIMARY KEY NOT NULL,
	`museum_id` integer NOT NULL,
	`content` text,
	`version` integer DEFAULT 0 NOT NULL,
	`source_hash` text DEFAULT '' NOT NULL,
	`engine` text DEFAULT '' NOT NULL,
	`generated_at` integer,
	`generating_until` integer,
	`updated_at` integer NOT NULL,
	`updated_by` integer,
	`approved_content` text,
	`approved_version` integer,
	`approved_source_hash` text,
	`approved_at` integer,
	`approved_by` integer,
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `easy_read_versions_museum_idx` ON `easy_read_versions` (`museum_id`);--> statement-breakpoint
-- Opens of an article's easy-to-read version by visitors, per museum day and reading language, counted
-- by the stats consumer from the scan event's optional `easyRead` flag (decision 096).
CREATE TABLE `easy_read_daily_stats` (
	`museum_id` integer NOT NULL,
	`day` text NOT NULL,
	`article_id` integer NOT NULL,
	`lang` text NOT NULL,
	`opens` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`museum_id`, `day`, `article_id`, `lang`),
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade
);
