-- Written by hand (issue 33 §2–3, decision 148): what each museum asks of the engines, its own bounds, and closing.
--
-- `engine_usage`: characters and calls sent to engines per museum, calendar month (UTC, 'YYYY-MM'), kind
-- ('translation', 'narration', 'easy_read') and engine id — the operator's console prices them. One row per
-- museum, month, kind and engine: a few dozen rows a museum a year.
--
-- `translation_spend`: the characters counted against the museum's monthly translation bound, taken before an
-- engine call in one conditional statement (parallel first views never overshoot), given back when every engine
-- failed. The same shape as `narration_spend` (decision 105).
--
-- On the museum's row: its bounds (NULL = the deployment's default) and `closed_at`, set when an operator closes
-- it (its visitor pages then answer 410, its members reach only the archive page until the purge).
ALTER TABLE `museums` ADD `translation_monthly_chars` integer;
ALTER TABLE `museums` ADD `narration_monthly_chars` integer;
ALTER TABLE `museums` ADD `closed_at` integer;
CREATE TABLE `engine_usage` (
	`museum_id` integer NOT NULL REFERENCES `museums`(`id`) ON DELETE cascade,
	`month` text NOT NULL,
	`kind` text NOT NULL,
	`engine` text NOT NULL,
	`chars` integer DEFAULT 0 NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY (`museum_id`, `month`, `kind`, `engine`)
) WITHOUT ROWID;
CREATE TABLE `translation_spend` (
	`museum_id` integer NOT NULL REFERENCES `museums`(`id`) ON DELETE cascade,
	`month` text NOT NULL,
	`chars` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY (`museum_id`, `month`)
) WITHOUT ROWID;
