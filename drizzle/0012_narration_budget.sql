-- Written by hand (issue 22, decision 105): characters sent to speech engines per museum and calendar month
-- (UTC, 'YYYY-MM'), counted when a generation is claimed, bounded by NARRATION_MONTHLY_CHARS. Additive only.
CREATE TABLE `narration_spend` (
	`museum_id` integer NOT NULL,
	`month` text NOT NULL,
	`chars` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`museum_id`, `month`),
	FOREIGN KEY (`museum_id`) REFERENCES `museums`(`id`) ON UPDATE no action ON DELETE cascade
);
