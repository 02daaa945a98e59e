-- Written by hand (issue 33 §3, decision 147): an operator suspends a museum that stops paying, and resumes it.
-- While `suspended_at` is set, its visitor pages answer a polite "temporarily unavailable" page (503), its members
-- cannot sign in and their sessions are ended; nothing is deleted. The column is on the museum's own row, a
-- visitor table (0013): setting or clearing it moves the museum's change stamp, so cached visitor pages follow.
ALTER TABLE `museums` ADD `suspended_at` integer;
