// The pure part of the offline manifest (decision 087): which addresses a saved tour needs, in one
// language, and how big they are. No database here, so unit tests cover every rule.

/** Saved tours are removed this long after the visitor saved them (issue 21 §3). */
export const OFFLINE_DAYS = 30;
/**
 * A visitor page's size when it is not known before it is fetched (pages are rendered per language): the
 * inline styles (about 9 KB) and a stop's text. Only used for the size shown before saving; the progress
 * and the final figure count real bytes.
 */
export const PAGE_BYTES_ESTIMATE = 16_000;

export type OfflineEntryKind = "page" | "image" | "subtitles" | "narration";

export interface OfflineEntry {
  /** What the service worker fetches (pages carry `?lang=`, so they render in the saved language). */
  url: string;
  /** Where it is kept and looked up: a page under its address without query, a file under its own URL. */
  key: string;
  kind: OfflineEntryKind;
  /** Known for files (the media row's bytes), null for pages. */
  bytes: number | null;
}

export interface OfflineManifest {
  link: string;
  lang: string;
  name: string;
  /** Changes whenever what the saved copy shows could change; a saved copy with another version refreshes. */
  version: string;
  stops: number;
  /** Videos on the stops: not saved; offline they say the strings' `video` (decision 087). */
  videos: number;
  entries: OfflineEntry[];
  /** The keypad page and, for each stop number of a shown stop, the saved stop page it leads to. */
  keypad: { page: string; numbers: Record<string, string> };
  /** The page shown for an address that was not saved, in the saved language. */
  offlinePage: OfflineEntry;
  /** Known bytes, and the size shown before saving (known + an estimate per page). */
  bytes: { known: number; estimated: number };
  /** Notices a saved page shows where its video, or a narration that was not saved, was (decisions 087, 113). */
  strings: { video: string; narration: string };
  days: number;
}

export interface PlannedStop {
  position: number;
  stopNumber: number | null;
  images: string[];
  subtitles: string[];
  videos: number;
}

export interface PlanInput {
  tour: { link: string; name: string; cover?: string | null; museum: { slug: string; sourceLang: string } };
  stops: readonly PlannedStop[];
  lang: string;
  bytes: ReadonlyMap<string, number>;
  /** The stops' narrations in `lang` (`/narration/…` with their sizes): saved with the tour, counted in its size. */
  narrations?: readonly { url: string; bytes: number }[];
  strings: { video: string; narration: string };
}

/** The manifest without its version (the caller hashes what the version depends on). */
export function offlinePlan({ tour, stops, lang, bytes, narrations = [], strings }: PlanInput): Omit<OfflineManifest, "version"> {
  const link = encodeURIComponent(tour.link);
  const q = `?${new URLSearchParams({ lang })}`;
  const page = (path: string): OfflineEntry => ({ url: `${path}${q}`, key: path, kind: "page", bytes: null });
  const tourPath = `/t/${link}`;
  const keypadPath = `/v/${encodeURIComponent(tour.museum.slug)}/n`;
  // The keypad is saved as opened from this tour (`?tour=`): its form leads back into the tour's stops (decision 113).
  const keypad: OfflineEntry = { url: `${keypadPath}?${new URLSearchParams({ lang, tour: tour.link })}`, key: keypadPath, kind: "page", bytes: null };
  const entries: OfflineEntry[] = [page(tourPath), ...stops.map((stop) => page(`${tourPath}/${stop.position}`)), keypad];
  const seen = new Set<string>();
  const file = (url: string, kind: OfflineEntryKind) => {
    if (seen.has(url)) return;
    seen.add(url);
    entries.push({ url, key: url, kind, bytes: bytes.get(kind === "subtitles" ? subtitleSource(url) : url) ?? null });
  };
  if (tour.cover?.startsWith("/media/")) file(tour.cover, "image");
  for (const stop of stops) {
    stop.images.forEach((src) => file(src, "image"));
    // The page asks for the subtitles in the visitor's language through /vtt (the original file in the museum's own).
    stop.subtitles.forEach((src) => file(lang === tour.museum.sourceLang ? src : `/vtt?${new URLSearchParams({ src, lang })}`, "subtitles"));
  }
  for (const narration of narrations) {
    if (seen.has(narration.url)) continue;
    seen.add(narration.url);
    entries.push({ url: narration.url, key: narration.url, kind: "narration", bytes: narration.bytes });
  }
  const numbers: Record<string, string> = {};
  for (const stop of stops)
    if (stop.stopNumber !== null && !(String(stop.stopNumber) in numbers)) numbers[String(stop.stopNumber)] = `${tourPath}/${stop.position}`;
  const offlinePage: OfflineEntry = { url: `/offline?${new URLSearchParams({ tour: tour.link, lang })}`, key: `/offline/${link}`, kind: "page", bytes: null };
  const known = entries.reduce((sum, entry) => sum + (entry.bytes ?? 0), 0);
  const unknown = [...entries, offlinePage].filter((entry) => entry.bytes === null).length;
  return {
    link: tour.link,
    lang,
    name: tour.name,
    stops: stops.length,
    videos: stops.reduce((sum, stop) => sum + stop.videos, 0),
    entries,
    keypad: { page: keypadPath, numbers },
    offlinePage,
    bytes: { known, estimated: known + unknown * PAGE_BYTES_ESTIMATE },
    strings,
    days: OFFLINE_DAYS,
  };
}

/** The uploaded file behind a `/vtt?src=…` address (its size is the translated file's, near enough). */
function subtitleSource(url: string): string {
  return url.startsWith("/vtt?") ? (new URLSearchParams(url.slice(5)).get("src") ?? url) : url;
}
