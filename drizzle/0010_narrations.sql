-- Written by hand (issue 22 part 1, decisions 090-091): narrations per article and language, and the claim
-- that makes one request generate a narration while the others wait for it. Additive only.
CREATE TABLE `narrations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`museum_id` integer NOT NULL,
	`article_id` integer NOT NULL,
	`lang` text NOT NULL,
	`kind` text NOT NULL CHECK (`kind` IN ('recorded', 'generated')),
	`r2_key` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes` integer NOT NULL,
	`duration_ms` integer,
	`text_hash` text,
	`engine` text,
	`voice` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `narrations_article_lang_unique` ON `narrations` (`article_id`,`lang`);--> statement-breakpoint
CREATE UNIQUE INDEX `narrations_r2_key_unique` ON `narrations` (`r2_key`);--> statement-breakpoint
CREATE INDEX `narrations_museum_idx` ON `narrations` (`museum_id`);--> statement-breakpoint
CREATE TABLE `narration_claims` (
	`article_id` integer NOT NULL,
	`lang` text NOT NULL,
	`museum_id` integer NOT NULL,
	`text_hash` text NOT NULL,
	`voice` text NOT NULL,
	`token` text NOT NULL,
	`expires_at` integer NOT NULL,
	`failure` text,
	PRIMARY KEY(`article_id`, `lang`),
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE cascade
);
