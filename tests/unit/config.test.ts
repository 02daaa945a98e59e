import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "~/config.server";
import { safeRedirect } from "~/utils/session.server";

describe("readConfig", () => {
  it("applies defaults", () => {
    const config = readConfig({ SESSION_SECRET: "x".repeat(32) });
    expect(config.TRANSLATION_ENGINE).toBe("pseudo");
    expect(config.PUBLIC_BASE_URL).toBe("");
  });

  it("names what is wrong", () => {
    expect(() => readConfig({})).toThrow(ConfigError);
    expect(() => readConfig({})).toThrow(/SESSION_SECRET/);
    expect(() => readConfig({ SESSION_SECRET: "short" })).toThrow(/at least 32/);
    expect(() => readConfig({ SESSION_SECRET: "x".repeat(32), TRANSLATION_ENGINE: "babelfish" })).toThrow(/TRANSLATION_ENGINE/);
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
});
