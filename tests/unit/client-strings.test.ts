// Decision 077, checked on the production client build (`npm run build` first; `npm test` builds before its
// suites): the browser gets only the page language's strings, as one JSON file, and the editor's JavaScript
// holds neither language's strings, nor the content validator, and stays within its budget.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BUDGET_KIB, localeChunk, measurePage, pageFiles, viteClientManifest, type ViteManifest } from "../bench/editor-js.mjs";
import en from "../../locales/en/common.json";
import fr from "../../locales/fr/common.json";

const CLIENT = join(process.cwd(), "build", "client");

function strings(node: unknown): string[] {
  if (typeof node === "string") return [node];
  if (typeof node !== "object" || node === null) return [];
  return Object.values(node).flatMap(strings);
}

/** Long, distinctive sentences: each language's strings that the other language does not also use. */
function distinctive(own: unknown, other: unknown): string[] {
  const theirs = new Set(strings(other));
  return strings(own).filter((s) => s.length >= 30 && !theirs.has(s) && !s.includes("{{"));
}

let manifest: ViteManifest;
let editorJs: string;

beforeAll(() => {
  if (!existsSync(join(CLIENT, "assets"))) throw new Error("No client build: run `npm run build` first");
  manifest = viteClientManifest();
  const { files } = pageFiles(manifest, ["app/entry.client.tsx", "app/root.tsx", "app/routes/article.tsx"]);
  editorJs = files.map((f) => readFileSync(join(CLIENT, f), "utf8")).join("\n");
});

describe("the strings the browser gets (decision 077)", () => {
  it("has enough distinctive sentences in each language to tell", () => {
    expect(distinctive(en, fr).length).toBeGreaterThan(100);
    expect(distinctive(fr, en).length).toBeGreaterThan(100);
  });

  it("puts no English and no French sentence into the editor's JavaScript", () => {
    const leakedEn = distinctive(en, fr).filter((s) => editorJs.includes(JSON.stringify(s).slice(1, -1)));
    const leakedFr = distinctive(fr, en).filter((s) => editorJs.includes(JSON.stringify(s).slice(1, -1)));
    expect(leakedEn).toEqual([]);
    expect(leakedFr).toEqual([]);
  });

  it("serves each language's strings as one static JSON file, the same as the locale file", () => {
    for (const [lng, source] of [
      ["fr", fr],
      ["en", en],
    ] as const) {
      const file = localeChunk(manifest, lng);
      expect(file, lng).toMatch(/^assets\/common-[\w-]+\.json$/);
      expect(JSON.parse(readFileSync(join(CLIENT, file!), "utf8"))).toEqual(source);
    }
    expect(localeChunk(manifest, "fr")).not.toBe(localeChunk(manifest, "en"));
  });

  it("keeps the content validator out of the editor's first load, and the editor within budget", () => {
    // zod's own error text: present in the build (the on-demand content check), absent from the first load.
    const marker = "Invalid discriminator value";
    const everything = Object.values(manifest)
      .map((c) => c.file)
      .filter((f) => f.endsWith(".js"))
      .map((f) => readFileSync(join(CLIENT, f), "utf8"))
      .join("\n");
    expect(everything).toContain(marker);
    expect(editorJs).not.toContain(marker);
    const editor = measurePage(manifest, "app/routes/article.tsx");
    expect(editor.lazy.some((f) => f.includes("content-check"))).toBe(true);
    expect(editor.total.gzip / 1024).toBeLessThan(BUDGET_KIB);
  });
});
