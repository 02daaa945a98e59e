// The deploy rehearsal: the real `npm run deploy` (scripts/deploy.mjs, real wrangler 4.164) against a local
// fake of the Cloudflare REST API that records every call (tests/deploy/fake-cloudflare/server.mjs). Each run
// works in a throwaway copy of the repository (tests/deploy/sandbox.mjs), so the real wrangler.toml files
// are never edited. Needs the build (npm test builds first).
// Cost (decision 131): every wrangler start is about a second of CPU, and a run starts 9 to 17 of them. The
// runs share one Node compile cache (NODE_COMPILE_CACHE, as `npm run deploy` keeps one for itself). The runs
// stay one after the other: two at once (16 wrangler starts together) were slower on two cores.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_ID, startFakeCloudflare, SUBDOMAIN } from "./fake-cloudflare/server.mjs";
import { makeSandbox, REPO } from "./sandbox.mjs";
import { SCAN_QUEUE_RETENTION_SECONDS } from "../../scripts/deploy/lib.mjs";

type Call = {
  method: string;
  path: string;
  status: number;
  created?: string;
  migrations?: string[];
  injected?: boolean;
  unknown?: boolean;
  upload?: { script: string; bindings: Array<Record<string, unknown>> };
  consumer?: Record<string, unknown>;
  schedules?: unknown;
  seeded?: { database: string; first: number };
};
type Fake = Awaited<ReturnType<typeof startFakeCloudflare>>;

const migrationsOf = (dir: string) =>
  readdirSync(join(REPO, dir))
    .filter((f) => f.endsWith(".sql"))
    .sort();
// The directory's, then each shard's (decision 142), in wrangler.toml's order.
const MIGRATIONS = [...migrationsOf("drizzle-directory"), ...migrationsOf("drizzle"), ...migrationsOf("drizzle"), ...migrationsOf("drizzle")];
const DATABASES = ["muselingo-directory", "muselingo", "muselingo-shard-1", "muselingo-shard-2"];
/** wrangler.toml's placeholder ids, one per database (…0000 to …0003). */
const PLACEHOLDER_D1 = /00000000-0000-0000-0000-00000000000\d/;
const PLACEHOLDER_KV = "00000000000000000000000000000000";
// wrangler's compiled code, shared by every run of this file (Node's compile cache, keyed by file content).
const compileCache = mkdtempSync(join(tmpdir(), "muselingo-rehearsal-cache-"));

