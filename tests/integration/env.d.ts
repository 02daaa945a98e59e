// The bindings vitest.integration.config.ts adds for the integration tests, on top of wrangler.toml's. The Workers
// vitest plugin types `env` from "cloudflare:test" as `Cloudflare.Env`, so they are declared there (test files
// read them; app code never names them).
import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** The directory's migrations (drizzle-directory/, decision 142). */
      TEST_DIRECTORY_MIGRATIONS: D1Migration[];
      /** An empty D1, migrated step by step by migration tests. */
      MIGRATION_TEST_DB: D1Database;
      SESSION_SECRET: string;
      /** tests/fixtures/audio, file name → base64 (decision 119). */
      AUDIO_FIXTURES: Record<string, string>;
      /** The demo museum's seed (vitest.integration.config.ts): SQL for a museum slugged __DEMO_SLUG__ and its files. */
      DEMO_SEED: { sql: string; files: { key: string; contentType: string; base64: string }[] };
      /** The local eSpeak service of the offline speech engine (decision 102), started by speech-service.global.ts. */
      OFFLINE_SPEECH_URL: string;
    }
  }
}
