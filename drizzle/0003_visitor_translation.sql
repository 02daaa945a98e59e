-- Written by hand (drizzle-kit's snapshot is reconciled afterwards); additive only, no table rebuild.
-- In-flight markers for machine translation: the first visitor of an article in a new language claims its
-- missing segments, so concurrent first views call the engine once per segment (decision 019).
CREATE TABLE `translation_claims` (
	`museum_id` integer NOT NULL,
	`source_lang` text NOT NULL,
	`target_lang` text NOT NULL,
	`source_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`museum_id`, `source_lang`, `target_lang`, `source_hash`)
);
--> statement-breakpoint
-- Intrinsic image sizes, so visitor pages give every <img> its width and height (no layout shift).
ALTER TABLE `media` ADD `width` integer;--> statement-breakpoint
ALTER TABLE `media` ADD `height` integer;
