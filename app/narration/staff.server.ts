/**
 * Staff control of narrations (decision 092): list, upload a recording, remove, regenerate. Every write
 * goes in one D1 batch with its audit entry; R2 objects are written before and deleted after the rows.
 */
import { and, eq, isNull } from "drizzle-orm";
import { auditStatement, type AuditActor } from "~/audit/log.server";
import type { Database } from "~/db/client.server";
import { articles, narrationClaims, narrations } from "~/db/schema";
import { DomainError, invalidField, notFound } from "~/errors";
import { concatBytes } from "~/lib/bytes";
import { R2_PART_BYTES, type PartSource } from "~/models/media.server";
import { requireLiveArticle } from "~/models/live-article.server";
import { articleIdSchema } from "~/models/tree-input";
import { langSchema } from "~/models/translation-input";
import { AudioMeter } from "~/speech/audio-meter";
import { AUDIO_SNIFF_BYTES, sniffRecording } from "~/speech/audio-types";
import { speechFor } from "~/speech/engines";
import { narrationUrl, type NarrationDeps } from "./narrations.server";
import { deletePieces } from "./pieces.server";

/** The largest recording staff may upload. */
export const NARRATION_MAX_BYTES = 50 * 1024 * 1024;
/** Four hours: longer is surely a wrong number. */
const DURATION_MAX_MS = 4 * 60 * 60 * 1000;

export const narrationTooLarge = () => new DomainError("too_large", "Narration file is too large", "narration", "too_long");

export interface NarrationInfo {
  lang: string;
  kind: "recorded" | "generated";
  url: string;
  contentType: string;
  bytes: number;
  durationMs: number | null;
  engine: string | null;
  voice: string | null;
  updatedAt: number;
}

export interface NarrationState {
  narrations: NarrationInfo[];
  /** Generations under way or failed recently, per language. */
  pending: { lang: string; failure: string | null; until: number }[];
  /** Whether a configured engine speaks each asked language (or every narrated one). */
  speaks: Record<string, string | null>;
}

/** An article's narrations (all languages, or one), what is being generated, and which engine would speak. */
export async function listNarrations(
  deps: Pick<NarrationDeps, "db" | "engines">,
  museumId: number,
  articleId: number,
  lang: string | null,
  now = Date.now(),
): Promise<NarrationState> {
  const { db } = deps;
  await requireLiveArticle(db, museumId, articleId);
  const byLang = lang === null ? [] : [eq(narrations.lang, lang)];
  const [rows, claims] = await db.batch([
    db
      .select()
      .from(narrations)
      .where(and(eq(narrations.museumId, museumId), eq(narrations.articleId, articleId), ...byLang))
      .orderBy(narrations.lang),
    db
      .select()
      .from(narrationClaims)
      .where(and(eq(narrationClaims.museumId, museumId), eq(narrationClaims.articleId, articleId), ...(lang === null ? [] : [eq(narrationClaims.lang, lang)]))),
  ]);
  const langs = new Set<string>([...rows.map((r) => r.lang), ...(lang ? [lang] : [])]);
  const speaks: Record<string, string | null> = {};
  for (const l of langs) speaks[l] = speechFor(deps.engines, l)?.engine.id ?? null;
  return {
    narrations: rows.map((r) => ({
      lang: r.lang,
      kind: r.kind,
      url: narrationUrl(r.r2Key),
      contentType: r.contentType,
      bytes: r.bytes,
      durationMs: r.durationMs,
      engine: r.engine,
      voice: r.voice,
      updatedAt: r.updatedAt,
    })),
    pending: claims.filter((c) => c.expiresAt > now).map((c) => ({ lang: c.lang, failure: c.failure, until: c.expiresAt })),
    speaks,
  };
}

/** Removes an article's narration in a language (recorded or generated); 404 when there is none. */
export async function deleteNarration(db: Database, bucket: R2Bucket, museumId: number, articleId: number, lang: string, actor: AuditActor) {
  await requireLiveArticle(db, museumId, articleId);
  const where = and(eq(narrations.museumId, museumId), eq(narrations.articleId, articleId), eq(narrations.lang, lang));
  const existing = await db.query.narrations.findFirst({ columns: { r2Key: true }, where });
  if (!existing) throw notFound("Narration", "lang");
  // Deleted only if it is still the same file (a new upload meanwhile stays); the audit entry with it.
  const [deleted] = await db.batch([
    db
      .delete(narrations)
      .where(and(where, eq(narrations.r2Key, existing.r2Key)))
      .returning({ key: narrations.r2Key, kind: narrations.kind }),
    db.delete(narrationClaims).where(and(eq(narrationClaims.articleId, articleId), eq(narrationClaims.lang, lang), eq(narrationClaims.museumId, museumId))),
    auditStatement(db, { museumId, actor, action: "narration.delete", target: `article:${articleId}`, detail: { lang } }),
  ]);
  const row = deleted[0];
  if (!row) throw new DomainError("conflict", "The narration changed meanwhile: reload", "lang", "stale_version");
  await bucket.delete(row.key);
  await deletePieces(bucket, museumId, articleId, lang); // its paragraphs' audio too (decision 106)
  return { deleted: true, kind: row.kind };
}

