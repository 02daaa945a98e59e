import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mapVtt, vttCueEntries } from "~/translation/segments";
import { parseWebVtt, preprocessWebVtt } from "~/translation/webvtt";

// The W3C web-platform-tests of the WebVTT parser (tests/fixtures/webvtt, 24 files): the cues our parser
// reads are the ones a browser must read, and translating a file translates every cue's text and nothing else.

const DIR = join(__dirname, "../fixtures/webvtt");
const NAMES = readdirSync(DIR)
  .filter((f) => f.endsWith(".vtt"))
  .map((f) => f.slice(0, -4))
  .sort();

/** A JavaScript string or number literal of the assertions. */
function literal(source: string): string | number {
  if (source.startsWith('"')) return JSON.parse(source) as string;
  if (source.startsWith("'")) return JSON.parse(`"${source.slice(1, -1).replace(/"/g, '\\"')}"`) as string;
  return Number(source);
}

/** WPT's assertions on what we read: the cue count, and each literal cue id, text, start and end. */
function assertions(name: string) {
  const js = readFileSync(join(DIR, `${name}.test`), "utf8").split("===\n")[0]!;
  const length = /assert_equals\(cues\.length, (\d+)/.exec(js);
  const fields: {
    index: number;
    field: "id" | "text" | "startTime" | "endTime";
    value: string | number;
  }[] = [];
  let current = -1;
  for (const line of js.split("\n")) {
    const named = /^var cue = cues\[(\d+)\];/.exec(line);
    if (named) current = Number(named[1]);
    const m = /^assert_equals\(cue(?:s\[(\d+)\])?\.(id|text|startTime|endTime), ("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[\d.]+)\)/.exec(line);
    if (m)
      fields.push({
        index: m[1] === undefined ? current : Number(m[1]),
        field: m[2] as "id",
        value: literal(m[3]!),
      });
  }
  return { length: length ? Number(length[1]) : null, fields };
}

describe("the WebVTT parser on the web-platform-tests files", () => {
  it("has all 24 files", () => {
    expect(NAMES).toHaveLength(24);
  });

  it.each(NAMES)("%s: the cues WPT asserts", (name) => {
    const parsed = parseWebVtt(readFileSync(join(DIR, `${name}.vtt`), "utf8"));
    expect(parsed).not.toBeNull();
    const { length, fields } = assertions(name);
    // The two style-sheet files assert on style sheets only: both hold these cues (ids foo and bar, or none).
    const expected = length ?? { "stylesheets-newlines": 2, "stylesheets-none": 0 }[name];
    expect(parsed!.cues).toHaveLength(expected!);
    for (const { index, field, value } of fields) expect(parsed!.cues[index]?.[field], `${name} cue ${index} ${field}`).toBe(value);
  });

  it("reads the three files the line-based reader got wrong", () => {
    const read = (name: string) => parseWebVtt(readFileSync(join(DIR, `${name}.vtt`), "utf8"))!.cues;
    expect(read("arrows").map((c) => [c.id, c.text])).toEqual([1, 2, 3, 4, 5, 6].map((n) => ["", `text${n}`]));
    expect(read("newlines").map((c) => [c.id, c.text])).toEqual([
      ["cr", "text1"],
      ["lf", "text2"],
      ["crlf", "text3"],
      ["lfcr", "text4"],
    ]);
    expect(read("nulls").map((c) => c.text)).toEqual(["text1", "text2", "\uFFFDtext\uFFFD3", "text4", "text5", "text6", "text7"]);
    expect(read("timings-omitted-hours").map((c) => [c.start, c.end, c.startTime, c.endTime])).toEqual([
      ["00:00.000", "00:00:01.000", 0, 1],
      ["00:00:00.000", "00:01.000", 0, 1],
      ["00:00.000", "00:01.000", 0, 1],
    ]);
  });

  it.each(NAMES)("%s: translating it translates every cue's text and nothing else", (name) => {
    const source = readFileSync(join(DIR, `${name}.vtt`), "utf8");
    const before = parseWebVtt(source)!;
    const out = mapVtt(source, (segment) => `[de] ${segment}`);
    const after = parseWebVtt(out)!;
    // The same cues at the same times, each text line translated.
    expect(after.cues.map((c) => [c.id, c.start, c.end])).toEqual(before.cues.map((c) => [c.id, c.start, c.end]));
    after.cues.forEach((cue, i) => {
      const lines = before.cues[i]!.text.split("\n");
      expect(cue.text.split("\n")).toEqual(lines.map((line) => (line.trim() === "" ? line : line.replace(line.trim(), `[de] ${line.trim()}`))));
    });
    // Every other line as the parser read it: no timing line, identifier or dropped line is translated.
    const cueLines = new Set(before.cues.flatMap((c) => c.textLines));
    const sourceLines = preprocessWebVtt(source).split("\n");
    out.split("\n").forEach((line, i) => {
      if (!cueLines.has(i)) expect(line).toBe(sourceLines[i]);
    });
    // What staff and translators are offered (review page, XLIFF): exactly these lines, with their cue's times.
    const entries = vttCueEntries(source);
    expect(entries.map((e) => e.source)).toEqual(
      before.cues.flatMap((c) =>
        c.text
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => l !== ""),
      ),
    );
    expect(entries.every((e) => !e.source.includes("-->"))).toBe(true);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  });
});

describe("the WebVTT parser on hostile files", () => {
  it("reads 1 MB of cues with no blank line between them in one pass, each line with an id a correction accepts", async () => {
    const { segmentIdSchema } = await import("~/models/translation-input");
    const cue = (n: number) => `00:00:${String(n % 60).padStart(2, "0")}.000 --> 00:01:00.000\nligne ${n}\n`;
    let file = "WEBVTT\n\n";
    for (let n = 0; file.length < 1024 * 1024 - 64; n++) file += cue(n);
    const entries = vttCueEntries(file);
    expect(entries.length).toBeGreaterThan(20_000);
    expect(entries[0]).toEqual({
      id: "c1.0.0",
      source: "ligne 0",
      start: "00:00:00.000",
      end: "00:01:00.000",
    });
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    for (const e of entries) expect(segmentIdSchema.safeParse(`e2.vtt.${e.id}`).success, e.id).toBe(true);
  });

  it("gives no cue for lines of arrows, digits or NULs alone, and keeps them as they are", () => {
    const junk = `WEBVTT\n\n${"-->\n".repeat(20_000)}${"9".repeat(100_000)}:00:00.000 --> 00:01.000\n\0\n\n${"\0-->\0\n".repeat(1000)}`;
    // One cue (hours of 100,000 digits are hours all the same), whose text is the NUL read as U+FFFD.
    expect(parseWebVtt(junk)!.cues.map((c) => [c.end, c.text])).toEqual([["00:01.000", "\uFFFD"]]);
    expect(mapVtt(junk, (s) => `[de] ${s}`)).toBe(preprocessWebVtt(junk).replace(/\n\uFFFD\n/, "\n[de] \uFFFD\n"));
  });

  it("is not fooled by a signature that is not one", () => {
    for (const file of ["WEBVTTX\n\n00:00.000 --> 00:01.000\nà traduire", "WEBVT", "", " WEBVTT\n\n00:00.000 --> 00:01.000\nx", "\uFEFF\uFEFFWEBVTT\n"]) {
      expect(parseWebVtt(file)).toBeNull();
      expect(vttCueEntries(file)).toEqual([]);
      expect(mapVtt(file, () => "X")).toBe(preprocessWebVtt(file));
    }
    expect(parseWebVtt("\uFEFFWEBVTT\t\u00e9t\u00e9\r\n\r\n00:00.000 --> 00:01.000\r\n\u{1F3DB}\uFE0F Mus\u00e9e")!.cues[0]!.text).toBe(
      "\u{1F3DB}\uFE0F Mus\u00e9e",
    );
  });
});
