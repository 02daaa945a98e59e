-- Written by hand (drizzle-kit's snapshot is reconciled afterwards); new tables only, no rebuild.
-- What staff reviewed, per article, language and segment position: lets the review page flag a reviewed
-- translation whose source changed since (stale) and show the old source beside the new (decision 025).
CREATE TABLE `translation_reviews` (
	`museum_id` integer NOT NULL REFERENCES `museums`(`id`) ON DELETE cascade,
	`article_id` integer NOT NULL REFERENCES `articles`(`id`) ON DELETE cascade,
	`target_lang` text NOT NULL,
	`segment_id` text NOT NULL,
	`source_hash` text NOT NULL,
	`source_text` text NOT NULL,
	`text` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`article_id`, `target_lang`, `segment_id`)
);
--> statement-breakpoint
CREATE INDEX `translation_reviews_museum_idx` ON `translation_reviews` (`museum_id`);
--> statement-breakpoint
-- Problems visitors report on a translation, until staff mark them resolved.
CREATE TABLE `translation_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`museum_id` integer NOT NULL REFERENCES `museums`(`id`) ON DELETE cascade,
	`article_id` integer NOT NULL REFERENCES `articles`(`id`) ON DELETE cascade,
	`lang` text NOT NULL,
	`message` text NOT NULL,
	`created_at` integer NOT NULL,
	`resolved_at` integer
);
--> statement-breakpoint
CREATE INDEX `translation_reports_article_idx` ON `translation_reports` (`museum_id`, `article_id`, `lang`, `resolved_at`);
--> statement-breakpoint
-- The museum's glossary: a term never translated (target_lang = '') or translated one fixed way in one language.
CREATE TABLE `glossary_terms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`museum_id` integer NOT NULL REFERENCES `museums`(`id`) ON DELETE cascade,
	`term` text NOT NULL,
	`target_lang` text DEFAULT '' NOT NULL,
	`translation` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `glossary_terms_unique` ON `glossary_terms` (`museum_id`, `term`, `target_lang`);
