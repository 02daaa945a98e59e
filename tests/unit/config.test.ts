import { describe, expect, it } from "vitest";
import { ConfigError, configReadiness, readConfig } from "~/config.server";
import { safeRedirect } from "~/utils/session.server";

describe("readConfig", () => {
  it("applies defaults", () => {
    const config = readConfig({ SESSION_SECRET: "x".repeat(32) });
    expect(config.TRANSLATION_ENGINES).toEqual(["workers-ai", "workers-ai-llm"]);
    expect(config.PUBLIC_BASE_URL).toBe("");
  });

  it("names what is wrong", () => {
    expect(() => readConfig({})).toThrow(ConfigError);
    expect(() => readConfig({})).toThrow(/SESSION_SECRET/);
    expect(() => readConfig({ SESSION_SECRET: "short" })).toThrow(/at least 32/);
    expect(() => readConfig({ SESSION_SECRET: "x".repeat(32), TRANSLATION_ENGINES: "babelfish" })).toThrow(/TRANSLATION_ENGINES/);
    expect(() => readConfig({ SESSION_SECRET: "x".repeat(32), PUBLIC_BASE_URL: "not a url" })).toThrow(/PUBLIC_BASE_URL/);
  });
});

describe("safeRedirect", () => {
  it("keeps same-site paths and refuses everything else", () => {
    expect(safeRedirect("/settings")).toBe("/settings");
    expect(safeRedirect("/articles/a/b?x=1")).toBe("/articles/a/b?x=1");
    for (const bad of ["//evil.example", "https://evil.example", "/\\evil.example", "javascript:alert(1)", "", null, undefined]) {
      expect(safeRedirect(bad)).toBe("/dashboard");
    }
  });

  it("refuses any control or whitespace character, which browsers strip or reinterpret", () => {
    for (const bad of ["/\t/evil.example", "/\n/evil.example", "/\r\n/x", "/ /evil.example", "/\u0000x", "/\u00a0/x", "/\u2028/x", "/\u200b/x", "/a\\b"]) {
      expect(safeRedirect(bad), JSON.stringify(bad)).toBe("/dashboard");
    }
    expect(safeRedirect("/articles/%C3%89t%C3%A9")).toBe("/articles/%C3%89t%C3%A9");
  });
});

describe("configReadiness (GET /healthz)", () => {
  const secret = "s".repeat(32);
  it("names what each engine lacks, never a value", () => {
    const r = configReadiness({ SESSION_SECRET: secret, TRANSLATION_ENGINES: "deepl,workers-ai,google", GOOGLE_TRANSLATE_API_KEY: "g-key-value" });
    expect(r.engines).toEqual([
      { id: "deepl", ready: false, missing: ["DEEPL_API_KEY"], offline: false },
      { id: "workers-ai", ready: false, missing: ["AI (binding)"], offline: false },
      { id: "google", ready: true, missing: [], offline: false },
    ]);
    expect(JSON.stringify(r)).not.toContain("g-key-value");
    expect(JSON.stringify(r)).not.toContain(secret);
  });
  it("defaults to Workers AI and sees the binding", () => {
    expect(configReadiness({ SESSION_SECRET: secret, AI: {} }).engines.map((e) => [e.id, e.ready])).toEqual([
      ["workers-ai", true],
      ["workers-ai-llm", true],
    ]);
    expect(configReadiness({ SESSION_SECRET: secret, TRANSLATION_ENGINES: " " }).engines.map((e) => e.id)).toEqual(["workers-ai", "workers-ai-llm"]);
  });
  it("reports a broken list and a short secret without throwing", () => {
    const r = configReadiness({ SESSION_SECRET: "short", TRANSLATION_ENGINES: "pseudo,babelfish,pseudo" });
    expect(r.sessionSecret).toBe(false);
    expect(r.enginesError).toMatch(/unknown engine/);
    expect(r.engines.find((e) => e.id === "babelfish")?.ready).toBe(false);
    expect(r.engines[0]).toEqual({ id: "pseudo", ready: true, missing: [], offline: true });
  });
  it("treats a blank key as missing", () => {
    expect(configReadiness({ SESSION_SECRET: secret, TRANSLATION_ENGINES: "deepl", DEEPL_API_KEY: "  " }).engines[0]?.missing).toEqual(["DEEPL_API_KEY"]);
  });
});
