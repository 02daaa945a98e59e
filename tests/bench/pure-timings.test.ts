// `npm run bench` (vitest.bench.config.ts): how long the pure functions take on the inputs built to be slow.
// These were wall-clock bounds inside the unit tests (decision 127); there they flaked on a busy machine and
// proved nothing the work counts do not. Here each case runs five times on a quiet machine and its median must
// stay within the budget the unit test had. The unit tests keep what each case proves (the coarse diff spends
// no cells, a hostile workbook inflates nothing, …); a hang there still ends at vitest's per-test limit.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { articleContentSchema, type ArticleContent, type ArticleContentInput } from "~/content/schema";
import { parseSheet } from "~/import/sheet";
import { diffContents, diffText } from "~/publishing/diff";
import { measureAudio } from "~/speech/audio-meter";
import { cleanTarget } from "~/xliff/characters";
import { excelLikeXlsx, hostileXlsx } from "../workbooks";

const RUNS = 5;
const figures: string[] = [];

/** The median of RUNS timings of `work`, printed at the end, in milliseconds. */
async function medianMs(name: string, budgetMs: number, work: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  const median = times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
  figures.push(`${name.padEnd(60)} ${median.toFixed(1).padStart(8)} ms (budget ${budgetMs} ms)`);
  return median;
}

afterAll(() => console.log(`\nPure functions, median of ${RUNS} runs:\n${figures.join("\n")}`));

const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(" ");
const content = (elements: ArticleContentInput) => articleContentSchema.parse([{ type: "metadatas", url: "a" }, ...elements]) as ArticleContent;

describe("history's diff (tests/unit/history-diff.test.ts)", () => {
  it("a long text replaced whole past the bound: under 500 ms", async () => {
    const [a, b] = [words("a", 3000), words("b", 3000)];
    expect(await medianMs("diffText, 3,000 words against 3,000 others", 500, () => diffText(a, b))).toBeLessThan(500);
  });

  it("a long text with a small edit: under 1 s", async () => {
    const long = words("w", 5000);
    const edited = long.replace("w2500", "CHANGED");
    expect(await medianMs("diffText, 5,000 words, one changed", 1000, () => diffText(long, edited))).toBeLessThan(1000);
  });

  it("two full articles of long, wholly different texts: under 3 s", async () => {
    const paragraph = (prefix: string) => words(prefix, 900);
    const a = content(Array.from({ length: 60 }, () => ({ type: "text" as const, content: paragraph("x") })));
    const b = content(Array.from({ length: 60 }, () => ({ type: "text" as const, content: paragraph("y") })));
    expect(await medianMs("diffContents, 60 × 900 words against 60 × 900 others", 3000, () => diffContents(a, b))).toBeLessThan(3000);
  });
});

describe("XLIFF targets (tests/unit/xliff.test.ts)", () => {
  it("long runs of spaces, and a character's place far in: under 2 s", async () => {
    const spaces = `a${" ".repeat(200_000)}\t${" ".repeat(200_000)}b`;
    const far = `${"é".repeat(19_000)}\u202E`;
    const ms = await medianMs("cleanTarget, 400,000 spaces; a character at 19,001", 2000, () => [cleanTarget(spaces), cleanTarget(far)]);
    expect(ms).toBeLessThan(2000);
  });
});

describe("hostile uploads", () => {
  it("audio headers that lie about their sizes (tests/unit/audio-meter.test.ts): under 5 s", async () => {
    const flacHead = new Uint8Array(readFileSync(join(__dirname, "../fixtures/audio/piped.flac"))).subarray(0, 42);
    const flacJunk = new Uint8Array(flacHead.length + 1024 * 1024).fill(0xff);
    flacJunk.set(flacHead);
    const webmCluster = new Uint8Array(200_000).fill(0xec).map((x, i) => (i % 2 ? 0x80 : x));
    const ms = await medianMs("measureAudio, 1 MB of FLAC sync-like bytes; a 200 KB WebM cluster", 5000, () => [
      measureAudio("flac", flacJunk),
      measureAudio("webm", webmCluster),
    ]);
    expect(ms).toBeLessThan(5000);
  });

  it("issue 29's workbook, refused from its directory (tests/unit/import-workbook.test.ts): under 1 s", async () => {
    const hostile = hostileXlsx(excelLikeXlsx([["Nom"], ["a"]]));
    const ms = await medianMs("parseSheet, 1,200 entries of 500 KB declared", 1000, () => parseSheet(hostile).catch(() => undefined));
    expect(ms).toBeLessThan(1000);
  });
});