/**
 * Staff ask for a new generated narration: the generated one (if any) is dropped with its claim, so the
 * next visitor's request, or the `schedule` call here, makes it again from the current text. A recording
 * is never replaced this way (409: remove it first).
 */
export async function regenerateNarration(db: Database, bucket: R2Bucket, museumId: number, articleId: number, lang: string, actor: AuditActor) {
  await requireLiveArticle(db, museumId, articleId);
  const existing = await db.query.narrations.findFirst({
    columns: { kind: true, r2Key: true },
    where: and(eq(narrations.museumId, museumId), eq(narrations.articleId, articleId), eq(narrations.lang, lang)),
  });
  if (existing?.kind === "recorded") throw new DomainError("conflict", "A recorded narration plays in this language: remove it first", "lang", "recorded");
  const [deleted] = await db.batch([
    db
      .delete(narrations)
      .where(and(eq(narrations.museumId, museumId), eq(narrations.articleId, articleId), eq(narrations.lang, lang), eq(narrations.kind, "generated")))
      .returning({ key: narrations.r2Key }),
    db.delete(narrationClaims).where(and(eq(narrationClaims.articleId, articleId), eq(narrationClaims.lang, lang), eq(narrationClaims.museumId, museumId))),
    auditStatement(db, { museumId, actor, action: "narration.regenerate", target: `article:${articleId}`, detail: { lang } }),
  ]);
  for (const row of deleted) await bucket.delete(row.key);
  // Asked again, it is read afresh: reusing the paragraphs' audio would give the same file (decision 106).
  await deletePieces(bucket, museumId, articleId, lang);
}

const FIELD_MAX = 64;
const durationSchema = (value: string) => {
  if (!/^\d{1,8}$/.test(value)) throw invalidField("durationMs", "invalid");
  const ms = Number(value);
  if (ms > DURATION_MAX_MS) throw invalidField("durationMs", "invalid");
  return ms;
};

interface StoredRecording {
  key: string;
  contentType: string;
  bytes: number;
  /** Read from the file as it streamed past (decision 119); null when the file does not say. */
  durationMs: number | null;
}

/** What the upload accepts, said in the refusal (decision 119). */
const ACCEPTED = "WebM (Opus), WAV, FLAC, MP3, AAC/M4A or Ogg (Opus or Vorbis)";

async function storeRecording(bucket: R2Bucket, parts: PartSource, museumId: number): Promise<StoredRecording> {
  let head: Uint8Array = new Uint8Array(0);
  let chunk: Uint8Array | null;
  while (head.length < AUDIO_SNIFF_BYTES && (chunk = await parts.readChunk())) head = concatBytes([head, chunk]);
  if (head.length === 0) throw invalidField("narration", "empty");
  const type = sniffRecording(head);
  if (!type) throw new DomainError("unsupported_media_type", `The narration must be ${ACCEPTED} audio`, "narration", "invalid");
  const meter = new AudioMeter(type.ext);
  meter.push(head);
  const key = `n/${museumId}/rec/${crypto.randomUUID()}.${type.ext}`;
  const httpMetadata = { contentType: type.contentType };
  let pending: Uint8Array[] = [head];
  let pendingBytes = head.length;
  let bytes = head.length;
  let upload: R2MultipartUpload | null = null;
  const uploaded: R2UploadedPart[] = [];
  try {
    if (bytes > NARRATION_MAX_BYTES) throw narrationTooLarge();
    for (chunk = await parts.readChunk(); chunk; chunk = await parts.readChunk()) {
      bytes += chunk.length;
      if (bytes > NARRATION_MAX_BYTES) throw narrationTooLarge();
      meter.push(chunk);
      pending.push(chunk);
      pendingBytes += chunk.length;
      while (pendingBytes >= R2_PART_BYTES) {
        const all = concatBytes(pending);
        upload ??= await bucket.createMultipartUpload(key, { httpMetadata });
        uploaded.push(await upload.uploadPart(uploaded.length + 1, all.slice(0, R2_PART_BYTES)));
        pending = [all.slice(R2_PART_BYTES)];
        pendingBytes = pending[0]!.length;
      }
    }
    if (!upload) await bucket.put(key, concatBytes(pending), { httpMetadata });
    else {
      if (pendingBytes > 0) uploaded.push(await upload.uploadPart(uploaded.length + 1, concatBytes(pending)));
      await upload.complete(uploaded);
    }
  } catch (error) {
    await upload?.abort().catch(() => {});
    throw error;
  }
  const measured = meter.end();
  // A header claiming more than a narration can last is not believed (a FLAC's sample count is written, not checked).
  if (measured.durationMs !== null && measured.durationMs > DURATION_MAX_MS) measured.durationMs = null;
  if (measured.notAudio) {
    await bucket.delete(key);
    throw new DomainError("unsupported_media_type", `The narration must be sound alone: ${measured.notAudio}`, "narration", "invalid");
  }
  return { key, contentType: type.contentType, bytes, durationMs: measured.durationMs };
}

