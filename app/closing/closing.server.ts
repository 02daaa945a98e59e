/**
 * Closing a museum (issue 33 §3, decision 148). An operator closes it: its visitor pages answer 410, its team's
 * sessions end and nobody signs in any more, and its archive (decision 062's ZIP) is written to R2 under
 * `archives/{id}/`, where its admins may download it for ARCHIVE_KEPT_DAYS. Then the daily cron purges it: its
 * files and archive in R2, its KV entries, its rows on its shard and in the directory. Until the purge an
 * operator may reopen it (it stays suspended until resumed).
 */
import { exportMuseum } from "~/archive/export.server";
import type { AuditActor } from "~/audit/log.server";
import { createDb, type Database } from "~/db/client.server";
import { abortUnlessChanged, lostRace } from "~/db/guards";
import { conflict, DomainError } from "~/errors";
import { isoDay } from "~/lib/dates";
import { ARCHIVE_KEPT_DAYS, DAY_MS } from "./archive-link.server";
import { auditOperator, type Operator } from "~/operator/accounts.server";
import { museumKvKey } from "~/shards/keys";
import { removeMuseum } from "~/shards/move";
import { renderedTranslationPrefix } from "~/translation/segments";
import { changedKey, publishVisitorChanges } from "~/visitor-cache/snapshot.server";

export { ARCHIVE_KEPT_DAYS, purgeTime } from "./archive-link.server";
/** R2's smallest multipart part (but the last): 5 MiB. The archive is written in parts of 8 MiB. */
const PART_BYTES = 8 * 1024 * 1024;

export interface ClosingEnv {
  directory: Database;
  shards: ReadonlyMap<number, D1Database>;
  kv: KVNamespace;
  media: R2Bucket;
}

export const archivePrefix = (museumId: number) => `archives/${museumId}/`;

/** Every prefix of R2 keys that names the museum (app/shards/media.server.ts routes them to its bucket). */
export const mediaPrefixes = (museumId: number) => [`m/${museumId}/`, `n/${museumId}/`, `imports/${museumId}/`, archivePrefix(museumId)];

async function directoryRow(env: ClosingEnv, museumId: number) {
  const row = await env.directory.$client
    .prepare("SELECT slug, shard, state FROM museums WHERE id = ?1")
    .bind(museumId)
    .first<{ slug: string; shard: number; state: string }>();
  const shard = row ? env.shards.get(row.shard) : undefined;
  if (!row || !shard) throw new DomainError("not_found", "No museum has this id", "id");
  return { ...row, d1: shard };
}

/** Streams `body` into R2 as one object, in parts (a stream of unknown length cannot be `put` whole). */
export async function putStream(bucket: R2Bucket, key: string, body: ReadableStream<Uint8Array>, contentType: string): Promise<number> {
  const upload = await bucket.createMultipartUpload(key, { httpMetadata: { contentType } });
  const parts: R2UploadedPart[] = [];
  let buffered: Uint8Array[] = [];
  let size = 0;
  let total = 0;
  const flush = async () => {
    const part = new Uint8Array(size);
    let at = 0;
    for (const chunk of buffered) {
      part.set(chunk, at);
      at += chunk.length;
    }
    parts.push(await upload.uploadPart(parts.length + 1, part));
    buffered = [];
    size = 0;
  };
  try {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered.push(value);
      size += value.length;
      total += value.length;
      if (size >= PART_BYTES) await flush();
    }
    if (size > 0 || parts.length === 0) await flush();
    await upload.complete(parts);
    return total;
  } catch (error) {
    await upload.abort().catch(() => undefined);
    throw error;
  }
}

export interface ClosedMuseum {
  museumId: number;
  closedAt: number;
  archiveKey: string;
  archiveBytes: number;
  purgeAfter: number;
}

/**
 * Closes the museum: `confirm` must be its slug (a 400 otherwise). On its shard `closed_at` is set (and
 * `suspended_at` if it was not), its members' sessions end, in one transaction; a second close is a 409. Then its
 * archive is written to R2; if that fails, the museum is as it was (open, or suspended as before) and the call 503s.
 */
