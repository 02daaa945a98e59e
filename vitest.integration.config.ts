import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { defineWorkersConfig, defineWorkersProject, readD1Migrations } from "@cloudflare/vitest-pool-workers/config";
import tsconfigPaths from "vite-tsconfig-paths";
import { defaultMiniflareIndex, patchMiniflareLoopback } from "./scripts/patch-miniflare-loopback.mjs";
import { defaultPackageDir, patchVitestPoolWorkers } from "./scripts/patch-vitest-pool.mjs";
import { demoContent } from "./scripts/seed-demo.mjs";

// Integration tests run inside workerd against the built Worker (workers/app.ts imports ./build/server),
// with real local D1, KV, R2 and Queue bindings from wrangler.toml. `npm test` builds first.
export default defineWorkersConfig(async () => {
  // Before vitest loads the pool: makes it work in a checkout path with accents (workers-sdk #14655), however
  // the suite is started (npm test, npm run test:integration, npx vitest). Throws if the pool's dist changed
  // shape. docs/decisions/028-non-ascii-checkout-path.md.
  patchVitestPoolWorkers(defaultPackageDir());
  // And keeps the storage rollback after a busy test from failing on a closed keep-alive connection
  // ("Network connection lost"; scripts/patch-miniflare-loopback.mjs).
  patchMiniflareLoopback(defaultMiniflareIndex());
  const migrations = await readD1Migrations(path.join(__dirname, "drizzle"));
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
    defineWorkersProject({
    plugins: [tsconfigPaths()],
    test: {
      name,
      include,
      exclude,
      // Concurrency tests send 50 requests at once; a busy 2-core CI machine needs the headroom.
      testTimeout: 60_000,
      // Fixtures in beforeAll (two museums, a dozen API calls) need more than the default 10 s there too.
      hookTimeout: 60_000,
      // As Playwright does on CI: one retry, for what a busy 2-core machine may still throw at the pool. The
      // storage rollback's "Network connection lost" after busy tests is fixed at its cause (the patch above).
      retry: process.env.CI ? 1 : 0,
      setupFiles: ["./tests/integration/apply-migrations.ts"],
      // The visitor pages inline their CSS with Vite's `?inline`; vitest empties CSS unless told to process it.
      css: { include: [/\/app\/(visitor|content)\/[^/]+\.css/] },
      deps: {
        optimizer: {
          ssr: {
            enabled: true,
            include: [
              "@remix-run/cloudflare",
              "@remix-run/react",
              "react",
              "react/jsx-runtime",
              "react-dom",
              "react-dom/server",
              "react-router",
              "react-router-dom",
              "react-router-dom/server",
              "isbot",
              "i18next",
              "react-i18next",
              "remix-i18next/server",
              "remix-i18next/react",
            ],
          },
        },
      },
      poolOptions: {
        workers: {
          main: "./workers/app.ts",
          // One workerd per test file: SELF.fetch grows slower with every request a workerd instance has
          // served (workers-sdk #15446) and, past a few thousand, overflows the stack; fresh instances do not.
          singleWorker: false,
          // The AI binding is remote-only; tests use the offline pseudo engine and never reach it.
          remoteBindings: false,
          wrangler: { configPath: "./wrangler.toml" },
          miniflare: {
            // An empty D1 for migration tests that apply migrations step by step (tests/integration/publishing-migration.test.ts).
            d1Databases: { MIGRATION_TEST_DB: { id: "migration-test-db" } },
            bindings: {
              TEST_MIGRATIONS: migrations,
              DEMO_SEED: demoSeed,
              AUDIO_FIXTURES: audioFixtures,
              SESSION_SECRET: "integration-tests-secret-0123456789abcdef",
              // wrangler.toml's production default (Workers AI) is remote-only: tests say pseudo explicitly.
              TRANSLATION_ENGINES: "pseudo",
              // Narration (decision 090): the offline speech engine makes real WAV files without a network;
              // "" = no speech engine (the other files).
              SPEECH_ENGINES: speechEngines,
              OFFLINE_SPEECH_URL: offlineSpeechUrl,
            },
          },
        },
      },
    },
    });
  return {
    test: {
      globalSetup: ["./tests/integration/speech-service.global.ts"],
      provide: { offlineSpeechPort },
      projects: [project("integration", ["tests/integration/**/*.test.ts"], [NARRATION_TESTS], ""), project("narration", [NARRATION_TESTS], [], "offline")],
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