/**
 * `narration` (the file), `articleId`, `lang` and optionally `durationMs` (used only when the file does
 * not say how long it lasts; the file's own length is read as it streams, decision 119), in any order. The language is checked with `mayNarrate` as soon as it arrives; anything
 * refused after the file was stored deletes it again. The recording replaces any narration of that
 * language (a generated one's file is deleted).
 */
export async function receiveNarrationUpload(
  db: Database,
  bucket: R2Bucket,
  museumId: number,
  parts: PartSource,
  actor: AuditActor,
  mayNarrate: (lang: string) => void,
) {
  const values: { articleId?: number; lang?: string; durationMs?: number } = {};
  let stored: StoredRecording | null = null;
  try {
    for (let part = await parts.nextPart(); part; part = await parts.nextPart()) {
      if (part.name === "narration") {
        if (stored) throw invalidField("narration", "too_many");
        if (part.filename === null) throw invalidField("narration", "wrong_type");
        stored = await storeRecording(bucket, parts, museumId);
        continue;
      }
      if (part.filename !== null || !["articleId", "lang", "durationMs"].includes(part.name)) {
        throw new DomainError("invalid_input", `Unexpected field ${JSON.stringify(part.name.slice(0, 40))}`, part.name.slice(0, 40), "invalid");
      }
      if (values[part.name as keyof typeof values] !== undefined) throw invalidField(part.name, "too_many");
      const text = await parts.readText(FIELD_MAX);
      if (text === null) throw invalidField(part.name, "too_long");
      if (part.name === "articleId") {
        const parsed = articleIdSchema.safeParse(text);
        if (!parsed.success) throw invalidField("articleId", "invalid");
        values.articleId = parsed.data;
        await requireLiveArticle(db, museumId, parsed.data);
      } else if (part.name === "lang") {
        const parsed = langSchema.safeParse(text);
        if (!parsed.success) throw invalidField("lang", "invalid");
        mayNarrate(parsed.data);
        values.lang = parsed.data;
      } else values.durationMs = durationSchema(text);
    }
    if (!stored) throw invalidField("narration", "required");
    if (values.articleId === undefined) throw invalidField("articleId", "required");
    if (values.lang === undefined) throw invalidField("lang", "required");
    const { articleId, lang } = values;
    const now = Date.now();
    const row = {
      museumId,
      articleId,
      lang,
      kind: "recorded" as const,
      r2Key: stored.key,
      contentType: stored.contentType,
      bytes: stored.bytes,
      // The file's own length wins; the browser's measure stands in only when the file does not say.
      durationMs: stored.durationMs ?? values.durationMs ?? null,
      textHash: null,
      engine: null,
      voice: null,
      updatedAt: now,
    };
    // The file this recording displaces is read in the same batch (one transaction) as the upsert: parallel
    // uploads each delete exactly the file they replaced, so none is left in R2 unreferenced.
    const [displaced] = await db.batch([
      db
        .select({ r2Key: narrations.r2Key })
        .from(narrations)
        .where(and(eq(narrations.museumId, museumId), eq(narrations.articleId, articleId), eq(narrations.lang, lang))),
      db
        .insert(narrations)
        .values({ ...row, createdAt: now })
        .onConflictDoUpdate({ target: [narrations.articleId, narrations.lang], set: row }),
      db.delete(narrationClaims).where(and(eq(narrationClaims.articleId, articleId), eq(narrationClaims.lang, lang))),
      auditStatement(db, { museumId, actor, action: "narration.upload", target: `article:${articleId}`, detail: { lang, bytes: stored.bytes } }),
    ]);
    const previous = displaced[0];
    if (previous && previous.r2Key !== stored.key) await bucket.delete(previous.r2Key);
    await deletePieces(bucket, museumId, articleId, lang); // a recording wins: generated pieces serve nothing (decision 106)
    return { url: narrationUrl(stored.key), lang, kind: "recorded" as const, contentType: stored.contentType, bytes: stored.bytes, durationMs: row.durationMs };
  } catch (error) {
    await parts.cancel();
    if (stored) await bucket.delete(stored.key);
    throw error;
  }
}

/** A narration, looked up by its R2 key: nothing else in the bucket is served under /narration/. */
export async function findNarration(db: Database, key: string) {
  // A trashed article's narration is not served, like its visitor page; restoring the article brings it back.
  return db
    .select({ r2Key: narrations.r2Key, contentType: narrations.contentType, bytes: narrations.bytes })
    .from(narrations)
    .innerJoin(articles, and(eq(articles.id, narrations.articleId), isNull(articles.deletedAt)))
    .where(eq(narrations.r2Key, key))
    .get();
}