export async function closeMuseum(env: ClosingEnv, operator: Operator, museumId: number, confirm: unknown, now = Date.now()): Promise<ClosedMuseum> {
  const row = await directoryRow(env, museumId);
  if (typeof confirm !== "string" || confirm.trim() !== row.slug)
    throw new DomainError("invalid_input", "confirm must be the museum's address name (its slug), typed to confirm", "confirm");
  if (row.state !== "active") throw conflict("museum", "This museum is being moved: try again when the move is over", "museum_moving");
  // Writes through the handle that notes what they change in visitor tables, so the publish below finds them.
  const db = createDb(row.d1);
  const d1 = db.$client;
  const before = await d1.prepare("SELECT suspended_at AS suspendedAt FROM museums WHERE id = ?1").bind(museumId).first<{ suspendedAt: number | null }>();
  try {
    await d1.batch([
      d1.prepare("UPDATE museums SET closed_at = ?2, suspended_at = coalesce(suspended_at, ?2) WHERE id = ?1 AND closed_at IS NULL").bind(museumId, now),
      abortUnlessChanged(d1),
      d1.prepare("DELETE FROM sessions WHERE user_id IN (SELECT id FROM users WHERE museum_id = ?1)").bind(museumId),
    ]);
  } catch (error) {
    if (!lostRace(error)) throw error;
    throw conflict("museum", "This museum is already closed", "museum_closed");
  }
  await publishVisitorChanges(db, env.kv);
  const actor: AuditActor = { id: null, email: operator.email };
  const archiveKey = `${archivePrefix(museumId)}muselingo-${row.slug}-${isoDay(Math.floor(now / DAY_MS))}.zip`;
  let archiveBytes: number;
  try {
    const archive = await exportMuseum(db, env.media, museumId, actor, new Date(now));
    archiveBytes = await putStream(env.media, archiveKey, archive.body, "application/zip");
  } catch (error) {
    console.error(`museum ${museumId}: archive not written, close undone: ${error instanceof Error ? error.message : String(error)}`);
    await d1
      .prepare("UPDATE museums SET closed_at = NULL, suspended_at = ?2 WHERE id = ?1 AND closed_at = ?3")
      .bind(museumId, before?.suspendedAt ?? null, now)
      .run();
    await publishVisitorChanges(db, env.kv);
    throw new DomainError("unavailable", "The museum's archive could not be written: nothing was closed, try again", "id", "engine_failed");
  }
  const purgeAfter = now + ARCHIVE_KEPT_DAYS * DAY_MS;
  await auditOperator(env.directory, operator, "museum.close", museumId, { archive: archiveKey, bytes: archiveBytes, purgeAfter }, now);
  return { museumId, closedAt: now, archiveKey, archiveBytes, purgeAfter };
}

/** Undoes a close before the purge: the museum stays suspended (an operator resumes it); its archive is removed. */
export async function reopenMuseum(env: ClosingEnv, operator: Operator, museumId: number, now = Date.now()): Promise<void> {
  const row = await directoryRow(env, museumId);
  const db = createDb(row.d1);
  const d1 = db.$client;
  try {
    await d1.batch([d1.prepare("UPDATE museums SET closed_at = NULL WHERE id = ?1 AND closed_at IS NOT NULL").bind(museumId), abortUnlessChanged(d1)]);
  } catch (error) {
    if (!lostRace(error)) throw error;
    throw conflict("museum", "This museum is not closed", "invalid");
  }
  await publishVisitorChanges(db, env.kv);
  await deletePrefix(env.media, archivePrefix(museumId));
  await auditOperator(env.directory, operator, "museum.reopen", museumId, {}, now);
}

/** The closed museum's archive in R2, newest first, or null. */
export async function closedArchive(media: R2Bucket, museumId: number): Promise<{ key: string; size: number; uploaded: number } | null> {
  const listed = await media.list({ prefix: archivePrefix(museumId) });
  const newest = [...listed.objects].sort((a, b) => b.uploaded.getTime() - a.uploaded.getTime())[0];
  return newest ? { key: newest.key, size: newest.size, uploaded: newest.uploaded.getTime() } : null;
}

