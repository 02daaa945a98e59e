/**
 * "A generation of this text and voice is under way, or failed recently" (decision 098), remembered per
 * article and language so that the visitor page, which decides from its snapshot alone, does not schedule
 * a background D1 claim attempt at every view while a narration is missing. Kept in this isolate's memory
 * and in KV (`narration:v1:tried:{museum}:{article}:{lang}`, a short TTL) for the other isolates. The D1
 * claim inside `generateOnce` stays the arbiter: this only spares it work, it never decides who generates.
 */
import { perIsolate } from "~/lib/per-isolate";

const PREFIX = "narration:v1:tried:";
/** KV's smallest expirationTtl (https://developers.cloudflare.com/kv/api/write-key-value-pairs/). */
const KV_MIN_TTL_SECONDS = 60;
/** Notes kept per isolate (oldest out first). */
const ISOLATE_ENTRIES = 500;

export interface TriedNote {
  hash: string;
  voice: string;
  /** Until when (ms) no new attempt is made for this text and voice. */
  until: number;
}

export interface TriedAt {
  museumId: number;
  articleId: number;
  lang: string;
}

export const triedKey = (at: TriedAt) => `${PREFIX}${at.museumId}:${at.articleId}:${at.lang}`;

// Per isolate (`perIsolate`), like the visitor snapshots: every bundled copy shares it.
const memory = perIsolate("narration.tried", () => new Map<string, TriedNote>());

function asNote(value: unknown): TriedNote | null {
  if (value === null || typeof value !== "object") return null;
  const note = value as Partial<TriedNote>;
  return typeof note.hash === "string" && typeof note.voice === "string" && typeof note.until === "number" && Number.isFinite(note.until)
    ? (note as TriedNote)
    : null;
}

const covers = (note: TriedNote | null | undefined, hash: string, voice: string, now: number) =>
  !!note && note.hash === hash && note.voice === voice && note.until > now;

function keep(key: string, note: TriedNote) {
  memory.delete(key);
  memory.set(key, note);
  if (memory.size > ISOLATE_ENTRIES) memory.delete(memory.keys().next().value!);
}

/** Whether this isolate's memory holds a note covering this text and voice (no await: see narrationForVisitor). */
export function triedHere(at: TriedAt, hash: string, voice: string, now: number): boolean {
  return covers(memory.get(triedKey(at)), hash, voice, now);
}

/** Whether another isolate's note in KV covers it (kept here when it does); KV trouble reads as "no". */
export async function triedElsewhere(kv: KVNamespace | undefined, at: TriedAt, hash: string, voice: string, now: number): Promise<boolean> {
  if (!kv) return false;
  const key = triedKey(at);
  const stored = asNote(await kv.get(key, "json").catch(() => null));
  if (!covers(stored, hash, voice, now)) return false;
  keep(key, stored!);
  return true;
}

/** Remembers an attempt in this isolate at once (synchronously, so parallel views here see it). */
export function noteTriedHere(at: TriedAt, note: TriedNote): void {
  keep(triedKey(at), note);
}

/** Forgets this isolate's note only (a message that could not be sent: the next view here sends again). */
export function forgetTriedHere(at: TriedAt): void {
  memory.delete(triedKey(at));
}

/** Remembers an attempt here and in KV, for other isolates (a refused KV write is only logged). */
export async function noteTried(kv: KVNamespace | undefined, at: TriedAt, note: TriedNote, now = Date.now()): Promise<void> {
  noteTriedHere(at, note);
  if (!kv) return;
  const ttl = Math.max(KV_MIN_TTL_SECONDS, Math.ceil((note.until - now) / 1000));
  await kv.put(triedKey(at), JSON.stringify(note), { expirationTtl: ttl }).catch((error: unknown) => console.warn(`narration note not kept: ${String(error)}`));
}

/** Staff changed the narration (upload, delete, regenerate): the next view decides afresh. */
export async function forgetTried(kv: KVNamespace | undefined, at: TriedAt): Promise<void> {
  memory.delete(triedKey(at));
  if (kv) await kv.delete(triedKey(at)).catch((error: unknown) => console.warn(`narration note not dropped: ${String(error)}`));
}
