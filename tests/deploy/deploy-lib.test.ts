import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REQUIRED_SETTINGS as APP_REQUIRED } from "~/config.server";
import { QUEUE_RETENTION_SECONDS, RAW_EVENT_RETENTION_DAYS } from "~/queue/scan-stats.server";
import { engineProblems, readEngines, REQUIRED_SETTINGS, SCAN_QUEUE_RETENTION_SECONDS } from "../../scripts/deploy/lib.mjs";
import { REPO } from "./sandbox.mjs";

describe("npm run deploy's engine check", () => {
  it("knows the same required settings as the app", () => {
    expect(REQUIRED_SETTINGS).toEqual(APP_REQUIRED);
  });

  it("reads the repository's wrangler.toml: real engines and the AI binding", () => {
    const engines = readEngines(readFileSync(join(REPO, "wrangler.toml"), "utf8"));
    expect(engines.list).toEqual(["workers-ai", "workers-ai-llm"]);
    expect(engines.hasAi).toBe(true);
    expect(engineProblems(engines, [])).toEqual([]);
  });

  it("names a key missing from both [vars] and the secrets, and accepts either", () => {
    const toml = '[vars]\nTRANSLATION_ENGINES = "deepl, openai-compatible,workers-ai"\nOPENAI_MODEL = "gpt-4o-mini"\n\n[[d1_databases]]\nbinding = "DB"\n';
    const engines = readEngines(toml);
    expect(engines.list).toEqual(["deepl", "openai-compatible", "workers-ai"]);
    expect(engineProblems(engines, [])).toEqual([
      "deepl needs DEEPL_API_KEY",
      "openai-compatible needs OPENAI_BASE_URL",
      "workers-ai needs the [ai] binding in wrangler.toml",
    ]);
    expect(engineProblems({ ...engines, hasAi: true }, ["DEEPL_API_KEY", "OPENAI_BASE_URL"])).toEqual([]);
  });

  it("reads SPEECH_ENGINES: Workers AI when unset, none when empty (decision 090)", () => {
    expect(readEngines('[vars]\nTRANSLATION_ENGINES = "deepl"\n').speech).toEqual(["workers-ai"]);
    expect(readEngines('[vars]\nSPEECH_ENGINES = ""\n').speech).toEqual([]);
    expect(readEngines('[vars]\nSPEECH_ENGINES = "google, offline"\n').speech).toEqual(["google", "offline"]);
  });

  it("treats an empty [vars] value as missing", () => {
    const engines = readEngines('[vars]\nTRANSLATION_ENGINES = "libretranslate"\nLIBRETRANSLATE_URL = ""\n');
    expect(engineProblems(engines, [])).toEqual(["libretranslate needs LIBRETRANSLATE_URL"]);
  });
});

describe("the scan queue's retention", () => {
  it("is what the consumer assumes, and shorter than the consumer keeps raw events (a redelivery is counted once)", () => {
    expect(SCAN_QUEUE_RETENTION_SECONDS).toBe(QUEUE_RETENTION_SECONDS);
    expect(SCAN_QUEUE_RETENTION_SECONDS).toBeLessThan(RAW_EVENT_RETENTION_DAYS * 86_400);
  });
});
