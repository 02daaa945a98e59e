import { z } from "zod";
import { langSchema } from "~/models/translation-input";

/**
 * The narrations queue's message (decision 104): which article, language, text and voice to generate.
 * It carries the text itself (what the visitor's page showed, hashed into `hash`), so the consumer reads
 * neither the article nor its translation again and generates exactly what was shown. Queue messages are
 * limited to 128 KB (https://developers.cloudflare.com/queues/platform/limits/), hence the limits below.
 */
export interface NarrationMessage {
  v: 1;
  museumId: number;
  articleId: number;
  lang: string;
  /** SHA-256 (hex) of the NFC text. */
  hash: string;
  voice: string;
  text: string;
}

/** The queue's name, as wrangler.toml declares it: the app Worker's `queue()` handler dispatches on it. */
export const NARRATION_QUEUE = "muselingo-narrations";

/**
 * The product limit: a text of more than 100,000 bytes of UTF-8 (about 100,000 characters in Latin script,
 * 33,000 in Chinese; well over an hour of speech) is not generated. Visitors keep the browser's read-aloud;
 * staff may upload a recording.
 */
export const NARRATION_TEXT_MAX_BYTES = 100_000;
/** The whole message, JSON-encoded, stays under this (the queue's 128 KB, with room for its envelope). */
export const NARRATION_MESSAGE_MAX_BYTES = 120_000;

const bytes = (text: string) => new TextEncoder().encode(text).length;

/** Whether a text can be generated at all (decision 104's limit). */
export const narratableLength = (text: string) => bytes(text) <= NARRATION_TEXT_MAX_BYTES;

/** The message for this generation, or null when its text is beyond the limit. */
export function narrationMessage(fields: Omit<NarrationMessage, "v">): NarrationMessage | null {
  if (!narratableLength(fields.text)) return null;
  const message: NarrationMessage = { v: 1, ...fields };
  return bytes(JSON.stringify(message)) <= NARRATION_MESSAGE_MAX_BYTES ? message : null;
}

const positiveId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** What the consumer accepts; anything else is dropped (acknowledged and logged, never retried). */
export const narrationMessageSchema = z
  .object({
    v: z.literal(1),
    museumId: positiveId,
    articleId: positiveId,
    lang: langSchema,
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    voice: z.string().min(1).max(100),
    text: z.string().min(1).refine(narratableLength, "too long"),
  })
  .strict();
