// `GET /api/read/export` (decision 062): the museum as one ZIP, streamed. The data files are read from D1 and
// written deflated; every media file is piped from R2 into the ZIP as stored bytes (already compressed), one
// chunk at a time with the response's backpressure, so a 2 GB video never sits in memory.
import { and, asc, eq } from "drizzle-orm";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { auditStatement, type AuditActor } from "~/audit/log.server";
import type { Database } from "~/db/client.server";
import * as t from "~/db/schema";
import { isoDay } from "~/lib/dates";
import { notFound } from "~/errors";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  CHECKSUMS_PATH,
  checksumLines,
  DATA_FILES,
  MANIFEST_PATH,
  MEDIA_DIR,
  NARRATION_DIR,
  OPTIONAL_DATA_FILES,
  SCHEMA_VERSION,
  type Manifest,
  type ManifestFile,
} from "./format";
import { sha256Bytes as sha256, sha256Stream } from "./hash";
import type { ArchivedDataTable } from "./tables";
import { statsCsv, type EasyReadRow, type MediaRow, type NarrationRow, type TourRow } from "./rows";

const parseJson = (text: string | null): unknown[] | null => (text === null ? null : (JSON.parse(text) as unknown[]));

/** Every data file's text, read from D1 now (a museum's rows are megabytes at most; the media are streamed). */
export async function readMuseumData(db: Database, museumId: number) {
  const museum = await db.query.museums.findFirst({ where: eq(t.museums.id, museumId) });
  if (!museum) throw notFound("Museum");
  const byMuseum = <T extends { museumId: unknown }>(table: T) => eq(table.museumId as never, museumId);
  // One reader per archived table (decision 135): the compiler refuses a table of ARCHIVE_TABLES without one.
  const read = {
    folders: () => db.select().from(t.folders).where(byMuseum(t.folders)).orderBy(asc(t.folders.id)),
    articles: () => db.select().from(t.articles).where(byMuseum(t.articles)).orderBy(asc(t.articles.id)),
    article_versions: () =>
      db.select().from(t.articleVersions).where(byMuseum(t.articleVersions)).orderBy(asc(t.articleVersions.articleId), asc(t.articleVersions.number)),
    qrcodes: () => db.select().from(t.qrcodes).where(byMuseum(t.qrcodes)).orderBy(asc(t.qrcodes.id)),
    glossary_terms: () => db.select().from(t.glossaryTerms).where(byMuseum(t.glossaryTerms)).orderBy(asc(t.glossaryTerms.id)),
    media: () => db.select().from(t.media).where(byMuseum(t.media)).orderBy(asc(t.media.id)),
    // The segment's source text beside each translation, as archives have always carried it (0014 stores it once).
    translation_memory: () =>
      db
        .select({
          sourceLang: t.translationMemory.sourceLang,
          targetLang: t.translationMemory.targetLang,
          sourceHash: t.translationMemory.sourceHash,
          sourceText: t.translationSegments.sourceText,
          text: t.translationMemory.text,
          origin: t.translationMemory.origin,
          engine: t.translationMemory.engine,
          updatedAt: t.translationMemory.updatedAt,
        })
        .from(t.translationMemory)
        .innerJoin(
          t.translationSegments,
          and(
            eq(t.translationSegments.museumId, t.translationMemory.museumId),
            eq(t.translationSegments.sourceLang, t.translationMemory.sourceLang),
            eq(t.translationSegments.sourceHash, t.translationMemory.sourceHash),
          ),
        )
        .where(byMuseum(t.translationMemory)),
    translation_reviews: () => db.select().from(t.translationReviews).where(byMuseum(t.translationReviews)),
    translation_reports: () => db.select().from(t.translationReports).where(byMuseum(t.translationReports)).orderBy(asc(t.translationReports.id)),
    daily_stats: () =>
      db.select().from(t.dailyStats).where(byMuseum(t.dailyStats)).orderBy(asc(t.dailyStats.day), asc(t.dailyStats.articleId), asc(t.dailyStats.lang)),
    tours: () => db.select().from(t.tours).where(byMuseum(t.tours)).orderBy(asc(t.tours.id)),
    tour_stops: () => db.select().from(t.tourStops).where(byMuseum(t.tourStops)).orderBy(asc(t.tourStops.tourId), asc(t.tourStops.position)),
    easy_read_versions: () => db.select().from(t.easyReadVersions).where(byMuseum(t.easyReadVersions)).orderBy(asc(t.easyReadVersions.articleId)),
    narrations: () => db.select().from(t.narrations).where(byMuseum(t.narrations)).orderBy(asc(t.narrations.articleId), asc(t.narrations.lang)),
  } satisfies Record<ArchivedDataTable, () => PromiseLike<unknown[]>>;
  const [folders, articles, versions, qrcodes, glossary, media, memory, reviews, reports, stats, tours, tourStops, easyRead, narrations] = await Promise.all([
    read.folders(),
    read.articles(),
    read.article_versions(),
    read.qrcodes(),
    read.glossary_terms(),
    read.media(),
    read.translation_memory(),
    read.translation_reviews(),
    read.translation_reports(),
    read.daily_stats(),
    read.tours(),
    read.tour_stops(),
    read.easy_read_versions(),
    read.narrations(),
  ]);
  const statRows = stats.map(({ museumId: _, day, ...row }) => ({ day: isoDay(day), ...row }));
  const mediaRows: MediaRow[] = media.map((m) => ({
    key: m.r2Key,
    kind: m.kind,
    contentType: m.contentType,
    bytes: m.bytes,
    articleId: m.articleId,
    width: m.width,
    height: m.height,
    createdAt: m.createdAt,
    originalName: m.originalName,
  }));
  const files: Record<keyof typeof DATA_FILES, unknown> = {
    folders: folders.map((f) => ({ id: f.id, parentId: f.parentId, name: f.name, createdAt: f.createdAt, deletedAt: f.deletedAt })),
    articles: articles.map((a) => ({
      id: a.id,
      folderId: a.folderId,
      slug: a.slug,
      name: a.unformattedName,
      content: parseJson(a.content),
      version: a.version,
      publishedContent: parseJson(a.publishedContent),
      publishedVersion: a.publishedVersion,
      publishedAt: a.publishedAt,
      publishAt: a.publishAt,
      createdAt: a.createdAt,
      updatedAt: a.updatedAt,
      deletedAt: a.deletedAt,
      stopNumber: a.stopNumber,
    })),
    articleVersions: versions.map((v) => ({
      articleId: v.articleId,
      number: v.number,
      name: v.name,
      content: parseJson(v.content),
      publishedAt: v.publishedAt,
      publishedByEmail: v.publishedByEmail,
      note: v.note,
    })),
    qrcodes: qrcodes.map((q) => ({ id: q.id, link: q.link, articleId: q.articleId, createdAt: q.createdAt })),
    glossary: glossary.map((g) => ({ term: g.term, targetLang: g.targetLang, translation: g.translation, createdAt: g.createdAt })),
    media: mediaRows,
    translationMemory: memory,
    translationReviews: reviews.map(({ museumId: _, ...row }) => row),
    translationReports: reports.map((r) => ({ articleId: r.articleId, lang: r.lang, message: r.message, createdAt: r.createdAt, resolvedAt: r.resolvedAt })),
    dailyStats: statRows,
  };
  const encoder = new TextEncoder();
  const data: { path: string; bytes: Uint8Array }[] = (Object.keys(DATA_FILES) as (keyof typeof DATA_FILES)[]).map((name) => ({
    path: DATA_FILES[name],
    bytes: encoder.encode(name === "dailyStats" ? statsCsv(statRows) : `${JSON.stringify(files[name], null, 1)}\n`),
  }));
  // Tours and their stops (issue 21), after the first archives' files.
  const tourRows: TourRow[] = tours.map((tour) => ({
    id: tour.id,
    link: tour.link,
    name: tour.name,
    description: tour.description,
    cover: tour.cover,
    minutes: tour.minutes,
    createdAt: tour.createdAt,
    updatedAt: tour.updatedAt,
    stops: tourStops.filter((stop) => stop.tourId === tour.id).map((stop) => stop.articleId),
  }));
  data.push({ path: OPTIONAL_DATA_FILES.tours, bytes: encoder.encode(`${JSON.stringify(tourRows, null, 1)}\n`) });
  // Easy-to-read versions and narrations (issue 22, decision 100). A version with neither a draft nor an
  // approved copy (its first generation was under way) carries nothing. Who edited or approved is left out.
  const easyReadRows: EasyReadRow[] = easyRead
    .filter((row) => row.content !== null || row.approvedContent !== null)
    .map((row) => ({
      articleId: row.articleId,
      content: parseJson(row.content),
      version: row.version,
      sourceHash: row.sourceHash,
      engine: row.engine,
      generatedAt: row.generatedAt,
      updatedAt: row.updatedAt,
      approvedContent: parseJson(row.approvedContent),
      approvedVersion: row.approvedVersion,
      approvedSourceHash: row.approvedSourceHash,
      approvedAt: row.approvedAt,
    }));
  const narrationRows: NarrationRow[] = narrations.map((n) => ({
    articleId: n.articleId,
    lang: n.lang,
    kind: n.kind,
    key: n.r2Key,
    contentType: n.contentType,
    bytes: n.bytes,
    durationMs: n.durationMs,
    textHash: n.textHash,
    engine: n.engine,
    voice: n.voice,
    createdAt: n.createdAt,
    updatedAt: n.updatedAt,
  }));
  data.push({ path: OPTIONAL_DATA_FILES.easyRead, bytes: encoder.encode(`${JSON.stringify(easyReadRows, null, 1)}\n`) });
  data.push({ path: OPTIONAL_DATA_FILES.narrations, bytes: encoder.encode(`${JSON.stringify(narrationRows, null, 1)}\n`) });
  const counts = {
    folders: folders.length,
    articles: articles.length,
    articleVersions: versions.length,
    qrcodes: qrcodes.length,
    glossary: glossary.length,
    media: media.length,
    translationMemory: memory.length,
    translationReviews: reviews.length,
    translationReports: reports.length,
    dailyStats: stats.length,
    tours: tours.length,
    easyRead: easyReadRows.length,
    narrations: narrationRows.length,
  };
  return { museum, data, media: mediaRows, narrations: narrationRows, counts };
}

