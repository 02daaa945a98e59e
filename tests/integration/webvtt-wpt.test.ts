import { describe, expect, it } from "vitest";
import { pseudoTranslate } from "~/translation/engines/pseudo";
import { parseWebVtt } from "~/translation/webvtt";
import { get, publishArticle, staffSession } from "./helpers";
import { review, uploadSubtitles, video, vtt } from "./review-helpers";

// The 24 WebVTT files of the W3C web-platform-tests (tests/fixtures/webvtt), each uploaded as a museum's
// subtitles and read in German through `/vtt`: every cue a browser reads comes back with the same timing and
// its text translated, and nothing else is (a timing line is never offered as text, here or in review/XLIFF).

const FILES = Object.entries(
  import.meta.glob("../fixtures/webvtt/*.vtt", {
    query: "?raw",
    import: "default",
    eager: true,
  }) as Record<string, string>,
)
  .map(([path, text]) => ({
    name: path.replace(/^.*\/(.+)\.vtt$/, "$1"),
    text,
  }))
  .sort((a, b) => a.name.localeCompare(b.name));

/** Why a German `/vtt` answer is not the complete translation of `source`, or null when it is. */
function incomplete(source: string, german: string): string | null {
  const before = parseWebVtt(source)?.cues ?? [];
  const after = parseWebVtt(german)?.cues;
  if (!after) return "not a WebVTT file";
  if (after.length !== before.length) return `${after.length} cues of ${before.length}`;
  for (const [i, cue] of before.entries()) {
    const got = after[i]!;
    if (got.id !== cue.id || got.start !== cue.start || got.end !== cue.end) return `cue ${i + 1}: ${JSON.stringify([got.id, got.start, got.end])}`;
    const want = cue.text
      .split("\n")
      .map((line) => (line.trim() === "" ? line : line.replace(line.trim(), pseudoTranslate(line.trim().normalize("NFC"), "de"))))
      .join("\n");
    if (got.text !== want) return `cue ${i + 1} text ${JSON.stringify(got.text)}`;
  }
  return null;
}

describe("the web-platform-tests WebVTT files in German", () => {
  it("reach /vtt complete, all 24, and offer translators their cue lines only", async () => {
    expect(FILES).toHaveLength(24);
    const s = await staffSession();
    const { articleId, edit } = await publishArticle(s, [{ type: "text", content: "Des sous-titres." }]);
    const sources: string[] = [];
    for (const file of FILES) sources.push(await uploadSubtitles(s, articleId, file.text));
    const failures: Record<string, string> = {};
    for (const [i, file] of FILES.entries()) {
      const why = incomplete(file.text, await vtt(sources[i]!, "de"));
      if (why) failures[file.name] = why;
    }
    console.log(`WPT WebVTT files complete in German at /vtt: ${FILES.length - Object.keys(failures).length} of ${FILES.length}`, failures);
    expect(failures).toEqual({});

    // The review page (and the XLIFF export, which reads the same catalogue) lists exactly the cue lines.
    const arrows = FILES.findIndex((f) => f.name === "arrows");
    await edit([{ type: "text", content: "Des sous-titres." }, video(sources[arrows]!)]);
    const cues = (await review(s, articleId, "de")).segments.filter((x) => x.kind === "subtitle");
    expect(cues.map((x) => x.source)).toEqual(["text1", "text2", "text3", "text4", "text5", "text6"]);
    expect(cues.every((x) => x.cue?.start === "00:00:00.000" && x.cue.end === "00:00:01.000")).toBe(true);
    expect(new Set(cues.map((x) => x.id)).size).toBe(6);
    // The XLIFF a translator is sent: the six cue lines as units, no timing line among them.
    const xliff = await (await get(`/api/read/xliff?articleId=${articleId}&lang=de&version=2.0`, s.cookie)).text();
    const units = [...xliff.matchAll(/<source>([^<]*)<\/source>/g)].map((m) => m[1]);
    expect(units.filter((x) => /^text\d$/.test(x!))).toEqual(["text1", "text2", "text3", "text4", "text5", "text6"]);
    // (A cue's timing is in its unit's note, as context; never as text to translate.)
    expect(units.filter((x) => x!.includes("--&gt;") || x!.includes("-->"))).toEqual([]);
    expect(xliff).toContain(`<note category="cue">00:00:00.000 --&gt; 00:00:01.000 (${sources[arrows]})</note>`);
  });
});
