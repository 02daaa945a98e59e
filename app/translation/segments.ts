import { sha256Hex } from "~/lib/crypto";
import type { AccordionDetail, ArticleContent, ContentElement } from "~/content/schema";
import { parseWebVtt, preprocessWebVtt, type WebVtt } from "./webvtt";

/**
 * The visitor-visible strings of an article (DESIGN §5): text, headings, link labels, legend texts, accordion
 * headers and details, image and legend alt texts. Styles, URLs and layout never reach an engine.
 * Subtitle cues live in their .vtt files and are segmented from there (`vttSegments`, by the WebVTT parser).
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
      return {
        ...element,
        content: mapText(element.content, map, `${at}.content`),
      };
    case "image":
      return { ...element, alt: mapText(element.alt, map, `${at}.alt`) };
    case "legendItem":
      return {
        ...element,
        content: mapText(element.content, map, `${at}.content`),
        alt: mapText(element.alt, map, `${at}.alt`),
      };
    case "accordion":
      return {
        ...element,
        header: {
          ...element.header,
          content: mapText(element.header.content, map, `${at}.header`),
        },
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
  return collect(
    (map) => mapSegments(content, map),
    (source, id) => ({ id, source }),
  );
}

/** The article's segments in content order, each once. */
export function articleSegments(content: ArticleContent): string[] {
  return [
    ...new Set(
      collect(
        (map) => mapSegments(content, map),
        (segment) => segment,
      ),
    ),
  ];
}

/** The translation memory's key for a segment: SHA-256 (hex) of its NFC text. */
export async function segmentHash(text: string): Promise<string> {
  return sha256Hex(text.normalize("NFC"));
}

/** KV keys of an article's rendered translations all start with this (decision 017). */
export const renderedTranslationPrefix = (articleId: number) => `tr:v1:${articleId}:`;

/**
 * Where each cue text line of a parsed file sits, as segment ids: `c{block}.{line}`, `block` counting the
 * blank-line-separated blocks of the file (the header is block 0) and `line` the line after the first cue
 * timing of that block (0 for its first text line). For the usual file (one cue per block) these are the ids
 * subtitle reviews were stored under before the parser followed the spec; cues that share a block (no blank
 * line between them) get distinct lines, not one id for two cues.
 */
function cueLineIds(vtt: WebVtt): Map<number, string> {
  const blockOf: number[] = [];
  let block = 0;
  vtt.lines.forEach((line, index) => {
    if (line === "" && index > 0 && vtt.lines[index - 1] !== "") block++;
    blockOf.push(block);
  });
  const firstTiming = new Map<number, number>();
  const ids = new Map<number, string>();
  for (const cue of vtt.cues) {
    const b = blockOf[cue.timingLine] ?? 0;
    if (!firstTiming.has(b)) firstTiming.set(b, cue.timingLine);
    for (const line of cue.textLines) ids.set(line, `c${b}.${line - firstTiming.get(b)! - 1}`);
  }
  return ids;
}

/**
 * Applies `map` to the text lines of a WebVTT file's cues (subtitle segments), the cues being those the
 * WebVTT parser algorithm reads (./webvtt.ts); the header, cue identifiers, timings, NOTE, STYLE and REGION
 * blocks and lines no cue holds are kept as they are. Line ends come out as LF, a NUL as U+FFFD (what the
 * parser reads anyway). A file that is not WebVTT has no cues and comes back as it was read.
 */
export function mapVtt(vtt: string, map: Mapper): string {
  const parsed = parseWebVtt(vtt);
  if (!parsed) return preprocessWebVtt(vtt);
  const ids = cueLineIds(parsed);
  return parsed.lines
    .map((line, index) => {
      const id = ids.get(index);
      return id === undefined ? line : mapText(line, map, id);
    })
    .join("\n");
}

/** The subtitle segments of a WebVTT file, each once, in order. */
export function vttSegments(vtt: string): string[] {
  return [
    ...new Set(
      collect(
        (map) => mapVtt(vtt, map),
        (segment) => segment,
      ),
    ),
  ];
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
  const parsed = parseWebVtt(vtt);
  if (!parsed) return [];
  const ids = cueLineIds(parsed);
  const out: CueEntry[] = [];
  for (const cue of parsed.cues) {
    for (const line of cue.textLines) {
      mapText(parsed.lines[line] ?? "", (source, id) => (out.push({ id, source, start: cue.start, end: cue.end }), source), ids.get(line));
    }
  }
  return out;
}
