/** The directory's migrations (drizzle-directory/), as wrangler records them; a unit test keeps the list true. */
export const DIRECTORY_MIGRATIONS: readonly string[] = [
  "0000_directory.sql",
  "0001_moves.sql",
  "0002_id_blocks.sql",
  "0003_operators.sql",
  "0004_museum_sizes.sql",
];
