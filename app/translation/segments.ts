import { sha256Hex } from "~/lib/crypto";
import type { AccordionDetail, ArticleContent, ContentElement } from "~/content/schema";

/**
 * The visitor-visible strings of an article (DESIGN §5): text, headings, link labels, legend texts, accordion
 * headers and details, image and legend alt texts. Styles, URLs and layout never reach an engine.
 * Subtitle cues live in their .vtt files and are segmented from there (`vttSegments`).
 *
 * A segment is one line: multi-line texts are split at line breaks, so an edit of one paragraph
 * re-translates that paragraph only and the line and paragraph breaks (the only inline formatting a
 * text has) survive any engine. Each line's surrounding spaces stay outside the segment.
 */
type Mapper = (segment: string, id: string) => string;

const LINE_BREAK = /\r\n?|\n/;

/**
 * Applies `map` to every non-blank line of `text`, keeping breaks and surrounding spaces. Each line's id
 * is `{prefix}.{line index}`.
 */
export function mapText(text: string, map: Mapper, prefix = ""): string {
  return text
    .split(LINE_BREAK)
    .map((line, index) => {
      const core = line.trim();
      if (core === "") return line;
      const start = line.indexOf(core);
      return line.slice(0, start) + map(core.normalize("NFC"), `${prefix}.${index}`) + line.slice(start + core.length);
    })
    .join("\n");
}

function mapElement<T extends ContentElement | AccordionDetail>(element: T, map: Mapper, at: string): T {
  switch (element.type) {
    case "text":
    case "heading":
    case "link":
      return { ...element, content: mapText(element.content, map, `${at}.content`) };
    case "image":
      return { ...element, alt: mapText(element.alt, map, `${at}.alt`) };
    case "legendItem":
      return { ...element, content: mapText(element.content, map, `${at}.content`), alt: mapText(element.alt, map, `${at}.alt`) };
    case "accordion":
      return {
        ...element,
        header: { ...element.header, content: mapText(element.header.content, map, `${at}.header`) },
        details: element.details.map((detail, index) => mapElement(detail, map, `${at}.d${index}`)),
      };
    default:
      return element;
  }
}

/**
 * The article with each segment replaced by `map(segment, id)`; everything else untouched. A segment's id
 * says where it sits: `e3.content.0` is the first line of element 3's text, `e5.d1.alt.0` the alt text of
 * the second detail of accordion 5.
 */
export function mapSegments(content: ArticleContent, map: Mapper): ArticleContent {
  return content.map((element, index) => mapElement(element, map, `e${index}`)) as ArticleContent;
}

/** Every segment `walk` meets with its id, in order, by running it with a mapper that changes nothing. */
function collect<T>(walk: (map: Mapper) => unknown, pick: (segment: string, id: string) => T): T[] {
  const out: T[] = [];
  walk((segment, id) => {
    out.push(pick(segment, id));
    return segment;
  });
  return out;
}

/** Every segment with its position id, in content order (a text repeated at two places is listed twice). */
export function segmentEntries(content: ArticleContent): { id: string; source: string }[] {
  return collect((map) => mapSegments(content, map), (source, id) => ({ id, source }));
}

/** The article's segments in content order, each once. */
export function articleSegments(content: ArticleContent): string[] {
  return [...new Set(collect((map) => mapSegments(content, map), (segment) => segment))];
}

/** The translation memory's key for a segment: SHA-256 (hex) of its NFC text. */
export async function segmentHash(text: string): Promise<string> {
  return sha256Hex(text.normalize("NFC"));
}

/** KV keys of an article's rendered translations all start with this (decision 017). */
export const renderedTranslationPrefix = (articleId: number) => `tr:v1:${articleId}:`;

/**
 * Applies `map` to the text lines of a WebVTT file's cues (subtitle segments); the header, cue
 * identifiers, timings, NOTE, STYLE and REGION blocks are kept as they are.
 */
export function mapVtt(vtt: string, map: Mapper): string {
  const blocks = vtt.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split(/\n{2,}/);
  return blocks
    .map((block, index) => {
      if (index === 0 && block.startsWith("WEBVTT")) return block;
      if (/^(NOTE|STYLE|REGION)\b/.test(block)) return block;
      const lines = block.split("\n");
      const timing = lines.findIndex((line) => line.includes("-->"));
      if (timing === -1) return block;
      return [...lines.slice(0, timing + 1), ...lines.slice(timing + 1).map((line, n) => mapText(line, map, `c${index}.${n}`))].join("\n");
    })
    .join("\n\n");
}

/** The subtitle segments of a WebVTT file, each once, in order. */
export function vttSegments(vtt: string): string[] {
  return [...new Set(collect((map) => mapVtt(vtt, map), (segment) => segment))];
}

/** One subtitle segment with the cue it belongs to (its timings, as written in the file). */
export interface CueEntry {
  /** `c{block}.{line}.0`: the id `mapVtt` gives the segment. */
  id: string;
  source: string;
  start: string;
  end: string;
}

/** Every subtitle segment of a WebVTT file with its cue's timings, in file order (repeats kept). */
export function vttCueEntries(vtt: string): CueEntry[] {
  const timings = new Map<number, { start: string; end: string }>();
  vtt
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .forEach((block, index) => {
      const line = block.split("\n").find((l) => l.includes("-->"));
      if (!line) return;
      const [start = "", rest = ""] = line.split("-->");
      timings.set(index, { start: start.trim(), end: rest.trim().split(/\s+/)[0] ?? "" });
    });
  return collect(
    (map) => mapVtt(vtt, map),
    (source, id) => {
      const block = Number(/^c(\d+)\./.exec(id)?.[1] ?? -1);
      const timing = timings.get(block) ?? { start: "", end: "" };
      return { id, source, ...timing };
    },
  );
}
