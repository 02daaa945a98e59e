import { z } from "zod";

// The batch of views a phone made offline (decision 088): pure rules, shared by the endpoint and tests.

const DAY_MS = 86_400_000;
/** Views older than this are refused: the statistics' de-duplication keeps raw events 35 days (scan-stats). */
export const OFFLINE_VIEW_MAX_AGE_DAYS = 30;
/** A phone's clock ahead by more than this is refused. */
export const OFFLINE_VIEW_MAX_SKEW_MS = DAY_MS;
/** Views per batch: one queue `sendBatch` (100 messages at most). */
export const OFFLINE_VIEWS_MAX = 100;
/** Batches per client network and 15 minutes. */
export const OFFLINE_BATCHES_PER_WINDOW = 30;

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
 * The queue event id of one offline view: the same client, address, language and time always give the same
 * id, so a batch sent twice (a lost answer, 50 tabs at once) is counted once by the consumer, which ignores
 * an event id it has already seen. Formatted as a UUID (version 8, "custom").
 */
export async function offlineViewId(client: string, view: { path: string; lang: string; at: number }): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(["offline-view/v1", client, view.path, view.lang, view.at]))));
  const hex = [...digest.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, "0"));
  hex[6] = `8${hex[6]![1]}`;
  hex[8] = ((parseInt(hex[8]!, 16) & 0x3f) | 0x80).toString(16);
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
