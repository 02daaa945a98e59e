import { z } from "zod";
import { VISIT_WINDOW_MS } from "~/queue/scan-stats.server";
import { OFFLINE_PASS_PATTERN } from "./pass";

// The batch of views a phone made offline (decision 088): pure rules, shared by the endpoint and tests.

const DAY_MS = 86_400_000;
/** Views older than this are refused, as the statistics consumer refuses events older than MAX_EVENT_AGE_DAYS (scan-stats). */
export const OFFLINE_VIEW_MAX_AGE_DAYS = 30;
/** A phone's clock ahead by more than this is refused. */
export const OFFLINE_VIEW_MAX_SKEW_MS = DAY_MS;
/** Views per batch: one queue `sendBatch` (100 messages at most). */
export const OFFLINE_VIEWS_MAX = 100;
/** Batches per client network and 15 minutes. */
export const OFFLINE_BATCHES_PER_WINDOW = 30;
/** Passes (saved copies that count views) given per client network and 15 minutes (decision 118). */
export const OFFLINE_PASSES_PER_WINDOW = 30;
/**
 * A saved copy counts each of its pages (a stop, or the tour page) once per visit window since it was saved:
 * the window the statistics count a visitor once in (VISIT_WINDOW_MS of the consumer, 30 minutes), anchored at
 * the server's time of the save, never at a time the batch claims (decision 118).
 */
export const OFFLINE_VISIT_WINDOW_MS = VISIT_WINDOW_MS;

const langTag = z
  .string()
  .min(2)
  .max(35)
  .regex(/^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/, "a BCP 47 language tag");

export const offlineViewsSchema = z
  .object({
    /** A random id the service worker made when it was installed; part of each view's identity. */
    client: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "16 to 64 letters, digits, - or _"),
    views: z
      .array(
        z
          .object({
            path: z.string().min(1).max(300),
            lang: langTag,
            at: z.number().int().nonnegative(),
            /** The saved copy's pass (./pass.ts); a view without one (an older service worker) is not counted. */
            pass: z.string().max(200).regex(OFFLINE_PASS_PATTERN, "the pass the tour's offline.json gave").optional(),
          })
          .strict(),
      )
      .min(1)
      .max(OFFLINE_VIEWS_MAX),
  })
  .strict();

export type OfflineViews = z.infer<typeof offlineViewsSchema>;

/** A saved tour's address: the tour page (position 0) or one of its stops. Null for anything else. */
export function tourAddress(path: string): { link: string; position: number } | null {
  const match = /^\/t\/([^/?#]+)(?:\/([1-9][0-9]{0,3}))?\/?$/.exec(path);
  if (!match) return null;
  let link: string;
  try {
    link = decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
  return { link, position: match[2] ? Number(match[2]) : 0 };
}

/** Why a view's time is refused, or null when it is plausible. */
export function refusedTime(at: number, now: number): string | null {
  if (at < now - OFFLINE_VIEW_MAX_AGE_DAYS * DAY_MS) return `older than ${OFFLINE_VIEW_MAX_AGE_DAYS} days`;
  if (at > now + OFFLINE_VIEW_MAX_SKEW_MS) return "in the future";
  return null;
}

/**
 * Where a view falls among a saved copy's visit windows, and its time as the statistics keep it: a copy
 * cannot have shown a page before it was saved nor after the batch arrived, so `at` is held between the
 * two (a phone clock a few minutes off stays honest), and the window counts from the save.
 */
export function copyWindow(at: number, savedAt: number, now: number): { at: number; window: number } {
  const held = Math.min(Math.max(at, savedAt), Math.max(savedAt, now));
  return { at: held, window: Math.floor((held - savedAt) / OFFLINE_VISIT_WINDOW_MS) };
}

/**
 * The queue event id of one page of a saved copy in one visit window: the same copy, page and window always
 * give the same id, whatever the client id, User-Agent, language or exact time a batch claims, so the
 * consumer (which ignores an event id it has already seen) counts it once. Formatted as a UUID (version 8).
 */
export async function offlineViewId(copy: string, position: number, window: number): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(["offline-view/v2", copy, position, window]))));
  const hex = [...digest.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, "0"));
  hex[6] = `8${hex[6]![1]}`;
  hex[8] = ((parseInt(hex[8]!, 16) & 0x3f) | 0x80).toString(16);
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
