declare module "cloudflare:test" {
  interface ProvidedEnv extends Env {
    TEST_MIGRATIONS: D1Migration[];
    /** An empty D1, migrated step by step by migration tests. */
    MIGRATION_TEST_DB: D1Database;
    SESSION_SECRET: string;
  }
}
