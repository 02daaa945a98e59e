// The catalogue of what staff review in an article (issue 19): every visitor-visible segment of its text
// (segments.ts) AND the cues of its videos' subtitle files, each with a stable place id, its source, its
// hash (the translation memory's key) and its kind. The review page, its counts, XLIFF export and import
// and "mark as reviewed" all read it, so a subtitle cue is a segment like any other.
import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { media } from "~/db/schema";
import { MEDIA_PREFIX } from "~/content/urls";
import type { AccordionDetail, ArticleContent, ContentElement } from "~/content/schema";
import { segmentEntries, segmentHash, vttCueEntries } from "./segments";

/** What a segment is, for the people and tools that translate it (XLIFF notes, review grouping). */
export type SegmentKind = "text" | "heading" | "link" | "alt" | "legend" | "accordion-header" | "subtitle";

export interface CatalogueEntry {
  /**
   * Where the segment sits, stable while the article's structure stays: `e3.content.0` (first line of
   * element 3's text), `e5.d1.alt.0` (alt text of accordion 5's second detail), `e2.vtt.c4.0.0` (the
   * first line of the fifth block of video 2's subtitle file).
   */
  id: string;
  source: string;
  /** SHA-256 of the NFC source: the translation memory's key. */
  hash: string;
  kind: SegmentKind;
  /** Index of the top-level element the segment belongs to. */
  element: number;
  /** For a subtitle cue: its timings and the subtitle file's address (`/media/…`). */
  cue?: { start: string; end: string; file: string };
}

/** The largest subtitle file read (the same bound as `/vtt`). */
export const MAX_SUBTITLE_BYTES = 1024 * 1024;

/** Reads a subtitle file's text by its `/media/…` address; null when it is not this museum's subtitles. */
export type SubtitleReader = (src: string) => Promise<string | null>;

/** A reader of the museum's own subtitle uploads from R2 (another museum's file reads as null). */
export function subtitleReader(db: Database, bucket: R2Bucket, museumId: number): SubtitleReader {
  return async (src) => {
    if (!src.startsWith(MEDIA_PREFIX)) return null;
    const key = src.slice(MEDIA_PREFIX.length);
    const row = await db
      .select({ key: media.r2Key })
      .from(media)
      .where(and(eq(media.museumId, museumId), eq(media.r2Key, key), eq(media.kind, "subtitles")))
      .get();
    if (!row) return null;
    const object = await bucket.get(row.key);
    if (!object) return null;
    if (object.size > MAX_SUBTITLE_BYTES) {
      await object.body.cancel();
      return null;
    }
    return object.text();
  };
}

function kindOf(content: ArticleContent, id: string): SegmentKind {
  const [first = "", second = "", third = "", fourth = ""] = id.split(".");
  const element = content[Number(first.slice(1))] as ContentElement | undefined;
  if (!element) return "text";
  if (element.type === "accordion") {
    if (second === "header") return "accordion-header";
    const detail = (element.details as AccordionDetail[])[Number(second.slice(1))];
    return detail ? leafKind(detail, third) : "text";
  }
  void fourth;
  return leafKind(element, second);
}

function leafKind(element: ContentElement | AccordionDetail, field: string): SegmentKind {
  if (field === "alt") return "alt";
  if (element.type === "heading") return "heading";
  if (element.type === "link") return "link";
  if (element.type === "legendItem") return "legend";
  return "text";
}

/**
 * The article's catalogue in content order: each element's text segments, then (for a video) its
 * subtitle cues. A repeated sentence is listed at each place. A subtitle file that cannot be read (gone,
 * too large, another museum's) contributes nothing.
 */
export async function articleCatalogue(content: ArticleContent, readSubtitles: SubtitleReader): Promise<CatalogueEntry[]> {
  const byElement = new Map<number, { id: string; source: string; kind: SegmentKind }[]>();
  for (const entry of segmentEntries(content)) {
    const element = Number(entry.id.slice(1, entry.id.indexOf(".")));
    const list = byElement.get(element) ?? [];
    list.push({ ...entry, kind: kindOf(content, entry.id) });
    byElement.set(element, list);
  }
  const out: CatalogueEntry[] = [];
  for (const [index, element] of content.entries()) {
    for (const entry of byElement.get(index) ?? []) out.push({ ...entry, hash: await segmentHash(entry.source), element: index });
    if (element.type === "video" && element.subtitles) {
      const vtt = await readSubtitles(element.subtitles);
      if (vtt === null) continue;
      for (const cue of vttCueEntries(vtt)) {
        out.push({
          id: `e${index}.vtt.${cue.id}`,
          source: cue.source,
          hash: await segmentHash(cue.source),
          kind: "subtitle",
          element: index,
          cue: { start: cue.start, end: cue.end, file: element.subtitles },
        });
      }
    }
  }
  return out;
}
