// The whole import (decision 063): refuse early what can be refused early, then the archive's media into R2,
// then its rows in one D1 batch; a refusal at any step deletes the media already written.
import type { AuditActor } from "~/audit/log.server";
import type { Database } from "~/db/client.server";
import { deleteKeys, readArchive, writtenKeys } from "./import.server";
import { DomainError, quote } from "~/errors";
import type { MediaReference } from "~/content/media-refs";
import { MEDIA_PREFIX } from "~/content/urls";
import { foreignReferences } from "~/models/media.server";
import { assertMuseumEmpty, parseArchiveData, restoreRows, unbroughtMedia, type ImportReport } from "./restore.server";

/**
 * 400 `foreign_media` (field `archive`) when content the archive brings no file for points at a file another
 * museum of this installation has (decision 114): imported, this museum's pages would show it. A reference to
 * such a file gone from R2 (an archive made after it vanished, on this installation) shows nothing and is kept,
 * counted in the report's `unresolvedMedia` as before; the editor refuses it at the next save, naming the field.
 */
async function refuseForeignFiles(db: Database, bucket: R2Bucket, museumId: number, kept: readonly MediaReference[]) {
  const checked = new Set<string>();
  for (const ref of await foreignReferences(db, museumId, kept)) {
    if (checked.has(ref.src)) continue;
    checked.add(ref.src);
    if (!(await bucket.head(ref.src.slice(MEDIA_PREFIX.length)))) continue;
    const where = ref.field.slice(0, ref.field.indexOf("."));
    throw new DomainError(
      "invalid_input",
      `The archive's ${where} refers to ${quote(ref.src, 120)}, a file of another museum on this installation`,
      "archive",
      "foreign_media",
    );
  }
}

export async function importMuseum(
  db: Database,
  directory: Database,
  bucket: R2Bucket,
  museumId: number,
  body: ReadableStream<Uint8Array>,
  actor: AuditActor,
  limit?: number,
): Promise<ImportReport> {
  const d1 = db.$client;
  // A museum with content is refused before a byte of the archive is read or stored.
  await assertMuseumEmpty(d1, museumId);
  const archive = await readArchive(body, bucket, museumId, limit);
  try {
    const rows = parseArchiveData(archive.data);
    // Addresses the archive does not bring a file for are kept as written: none may be another museum's here (decision 114).
    await refuseForeignFiles(db, bucket, museumId, unbroughtMedia(rows, archive.mediaKeys));
    const report = await restoreRows(d1, directory.$client, museumId, archive.manifest, rows, archive.mediaKeys, actor, archive.narrationKeys);
    // Its rows reach visitors through the visitor tables' triggers (decision 132), like any other write.
    return report;
  } catch (error) {
    await deleteKeys(bucket, writtenKeys(archive));
    throw error;
  }
}
