-- Reviewed by hand: drizzle-kit misquotes expression indexes, so the partial unique index on live
-- sibling folder names (root = parent 0) is written here directly.
CREATE TABLE `articles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`museum_id` integer NOT NULL,
	`folder_id` integer,
	`slug` text NOT NULL,
	`unformatted_name` text NOT NULL,
	`content` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`folder_id`) REFERENCES `folders`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `articles_museum_slug_unique` ON `articles` (`museum_id`,`slug`);--> statement-breakpoint
CREATE INDEX `articles_folder_idx` ON `articles` (`museum_id`,`folder_id`);--> statement-breakpoint
CREATE TABLE `daily_stats` (
	`museum_id` integer NOT NULL,
	`day` text NOT NULL,
	`article_id` integer NOT NULL,
	`lang` text NOT NULL,
	`scans` integer DEFAULT 0 NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`museum_id`, `day`, `article_id`, `lang`),
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `folders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`museum_id` integer NOT NULL,
	`parent_id` integer,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `folders_parent_idx` ON `folders` (`museum_id`,`parent_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `folders_live_sibling_name_unique` ON `folders` (`museum_id`, coalesce(`parent_id`, 0), `name`) WHERE `deleted_at` IS NULL;--> statement-breakpoint
CREATE TABLE `login_attempts` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `media` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`museum_id` integer NOT NULL,
	`r2_key` text NOT NULL,
	`kind` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `media_r2_key_unique` ON `media` (`r2_key`);--> statement-breakpoint
CREATE INDEX `media_museum_idx` ON `media` (`museum_id`);--> statement-breakpoint
CREATE TABLE `museums` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`source_lang` text DEFAULT 'fr' NOT NULL,
	`timezone` text DEFAULT 'Europe/Paris' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `museums_slug_unique` ON `museums` (`slug`);--> statement-breakpoint
CREATE TABLE `qrcodes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`museum_id` integer NOT NULL,
	`link` text NOT NULL,
	`article_id` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `qrcodes_link_unique` ON `qrcodes` (`link`);--> statement-breakpoint
CREATE INDEX `qrcodes_museum_idx` ON `qrcodes` (`museum_id`);--> statement-breakpoint
CREATE TABLE `scan_events` (
	`id` text PRIMARY KEY NOT NULL,
	`museum_id` integer NOT NULL,
	`article_id` integer NOT NULL,
	`lang` text NOT NULL,
	`kind` text NOT NULL,
	`occurred_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `scan_events_occurred_idx` ON `scan_events` (`occurred_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `translation_memory` (
	`museum_id` integer NOT NULL,
	`source_lang` text NOT NULL,
	`target_lang` text NOT NULL,
	`source_hash` text NOT NULL,
	`source_text` text NOT NULL,
	`text` text NOT NULL,
	`origin` text NOT NULL,
	`engine` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`museum_id`, `source_lang`, `target_lang`, `source_hash`),
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`museum_id` integer NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_museum_idx` ON `users` (`museum_id`);