/** The closed museum's archive as a download, or null when there is none (reopened, purged). */
export async function archiveDownload(media: R2Bucket, museumId: number): Promise<{ key: string; response: Response } | null> {
  const found = await closedArchive(media, museumId);
  const object = found ? await media.get(found.key) : null;
  if (!found || !object) return null;
  const response = new Response(object.body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(object.size),
      "Content-Disposition": `attachment; filename="${found.key.slice(found.key.lastIndexOf("/") + 1)}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
  return { key: found.key, response };
}

/** A plain 404 for a download that is not there (no page: the link came from elsewhere). */
export const noDownload = () =>
  new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

async function deletePrefix(media: R2Bucket, prefix: string): Promise<number> {
  let removed = 0;
  for (;;) {
    const listed = await media.list({ prefix, limit: 1000 });
    const keys = listed.objects.map((o) => o.key);
    if (keys.length > 0) await media.delete(keys);
    removed += keys.length;
    if (!listed.truncated) return removed;
  }
}

async function deleteKvPrefix(kv: KVNamespace, prefix: string, keep?: (metadata: unknown) => boolean): Promise<number> {
  let removed = 0;
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<unknown> = await kv.list({ prefix, cursor, limit: 1000 });
    const keys = page.keys.filter((key) => !keep || !keep(key.metadata)).map((key) => key.name);
    for (const name of keys) await kv.delete(name);
    removed += keys.length;
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return removed;
}

/**
 * Everything of a closed museum, gone: its R2 files (media, narrations, staged imports, the archive), its KV entries
 * (translations of its articles, tours and subtitles, narration notes, visitor snapshots and stamp, the directory's
 * copies), its rows on its shard, then its directory row (its accounts and links with it). Rows last: a purge that
 * stops half-way is taken up by the next day's cron.
 */
export async function purgeMuseum(env: ClosingEnv, museumId: number, shard: D1Database, now = Date.now()) {
  const [articles, tours, links] = await Promise.all([
    shard.prepare("SELECT id FROM articles WHERE museum_id = ?1").bind(museumId).all<{ id: number }>(),
    shard.prepare("SELECT id FROM tours WHERE museum_id = ?1").bind(museumId).all<{ id: number }>(),
    env.directory.$client.prepare("SELECT link FROM links WHERE museum_id = ?1").bind(museumId).all<{ link: string }>(),
  ]);
  let files = 0;
  for (const prefix of mediaPrefixes(museumId)) files += await deletePrefix(env.media, prefix);
  // The rows, through the handle that notes their visitor tables' changes: published, this isolate forgets the
  // museum's snapshots (other isolates hold at most its "no longer available" page, from before).
  const db = createDb(shard);
  const rows = await removeMuseum(db.$client, museumId);
  await publishVisitorChanges(db, env.kv);
  let kvEntries = 0;
  for (const prefix of [
    ...articles.results.map((a) => renderedTranslationPrefix(a.id)),
    ...tours.results.map((t) => `tour:v1:${t.id}:`),
    `vtt:v1:m/${museumId}/`,
    `narration:v1:tried:${museumId}:`,
  ])
    kvEntries += await deleteKvPrefix(env.kv, prefix);
  // Visitor snapshots name their museum in their metadata (those written before it expire within a day).
  kvEntries += await deleteKvPrefix(env.kv, "visitor:v1:at:", (metadata) => (metadata as { m?: unknown } | null)?.m !== museumId);
  for (const key of [changedKey(museumId), museumKvKey(museumId), ...links.results.map((l) => `dir:v1:link:${l.link}`)]) {
    await env.kv.delete(key);
    kvEntries++;
  }
  // The shard's own note that the museum changed (written by the triggers as its rows went).
  await shard.prepare("DELETE FROM visitor_changes WHERE museum_id = ?1").bind(museumId).run();
  await env.directory.$client.batch([
    env.directory.$client.prepare("DELETE FROM accounts WHERE museum_id = ?1").bind(museumId),
    env.directory.$client.prepare("DELETE FROM links WHERE museum_id = ?1").bind(museumId),
    env.directory.$client.prepare("DELETE FROM museums WHERE id = ?1").bind(museumId),
  ]);
  return { museumId, files, kvEntries, rows, at: now };
}

/** The daily cron's part: every museum of this shard closed more than ARCHIVE_KEPT_DAYS ago is purged. */
export async function purgeClosedMuseums(env: ClosingEnv, shard: D1Database, now = Date.now()) {
  const { results } = await shard
    .prepare("SELECT id FROM museums WHERE closed_at IS NOT NULL AND closed_at <= ?1")
    .bind(now - ARCHIVE_KEPT_DAYS * DAY_MS)
    .all<{ id: number }>();
  const purged = [];
  for (const { id } of results) {
    const done = await purgeMuseum(env, id, shard, now);
    await auditOperator(env.directory, { id: null, email: "(daily purge)" }, "museum.purge", id, done, now);
    purged.push(done);
  }
  return purged;
}
