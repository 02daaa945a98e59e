import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig, defineProject } from "vitest/config";
import { demoContent } from "./scripts/seed-demo.mjs";

// Integration tests run inside workerd against the built Worker (workers/app.ts imports ./build/server),
// with real local D1, KV, R2 and Queue bindings from wrangler.toml. `npm test` builds first.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(__dirname, "drizzle"));
  const directoryMigrations = await readD1Migrations(path.join(__dirname, "drizzle-directory"));
  // The local eSpeak service of the `offline` speech engine (decision 102): a free port chosen here, the service
  // started on it in Node by the global setup, its address handed to the Workers as OFFLINE_SPEECH_URL.
  const offlineSpeechPort = await freePort();
  const offlineSpeechUrl = `http://127.0.0.1:${offlineSpeechPort}`;
  // The demo museum as `npm start` seeds it (SQL for a museum slugged __DEMO_SLUG__, and its files), for the
  // archive round trip (tests/integration/museum-archive.test.ts): workerd cannot read the repository.
  const demo = demoContent("__DEMO_SLUG__");
  const demoSeed = {
    sql: demo.sql,
    files: demo.files.map((f) => ({ key: f.key, contentType: f.contentType, base64: readFileSync(f.path).toString("base64") })),
  };
  // Real audio files (tests/fixtures/audio, decision 119) for the narration upload tests, by name, as base64.
  const audioDir = path.join(__dirname, "tests/fixtures/audio");
  const audioFixtures = Object.fromEntries(
    readdirSync(audioDir)
      .filter((name) => !name.endsWith(".md"))
      .map((name) => [name, readFileSync(path.join(audioDir, name)).toString("base64")]),
  );
  // Two projects that differ only in the speech engines (decision 090): the narration tests run with the offline
  // engine (eSpeak NG in the local service); every other file without speech, so no visitor view there starts a
  // narration in the background (it would change the page between two views and load the machine for nothing).
  const NARRATION_TESTS = "tests/integration/narration*.test.ts";
  const project = (name: string, include: string[], exclude: string[], speechEngines: string) =>
    defineProject({
      plugins: [
        tsconfigPaths(),
        cloudflareTest({
          main: "./workers/app.ts",
          // The AI binding is remote-only; tests use the offline pseudo engine and never reach it.
          remoteBindings: false,
          wrangler: { configPath: "./wrangler.toml" },
          miniflare: {
            // An empty D1 for migration tests that apply migrations step by step (tests/integration/publishing-migration.test.ts).
            d1Databases: { MIGRATION_TEST_DB: { id: "migration-test-db" } },
            bindings: {
              TEST_MIGRATIONS: migrations,
              TEST_DIRECTORY_MIGRATIONS: directoryMigrations,
              DEMO_SEED: demoSeed,
              AUDIO_FIXTURES: audioFixtures,
              SESSION_SECRET: "integration-tests-secret-0123456789abcdef",
              // wrangler.toml's production default (Workers AI) is remote-only: tests say pseudo explicitly.
              TRANSLATION_ENGINES: "pseudo",
              // Narration (decision 090): the offline speech engine makes real WAV files without a network;
              // "" = no speech engine (the other files).
              SPEECH_ENGINES: speechEngines,
              OFFLINE_SPEECH_URL: offlineSpeechUrl,
              // A move started from the console runs in this one isolate: no other isolate to wait for (decision 149).
              MOVE_WAITS_MS: "0,0,0",
            },
          },
        }),
      ],
      test: {
        name,
        include,
        exclude,
        // Concurrency tests send 50 requests at once; a busy 2-core CI machine needs the headroom.
        testTimeout: 60_000,
        // Fixtures in beforeAll (two museums, a dozen API calls) need more than the default 10 s there too.
        hookTimeout: 60_000,
        // One retry under CI, as Playwright's: a test that passes only on it is counted and named as flaky in
        // `npm test`'s closing line (scripts/test-report.mjs), never as passed (decision 122); the goal is zero.
        retry: process.env.CI ? 1 : 0,
        setupFiles: ["./tests/integration/apply-migrations.ts"],
        // One workerd runtime per vitest worker, reused from file to file (decision 130): a fresh one per file cost
        // about 1.4 s of start-up each. Each test keeps its own museum, so files need no storage of their own.
        isolate: false,
        // The visitor pages inline their CSS with Vite's `?inline`; vitest empties CSS unless told to process it.
        css: { include: [/\/app\/(visitor|content)\/[^/]+\.css/] },
      },
    });
  return {
    test: {
      globalSetup: ["./tests/integration/speech-service.global.ts"],
      // Both cores: vitest's default leaves one for itself, but the workerd runtimes do the work here.
      maxWorkers: 2,
      provide: { offlineSpeechPort },
      // vitest runs projects in the order of their names: "narration" (two files, the longest of them 17 s) before
      // "workerd", so that its long file starts first instead of running alone at the end (decision 140).
      projects: [project("narration", [NARRATION_TESTS], [], "offline"), project("workerd", ["tests/integration/**/*.test.ts"], [NARRATION_TESTS], "")],
    },
  };
});

/** A port nobody listens on now (the operating system's choice). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
