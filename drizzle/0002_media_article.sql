-- Reviewed by hand: drizzle-kit 0.31 generated `REFERENCES articles(id)` without the ON DELETE clause of
-- the schema. SQLite adds a column with a foreign key in place (its default is NULL), so no table rebuild.
-- Purging an article deletes its media rows first (trash.server.ts); SET NULL only guards other deletes.
ALTER TABLE `media` ADD `article_id` integer REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE set null;--> statement-breakpoint
CREATE INDEX `media_article_idx` ON `media` (`article_id`);
