-- Written by hand (issue 34, decision 151): what visitors ask about a work, and the monthly bound on answering.
--
-- `visitor_questions`: one row per question asked, and nothing about who asked — the question as typed, its
-- language, the day (days since 1970-01-01, UTC, as daily_stats), the same question in the museum's language
-- (`source_text`) and its normalised words (`topic`, how staff see repeats together), whether the published text
-- answered it, whether the visitor sent it to the museum, and what staff did (`status`: open, answered,
-- dismissed). A staff answer becomes part of the article, so the row only keeps that it was answered.
--
-- `question_spend`: answers composed this month per museum (not the cached ones), taken before the engines are
-- asked in one conditional statement (decision 148's shape), bounded by `questions_monthly` on the museum's row
-- (NULL = the deployment's QUESTIONS_MONTHLY).
ALTER TABLE `museums` ADD `questions_monthly` integer;
CREATE TABLE `visitor_questions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`museum_id` integer NOT NULL REFERENCES `museums`(`id`) ON DELETE cascade,
	`article_id` integer NOT NULL REFERENCES `articles`(`id`) ON DELETE cascade,
	`day` integer NOT NULL,
	`lang` text NOT NULL,
	`question` text NOT NULL,
	`source_text` text NOT NULL,
	`topic` text NOT NULL,
	`answered` integer DEFAULT 0 NOT NULL,
	`sent` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'open' NOT NULL
);
CREATE INDEX `visitor_questions_topic` ON `visitor_questions` (`museum_id`, `article_id`, `topic`);
CREATE INDEX `visitor_questions_day` ON `visitor_questions` (`museum_id`, `day`);
CREATE TABLE `question_spend` (
	`museum_id` integer NOT NULL REFERENCES `museums`(`id`) ON DELETE cascade,
	`month` text NOT NULL,
	`answers` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY (`museum_id`, `month`)
) WITHOUT ROWID;
