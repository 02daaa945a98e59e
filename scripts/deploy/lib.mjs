// Helpers of `npm run deploy` (scripts/deploy.mjs): wrangler with machine-readable results, the engine
// check, and the wrangler.toml ids.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { quietEnv, ROOT } from "../lib.mjs";
import { d1Bindings } from "../shards.mjs";

const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");
export const APP_TOML = join(ROOT, "wrangler.toml");
export const CONSUMER_TOML = join(ROOT, "workers", "stats-consumer", "wrangler.toml");
export const PLACEHOLDER_D1 = "00000000-0000-0000-0000-000000000000";
export const PLACEHOLDER_KV = "00000000000000000000000000000000";
/**
 * How long the scan queue keeps a message (seconds), set when the deploy creates it: Cloudflare's default, 4 days
 * (https://developers.cloudflare.com/changelog/2025-02-14-customize-queue-retention-period). The consumer keeps
 * raw events longer than this (RAW_EVENT_RETENTION_DAYS, 5), so a redelivered message is always counted once;
 * tests/deploy/deploy-lib.test.ts holds the two together.
 */
export const SCAN_QUEUE_RETENTION_SECONDS = 4 * 86_400;
export const NAMES = {
  app: "muselingo",
  consumer: "muselingo-stats-consumer",
  database: "muselingo",
  kvTitle: "muselingo-kv",
  bucket: "muselingo-media",
  queue: "muselingo-scans",
  dlq: "muselingo-scans-dlq",
  // Narration generation (decision 104): produced and consumed by the app Worker.
  narrationQueue: "muselingo-narrations",
  narrationDlq: "muselingo-narrations-dlq",
  // Moves started from the operator's console (decision 149): produced and consumed by the app Worker.
  moveQueue: "muselingo-moves",
  moveDlq: "muselingo-moves-dlq",
};

/** A failed step: its title and what wrangler said (the `command-failed` event's message and code). */
export class StepError extends Error {
  constructor(step, result) {
    const detail = result.message ?? "failed";
    super(`${step}: ${detail}`);
    this.step = step;
    this.detail = `${detail}${result.code !== undefined ? ` (Cloudflare API error ${result.code})` : ""}`;
  }
}

let counter = 0;

/**
 * Runs wrangler non-interactively with WRANGLER_OUTPUT_FILE_PATH, and resolves to
 * { ok, stdout, stderr, events, json, code, message, notLoggedIn }: `events` are wrangler's ND-JSON output
 * entries (packages/wrangler/src/output.ts: "deploy", "command-failed"…), `json` the parsed stdout of a
 * command asked for JSON (`--json`, `kv namespace list`, `secret list --format json`), `code`/`message`
 * those of the `command-failed` entry.
 */
export function wranglerJson(args, { work, input } = {}) {
  const outputFile = join(work, `wrangler-${process.pid}-${++counter}.ndjson`);
  return new Promise((resolve) => {
    const child = spawn(WRANGLER, args, {
      cwd: ROOT,
      // quietEnv's Node compile cache spares each of a run's 9 to 17 wrangler starts the compiling of its 15 MB
      // bundle (decision 131).
      env: {
        ...quietEnv,
        CI: "true",
        WRANGLER_OUTPUT_FILE_PATH: outputFile,
        FORCE_COLOR: "0",
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdin.end(input ?? "");
    child.on("close", (status) => {
      const events = existsSync(outputFile)
        ? readFileSync(outputFile, "utf8")
            .split("\n")
            .filter((line) => line.trim() !== "")
            .map((line) => JSON.parse(line))
        : [];
      const failed = events.find((e) => e.type === "command-failed");
      let json = null;
      if (status === 0) {
        try {
          json = JSON.parse(stdout);
        } catch {
          json = null;
        }
      }
      const message = failed?.message ?? (status === 0 ? undefined : lastLines(stderr || stdout));
      resolve({
        ok: status === 0,
        stdout,
        stderr,
        events,
        json,
        code: failed?.code,
        message: message?.split("\n")[0],
        notLoggedIn:
          status !== 0 &&
          (/not logged in|authenticat|CLOUDFLARE_API_TOKEN/i.test(failed?.message ?? stderr) ||
            ([9106, 9109, 10000].includes(failed?.code) && /auth/i.test(stderr))),
      });
    });
  });
}

function lastLines(text) {
  return text.trim().split("\n").slice(-3).join(" ").slice(0, 400) || "failed";
}

/** TRANSLATION_ENGINES and the [vars] of wrangler.toml (our own file: one `NAME = "value"` a line). */
export function readEngines(toml) {
  const vars = {};
  const section = /^\[vars\]\s*$([\s\S]*?)(?=^\[)/m.exec(`${toml}\n[end]`)?.[1] ?? "";
  for (const match of section.matchAll(/^\s*([A-Z0-9_]+)\s*=\s*"([^"]*)"/gm)) vars[match[1]] = match[2];
  const list = (vars.TRANSLATION_ENGINES ?? "workers-ai,workers-ai-llm")
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  // Narration (decision 090): "" means no speech engine (visitors keep the browser's read-aloud).
  const speech = (vars.SPEECH_ENGINES ?? "workers-ai")
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  return { list, speech, vars, hasAi: /^\[ai\]\s*$/m.test(toml) };
}

/** Mirrors app/config.server.ts REQUIRED_SETTINGS (tests/deploy/deploy-lib.test.ts checks they agree). */
export const REQUIRED_SETTINGS = {
  deepl: ["DEEPL_API_KEY"],
  google: ["GOOGLE_TRANSLATE_API_KEY"],
  libretranslate: ["LIBRETRANSLATE_URL"],
  "openai-compatible": ["OPENAI_BASE_URL", "OPENAI_MODEL"],
};

/** What each listed engine lacks, given the [vars] and the names of the Worker's secrets. */
export function engineProblems({ list, vars, hasAi }, secretNames) {
  const problems = [];
  for (const id of list) {
    for (const name of REQUIRED_SETTINGS[id] ?? []) {
      if (!(vars[name] ?? "").trim() && !secretNames.includes(name)) problems.push(`${id} needs ${name}`);
    }
    if ((id === "workers-ai" || id === "workers-ai-llm") && !hasAi) problems.push(`${id} needs the [ai] binding in wrangler.toml`);
  }
  return problems;
}

/**
 * The D1 databases the app's wrangler.toml declares (the directory and each shard, decision 142), each with the id
 * the app's and the consumer's files hold now, and the KV id.
 */
export function readIds() {
  const consumer = d1Bindings(CONSUMER_TOML);
  const app = readFileSync(APP_TOML, "utf8");
  return {
    databases: d1Bindings(APP_TOML).map((b) => ({ ...b, consumerId: consumer.find((c) => c.binding === b.binding)?.database_id ?? null })),
    kv: /\[\[kv_namespaces\]\][^[]*?\bid\s*=\s*"([^"]+)"/.exec(app)?.[1],
  };
}
/** A database's migration files (its wrangler.toml `migrations_dir`, relative to the app's). */
readIds.migrations = (dir = "drizzle") =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith(".sql"))
    .sort();

/** Replaces ids in a file, written to a temporary file then renamed over it: never half written. */
export function replaceInFile(file, pairs) {
  let text = readFileSync(file, "utf8");
  for (const [from, to] of pairs) if (from && to && from !== to) text = text.replaceAll(`"${from}"`, `"${to}"`);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}
