// The whole import (decision 063): refuse early what can be refused early, then the archive's media into R2,
// then its rows in one D1 batch; a refusal at any step deletes the media already written.
import type { AuditActor } from "~/audit/log.server";
import type { Database } from "~/db/client.server";
import { visitorChanged } from "~/visitor-cache/snapshot.server";
import { deleteKeys, readArchive, writtenKeys } from "./import.server";
import { assertMuseumEmpty, parseArchiveData, restoreRows, type ImportReport } from "./restore.server";

export async function importMuseum(db: Database, bucket: R2Bucket, museumId: number, body: ReadableStream<Uint8Array>, actor: AuditActor, limit?: number): Promise<ImportReport> {
  const d1 = db.$client;
  // A museum with content is refused before a byte of the archive is read or stored.
  await assertMuseumEmpty(d1, museumId);
  const archive = await readArchive(body, bucket, museumId, limit);
  try {
    const rows = parseArchiveData(archive.data);
    const report = await restoreRows(d1, museumId, archive.manifest, rows, archive.mediaKeys, actor, archive.narrationKeys);
    // No address of this museum could have been kept (it had none), but QR links are global: mark it anyway.
    visitorChanged(db, museumId);
    return report;
  } catch (error) {
    await deleteKeys(bucket, writtenKeys(archive));
    throw error;
  }
}
