import { sha256Hex } from "~/lib/crypto";
import { glossaryTag } from "~/translation/glossary";
import { translateSegments, type TranslationDeps, type TranslationStatus } from "~/translation/translate.server";

/** A tour page's texts in one language; kept one hour (decision 084: staff corrections show within the hour). */
const CACHE_TTL_SECONDS = 3600;

export interface TourTexts {
  name: string;
  description: string;
  stopNames: string[];
}

export interface TranslatedTourTexts {
  texts: TourTexts;
  status: TranslationStatus;
  engines: string[];
}

interface Cached {
  texts: TourTexts;
  status: "machine" | "reviewed";
  engines: string[];
}

const lines = (text: string) =>
  text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");

/** The segments of a tour page: its name, each line of its description, each stop's name. */
export function tourSegments(texts: TourTexts): string[] {
  return [...new Set([texts.name, ...lines(texts.description), ...texts.stopNames].map((s) => s.trim()).filter((s) => s !== ""))];
}

/**
 * The tour page's texts in `to` (decision 084), by the path article text takes: the museum's
 * translation memory and glossary, the engines once per text and language, then a KV cache of the whole
 * page's texts keyed by their hash (an edit of the tour or of a stop's name is a new key). A failed or
 * partial translation gives the original, status "failed", and is not cached.
 */
export async function translateTourTexts(
  deps: TranslationDeps,
  tour: { id: number; museumId: number },
  from: string,
  to: string,
  texts: TourTexts,
): Promise<TranslatedTourTexts> {
  if (from === to) return { texts, status: "original", engines: [] };
  const segments = tourSegments(texts);
  if (segments.length === 0) return { texts, status: "original", engines: [] };
  const rules = await deps.glossary(tour.museumId, to);
  const key = `tour:v1:${tour.id}:${to}:${(await sha256Hex(JSON.stringify(texts))).slice(0, 32)}${await glossaryTag(rules, segments).then((tag) => (tag ? `:g${tag}` : ""))}`;
  const cached = await deps.kv.get<Cached>(key, "json").catch(() => null);
  if (cached) return cached;
  const outcome = await translateSegments(deps, { museumId: tour.museumId, from, to }, segments, { glossary: rules });
  if (!outcome.complete) return { texts, status: "failed", engines: [] };
  const tr = (text: string) => outcome.texts.get(text.trim().normalize("NFC")) ?? outcome.texts.get(text.trim()) ?? text;
  const translated: Cached = {
    texts: {
      name: tr(texts.name),
      description: texts.description
        .replace(/\r\n?/g, "\n")
        .split("\n")
        .map((line) => (line.trim() === "" ? line : tr(line)))
        .join("\n"),
      stopNames: texts.stopNames.map(tr),
    },
    status: outcome.reviewed ? "reviewed" : "machine",
    engines: outcome.engines,
  };
  deps.waitUntil(deps.kv.put(key, JSON.stringify(translated), { expirationTtl: CACHE_TTL_SECONDS }));
  return translated;
}