function deploy(dir: string, fake: Fake, extra: string[] = []): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(dir, "scripts", "deploy.mjs"), "--no-build", ...extra], {
      cwd: dir,
      env: {
        ...process.env,
        CLOUDFLARE_API_BASE_URL: fake.url,
        CLOUDFLARE_API_TOKEN: "rehearsal-token",
        CLOUDFLARE_ACCOUNT_ID: ACCOUNT_ID,
        NODE_COMPILE_CACHE: compileCache,
      },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

const since = (fake: Fake, from: number) => (fake.calls as Call[]).slice(from);
const ids = (dir: string) => ({
  app: readFileSync(join(dir, "wrangler.toml"), "utf8"),
  consumer: readFileSync(join(dir, "workers", "stats-consumer", "wrangler.toml"), "utf8"),
});

describe("npm run deploy, rehearsed against a fake Cloudflare API", () => {
  let fake: Fake;
  let dir: string;
  beforeAll(async () => {
    if (!existsSync(join(REPO, "build", "server", "index.js"))) throw new Error("Build first: npm run build");
    fake = await startFakeCloudflare();
    dir = makeSandbox();
  });
  afterAll(async () => {
    await fake?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    rmSync(compileCache, { recursive: true, force: true });
  });

  it("refuses pseudo before touching the network, unless --allow-pseudo", async () => {
    const pseudoDir = makeSandbox();
    try {
      const toml = join(pseudoDir, "wrangler.toml");
      writeFileSync(toml, readFileSync(toml, "utf8").replace(/TRANSLATION_ENGINES = "[^"]*"/, 'TRANSLATION_ENGINES = "pseudo"'));
      const before = fake.calls.length;
      const run = await deploy(pseudoDir, fake);
      expect(run.code, run.out + run.err).toBe(2);
      expect(run.err).toMatch(/"pseudo" shows visitors fake translations/);
      expect(run.err).toContain("--allow-pseudo");
      expect(fake.calls.length).toBe(before);
    } finally {
      rmSync(pseudoDir, { recursive: true, force: true });
    }
  });

  it("first run: stops at a failing step, naming it, with consistent wrangler files; the next run completes", async () => {
    // The KV namespace creation answers 500: the D1 database exists by then, the KV namespace does not.
    // The `cloudflare` SDK retries a 500 twice by itself, so it fails three times here.
    fake.setFailure({ method: "POST", path: /\/storage\/kv\/namespaces$/, times: 3 });
    let from = fake.calls.length;
    const failed = await deploy(dir, fake);
    expect(failed.code, failed.out + failed.err).toBe(1);
    expect(failed.err).toContain('Deploy stopped at step "Creating the KV namespace muselingo-kv"');
    expect(failed.err).toContain("run `npm run deploy` again");
    expect(since(fake, from).some((c) => c.injected)).toBe(true);
    expect(since(fake, from).filter((c) => c.upload)).toEqual([]);
    // The directory and the three shards exist by then, the last one in the EU jurisdiction (decision 142).
    expect(fake.state.d1.map((d) => [d.name, d.jurisdiction])).toEqual(DATABASES.map((name) => [name, name === "muselingo-shard-2" ? "eu" : null]));
    const db = fake.state.d1.find((d) => d.name === "muselingo")!;
    let files = ids(dir);
    // Both files hold the real D1 ids; the KV id is still the placeholder, nothing half written.
    for (const d of fake.state.d1) {
      expect(files.app).toContain(`database_id = "${d.uuid}"`);
      expect(files.consumer).toContain(`database_id = "${d.uuid}"`);
    }
    expect(files.app).toContain(`id = "${PLACEHOLDER_KV}"`);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);

    fake.setFailure(null);
    from = fake.calls.length;
    const run = await deploy(dir, fake);
    expect(run.code, run.out + run.err).toBe(0);
    const calls = since(fake, from);
    expect(calls.filter((c) => c.unknown)).toEqual([]);
    // Creates what was missing, and only that (the D1 database from the failed run is reused).
    expect(
      calls
        .filter((c) => c.created)
        .map((c) => c.created)
        .sort(),
    ).toEqual([
      "kv:muselingo-kv",
      "queue:muselingo-moves",
      "queue:muselingo-moves-dlq",
      "queue:muselingo-narrations",
      "queue:muselingo-narrations-dlq",
      "queue:muselingo-scans",
      "queue:muselingo-scans-dlq",
      "r2:muselingo-media",
      "r2:muselingo-media-eu@eu",
    ]);
    expect(fake.state.d1).toHaveLength(4);
    // The scan queue keeps a message no longer than the consumer keeps its raw event (decision 145).
    const queues = fake.state.queues as unknown as { queue_name: string; settings: { message_retention_period: number } }[];
    expect(queues.find((q) => q.queue_name === "muselingo-scans")?.settings.message_retention_period).toBe(SCAN_QUEUE_RETENTION_SECONDS);
    // Every migration, in order, once.
    expect(calls.flatMap((c) => c.migrations ?? [])).toEqual(MIGRATIONS);
    // Shards 1 and 2 start their ids at k × 2⁴⁰ (shard 0 keeps SQLite's own start).
    expect(calls.filter((c) => c.seeded).map((c) => c.seeded)).toEqual([
      { database: "muselingo-shard-1", first: 2 ** 40 },
      { database: "muselingo-shard-2", first: 2 * 2 ** 40 },
    ]);
    files = ids(dir);
    const kvId = fake.state.kv[0]!.id;
    expect(files.app).toContain(`id = "${kvId}"`);
    expect(files.app).not.toMatch(PLACEHOLDER_D1);
    expect(files.consumer).not.toMatch(PLACEHOLDER_D1);

    // Both Workers, with the right bindings.
    const uploads = calls.filter((c) => c.upload).map((c) => c.upload!);
    expect(uploads.map((u) => u.script).sort()).toEqual(["muselingo", "muselingo-stats-consumer"]);
    const app = uploads.find((u) => u.script === "muselingo")!;
    const byName = (name: string) => app.bindings.find((b) => b.name === name);
    expect(byName("DB")).toMatchObject({ type: "d1", id: db.uuid });
    for (const [binding, name] of [
      ["DIRECTORY", "muselingo-directory"],
      ["DB_1", "muselingo-shard-1"],
      ["DB_2", "muselingo-shard-2"],
    ])
      expect(byName(binding!)).toMatchObject({ type: "d1", id: fake.state.d1.find((d) => d.name === name)!.uuid });
    expect(byName("KV")).toMatchObject({ type: "kv_namespace", namespace_id: kvId });
    expect(byName("MEDIA")).toMatchObject({ type: "r2_bucket", bucket_name: "muselingo-media" });
    // The EU museums' files (decision 144): a bucket created in the EU jurisdiction, bound as such.
    expect(fake.state.r2.find((b) => b.name === "muselingo-media-eu")).toMatchObject({ jurisdiction: "eu" });
    expect(byName("MEDIA_EU")).toMatchObject({ type: "r2_bucket", bucket_name: "muselingo-media-eu", jurisdiction: "eu" });
    expect(byName("SCANS")).toMatchObject({ type: "queue", queue_name: "muselingo-scans" });
    // Narration generation (decision 104): the app produces to its own queue and consumes it.
    expect(byName("NARRATIONS")).toMatchObject({ type: "queue", queue_name: "muselingo-narrations" });
    expect(byName("NARRATION_MONTHLY_CHARS")).toMatchObject({ type: "plain_text", text: "2000000" });
    expect(byName("TRANSLATION_MONTHLY_CHARS")).toMatchObject({ type: "plain_text", text: "20000000" });
    expect(byName("QUESTIONS_MONTHLY")).toMatchObject({ type: "plain_text", text: "10000" });
    expect(byName("AI")).toMatchObject({ type: "ai" });
    expect(byName("ASSETS")).toMatchObject({ type: "assets" });
    expect(byName("TRANSLATION_ENGINES")).toMatchObject({ type: "plain_text", text: "workers-ai,workers-ai-llm" });
    expect(byName("SPEECH_ENGINES")).toMatchObject({ type: "plain_text", text: "workers-ai" });
    // SESSION_SECRET goes with the first upload: the fake keeps its length only.
    expect(byName("SESSION_SECRET")).toEqual({ name: "SESSION_SECRET", type: "secret_text", length: 48 });
    const consumer = uploads.find((u) => u.script === "muselingo-stats-consumer")!;
    expect(consumer.bindings.find((b) => b.name === "DB")).toMatchObject({ type: "d1", id: db.uuid });
    expect(consumer.bindings.filter((b) => b.type === "d1").map((b) => b.name)).toEqual(["DIRECTORY", "DB", "DB_1", "DB_2"]);
    const queueConsumer = calls.find((c) => c.consumer?.queue === "muselingo-scans")?.consumer;
    expect(queueConsumer).toMatchObject({ queue: "muselingo-scans", script: "muselingo-stats-consumer", dead_letter_queue: "muselingo-scans-dlq" });
    const narrationConsumer = calls.find((c) => c.consumer?.queue === "muselingo-narrations")?.consumer;
    expect(narrationConsumer).toMatchObject({ queue: "muselingo-narrations", script: "muselingo", dead_letter_queue: "muselingo-narrations-dlq" });
    expect(narrationConsumer!.settings).toMatchObject({ batch_size: 4, max_retries: 4 });
    expect(byName("MOVES")).toMatchObject({ type: "queue", queue_name: "muselingo-moves" });
    const moveConsumer = calls.find((c) => c.consumer?.queue === "muselingo-moves")?.consumer;
    expect(moveConsumer).toMatchObject({ queue: "muselingo-moves", script: "muselingo", dead_letter_queue: "muselingo-moves-dlq" });
    expect(moveConsumer!.settings).toMatchObject({ batch_size: 1, max_retries: 3 });
    expect(byName("EU_SHARDS")).toMatchObject({ type: "plain_text", text: "2" });
    // Both crons.
    const schedules = calls.filter((c) => c.schedules).map((c) => JSON.stringify(c.schedules));
    expect(schedules.some((s) => s.includes("30 3 * * *"))).toBe(true);
    expect(schedules.some((s) => s.includes("15 3 * * *"))).toBe(true);
    // The app's per-minute cron: scheduled publications (decision 041).
    expect(schedules.some((s) => s.includes('"* * * * *"'))).toBe(true);
    // The address and the next step.
    expect(run.out).toContain(`Address: https://muselingo.${SUBDOMAIN}.workers.dev`);
    expect(run.out).toContain("/healthz");
    expect(run.out).toContain("npm run user:create");
  });

  it("second run: creates nothing, applies nothing, deploys again", async () => {
    const before = JSON.stringify(ids(dir));
    const from = fake.calls.length;
    const run = await deploy(dir, fake);
    expect(run.code, run.out + run.err).toBe(0);
    const calls = since(fake, from);
    expect(calls.filter((c) => c.unknown)).toEqual([]);
    expect(calls.filter((c) => c.created)).toEqual([]);
    expect(calls.flatMap((c) => c.migrations ?? [])).toEqual([]);
    expect(run.out).toContain("nothing to create");
    expect(run.out).toContain("none pending");
    const uploads = calls.filter((c) => c.upload).map((c) => c.upload!);
    expect(uploads.map((u) => u.script).sort()).toEqual(["muselingo", "muselingo-stats-consumer"]);
    // The secret is kept, not replaced.
    expect(uploads.flatMap((u) => u.bindings).filter((b) => b.type === "secret_text")).toEqual([]);
    expect(JSON.stringify(ids(dir))).toBe(before);
  });

  it("--dry-run shows what would be done and changes nothing", async () => {
    const before = { files: JSON.stringify(ids(dir)), state: JSON.stringify(fake.state) };
    const from = fake.calls.length;
    const run = await deploy(dir, fake, ["--dry-run"]);
    expect(run.code, run.out + run.err).toBe(0);
    expect(run.out).toContain("create: nothing, every resource exists");
    expect(run.out).toContain("apply migrations: none pending");
    expect(run.out).toContain("keep SESSION_SECRET");
    const calls = since(fake, from);
    expect(calls.filter((c) => c.unknown)).toEqual([]);
    expect(calls.filter((c) => c.created || c.upload || c.migrations)).toEqual([]);
    // Reads only: GETs, D1's /query (the SELECT of d1_migrations) and GraphQL analytics (`r2 bucket info`).
    expect(calls.filter((c) => c.method !== "GET" && !/\/query$/.test(c.path) && c.path !== "/graphql").map((c) => `${c.method} ${c.path}`)).toEqual([]);
    expect(JSON.stringify(fake.state)).toBe(before.state);
    expect(JSON.stringify(ids(dir))).toBe(before.files);
  });
});
