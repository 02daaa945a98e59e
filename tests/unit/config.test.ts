import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "~/config.server";
import { safeRedirect } from "~/utils/session.server";

describe("readConfig", () => {
  it("applies defaults", () => {
    const config = readConfig({ SESSION_SECRET: "x".repeat(32) });
    expect(config.TRANSLATION_ENGINES).toEqual(["pseudo"]);
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