/**
 * The archive as a stream: `manifest.json` first (what it is, the versions, every file with its size), the data
 * files, `media/<key>` for each file, and `checksums.sha256` last (the media's hashes are known only once read).
 * An R2 object that is missing is left out and named in the manifest's `missingMedia`. The audit entry is written
 * before the first byte leaves.
 */
export async function exportMuseum(db: Database, bucket: R2Bucket, museumId: number, actor: AuditActor, now = new Date()) {
  const { museum, data, media, narrations, counts } = await readMuseumData(db, museumId);
  // Every file to stream: the media, then the narrations' audio (recorded and generated: decision 100).
  const wanted = [
    ...media.map((row) => ({ key: row.key, path: `${MEDIA_DIR}${row.key}` })),
    ...narrations.map((row) => ({ key: row.key, path: `${NARRATION_DIR}${row.key}` })),
  ];
  const present: { key: string; path: string; size: number }[] = [];
  const missingMedia: string[] = [];
  // Sizes come from R2 (the manifest lists them before the files), ten look-ups at a time.
  for (let i = 0; i < wanted.length; i += 10) {
    const part = wanted.slice(i, i + 10);
    const heads = await Promise.all(part.map((file) => bucket.head(file.key)));
    part.forEach((file, j) => {
      const head = heads[j];
      if (head) present.push({ ...file, size: head.size });
      else missingMedia.push(file.key);
    });
  }
  const mediaCount = present.filter((f) => f.path.startsWith(MEDIA_DIR)).length;
  const narrationCount = present.filter((f) => f.path.startsWith(NARRATION_DIR)).length;
  const dataFiles: (ManifestFile & { content: Uint8Array; sha256: string })[] = [];
  for (const file of data) dataFiles.push({ path: file.path, bytes: file.bytes.length, content: file.bytes, sha256: await sha256(file.bytes) });
  const manifest: Manifest & { missingMedia: string[] } = {
    format: ARCHIVE_FORMAT,
    formatVersion: ARCHIVE_FORMAT_VERSION,
    schemaVersion: SCHEMA_VERSION,
    createdAt: now.toISOString(),
    museum: { name: museum.name, slug: museum.slug, sourceLang: museum.sourceLang, timezone: museum.timezone },
    counts: { ...counts, media: mediaCount, narrations: narrationCount },
    files: [...dataFiles.map(({ path, bytes, sha256 }) => ({ path, bytes, sha256 })), ...present.map(({ path, size }) => ({ path, bytes: size }))],
    missingMedia,
  };
  await auditStatement(db, {
    museumId,
    actor,
    action: "museum.export",
    detail: { articles: counts.articles, media: mediaCount, narrations: narrationCount, bytes: manifest.files.reduce((n, f) => n + f.bytes, 0) },
  });

  const mtime = now.getTime();
  // The archive is a ReadableStream fed by the zip's callback, not the writable side of a TransformStream: workerd
  // rejects a promise of its own, with no handler, when the readable side of a TransformStream that was written to
  // is cancelled (a client that stops the download), and reports it as an unhandled rejection (decision 129).
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let stopped = false;
  let stopReason: unknown;
  let room: (() => void) | undefined;
  const wake = () => {
    room?.();
    room = undefined;
  };
  const readable = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c;
      },
      pull: wake,
      cancel: (reason) => {
        stopped = true;
        stopReason = reason;
        wake();
      },
    },
    new CountQueuingStrategy({ highWaterMark: 4 }),
  );
  const fail = (error: unknown) => {
    if (stopped) return;
    stopped = true;
    controller.error(error);
  };
  /** Resolves once the reader has room for more (backpressure); rejects once the download was stopped. */
  const ready = async () => {
    while (!stopped && (controller.desiredSize ?? 0) <= 0) await new Promise<void>((resolve) => (room = resolve));
    if (stopped) throw stopReason instanceof Error ? stopReason : new Error("The export was stopped");
  };
  const zip = new Zip((error, chunk, final) => {
    if (error) return fail(error);
    if (stopped) return;
    controller.enqueue(chunk);
    if (final) {
      stopped = true;
      controller.close();
    }
  });
  const addWhole = async (path: string, content: Uint8Array) => {
    const entry = new ZipDeflate(path, { level: 6 });
    entry.mtime = mtime;
    zip.add(entry);
    entry.push(content, true);
    await ready();
  };

  const write = async () => {
    const hashes: { path: string; sha256: string }[] = [];
    const manifestBytes = new TextEncoder().encode(`${JSON.stringify(manifest, null, 1)}\n`);
    await addWhole(MANIFEST_PATH, manifestBytes);
    hashes.push({ path: MANIFEST_PATH, sha256: await sha256(manifestBytes) });
    for (const file of dataFiles) {
      await addWhole(file.path, file.content);
      hashes.push({ path: file.path, sha256: file.sha256 });
    }
    for (const { key, path, size } of present) {
      const object = await bucket.get(key);
      if (!object) throw new Error(`media ${key} vanished during the export`);
      const entry = new ZipPassThrough(path);
      entry.mtime = mtime;
      zip.add(entry);
      const digest = sha256Stream();
      const reader = object.body.getReader();
      let seen = 0;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += value.length;
        await digest.write(value);
        entry.push(value, false);
        await ready();
      }
      if (seen !== size) throw new Error(`media ${key} changed size during the export`);
      entry.push(new Uint8Array(0), true);
      hashes.push({ path, sha256: await digest.hex() });
      await ready();
    }
    await addWhole(CHECKSUMS_PATH, new TextEncoder().encode(checksumLines(hashes)));
    zip.end();
  };
  // A failure mid-way aborts the download: the client gets a cut ZIP that any reader (and our import) refuses.
  write().catch(fail);

  const bytes = manifest.files.reduce((n, f) => n + f.bytes, 0);
  return { body: readable, museumSlug: museum.slug, bytes };
}
