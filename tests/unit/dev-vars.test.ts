import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensureDevVars } from "../../scripts/lib.mjs";

describe(".dev.vars keeps local runs on the offline pseudo engine (decision 037)", () => {
  const dirs: string[] = [];
  const file = () => {
    const dir = mkdtempSync(join(tmpdir(), "devvars-"));
    dirs.push(dir);
    return join(dir, ".dev.vars");
  };
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("writes a new one with a random secret and pseudo", () => {
    const path = file();
    ensureDevVars(path);
    const text = readFileSync(path, "utf8");
    expect(text).toMatch(/^SESSION_SECRET=[\w-]{48}$/m);
    expect(text).toMatch(/^TRANSLATION_ENGINES=pseudo$/m);
  });

  it("adds pseudo to an older file without touching its secret, once", () => {
    const path = file();
    writeFileSync(path, "SESSION_SECRET=keep-me-keep-me-keep-me-keep-me-0123");
    ensureDevVars(path);
    ensureDevVars(path);
    expect(readFileSync(path, "utf8")).toBe(
      "SESSION_SECRET=keep-me-keep-me-keep-me-keep-me-0123\n# Offline stand-in engine for local runs.\nTRANSLATION_ENGINES=pseudo\n",
    );
  });

  it("leaves a file that already chooses engines alone", () => {
    const path = file();
    const text = "SESSION_SECRET=x\nTRANSLATION_ENGINES = libretranslate,pseudo\nLIBRETRANSLATE_URL=http://localhost:5000\n";
    writeFileSync(path, text);
    ensureDevVars(path);
    expect(readFileSync(path, "utf8")).toBe(text);
  });
});
