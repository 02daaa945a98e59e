// Writing a planned import: ONE D1 batch (one transaction) holds the new folders, the new and updated
// articles, their pictures' media rows and the audit entry, so a failure anywhere leaves nothing behind
// (decision 056). A parallel import or an editor's save in between makes the batch fail on the unique
// indexes or the version guard; the plan is then made again against what is now stored.
import { auditD1, type AuditActor } from "~/audit/log.server";
import { chunks, IN_LIST_MAX } from "~/db/chunks";
import type { Database } from "~/db/client.server";
import { abortUnlessChanged, lostRace } from "~/db/guards";
import { conflict, isUniqueViolation } from "~/errors";
import { deleteObjects } from "~/models/media.server";
import type { FolderIndex } from "~/models/folder-index.server";
import type { ImageSet } from "./images.server";
import { PictureNoLongerShown, planImport, type ImportPlan, type RowReport } from "./plan.server";
import type { ColumnMapping } from "./columns";
import type { Sheet } from "./sheet";
import { liveArticleSql } from "~/models/live-article.server";

export interface ImportReport {
  rows: RowReport[];
  created: number;
  updated: number;
  skipped: number;
  failed: number;
}

export function reportOf(plan: ImportPlan): ImportReport {
  const rows = plan.rows.map((r) => r.report);
  const count = (action: RowReport["action"]) => rows.filter((r) => r.action === action).length;
  return { rows, created: count("create"), updated: count("update"), skipped: count("skip"), failed: count("error") };
}

/** SQL for the id of the live folder at `path` (NULL for the root), pushing its parameters in text order. */
function folderSql(path: readonly string[], index: FolderIndex, museumId: number, args: unknown[]): string {
  if (path.length === 0) return "NULL";
  let parent: number | null = null;
  let known = true;
  for (const name of path) {
    const child = index.liveChild(parent, name);
    if (!child) {
      known = false;
      break;
    }
    parent = child.id;
  }
  if (known) {
    args.push(parent);
    return "?";
  }
  args.push(museumId);
  const parentSql = folderSql(path.slice(0, -1), index, museumId, args);
  args.push(path[path.length - 1]);
  return `(SELECT id FROM folders WHERE museum_id = ? AND deleted_at IS NULL AND coalesce(parent_id, 0) = coalesce(${parentSql}, 0) AND name = ?)`;
}

function statements(d1: D1Database, plan: ImportPlan, museumId: number, actor: AuditActor, images: ImageSet | null, detail: Record<string, string | number>) {
  const list: D1PreparedStatement[] = [];
  const now = Date.now();
  for (const path of plan.newFolders) {
    const args: unknown[] = [museumId];
    const parent = folderSql(path.slice(0, -1), plan.index, museumId, args);
    args.push(path[path.length - 1], now);
    list.push(d1.prepare(`INSERT INTO folders (museum_id, parent_id, name, created_at) VALUES (?, ${parent}, ?, ?)`).bind(...args));
  }
  const mediaDone = new Set<string>();
  for (const row of plan.rows) {
    const { report, fields, content } = row;
    if (report.action !== "create" && report.action !== "update") continue;
    const json = JSON.stringify(content);
    if (report.action === "create") {
      const args: unknown[] = [museumId];
      const folder = folderSql(fields.folderPath, plan.index, museumId, args);
      args.push(fields.slug, fields.name, json, now, actor.id);
      list.push(
        d1
          .prepare(
            `INSERT INTO articles (museum_id, folder_id, slug, unformatted_name, content, version, updated_at, updated_by)
             VALUES (?, ${folder}, ?, ?, ?, 1, ?, ?)`,
          )
          .bind(...args),
      );
    } else {
      const args: unknown[] = [json, fields.name];
      const folder = folderSql(fields.folderPath, plan.index, museumId, args);
      args.push(now, actor.id, row.existing!.id, museumId, row.existing!.version);
      list.push(
        d1
          .prepare(
            `UPDATE articles SET content = ?, unformatted_name = ?, folder_id = ${folder}, version = version + 1, updated_at = ?, updated_by = ?
             WHERE id = ? AND museum_id = ? AND version = ? AND ${liveArticleSql("articles", museumId)}`,
          )
          .bind(...args),
      );
      // Saved by someone else since the plan was read: the whole import is planned again.
      list.push(abortUnlessChanged(d1));
    }
    const key = row.newImageKey;
    const image = key && images ? images.find(fields.image) : null;
    if (key && image?.ok && !mediaDone.has(key)) {
      mediaDone.add(key);
      list.push(
        d1
          .prepare(
            `INSERT INTO media (museum_id, r2_key, kind, content_type, bytes, article_id, width, height)
             VALUES (?, ?, 'image', ?, ?, (SELECT id FROM articles WHERE museum_id = ? AND slug = ?), ?, ?)`,
          )
          .bind(museumId, key, image.image.type.contentType, image.image.bytes, museumId, fields.slug, image.image.width, image.image.height),
      );
    }
  }
  if (list.length > 0) list.push(auditD1(d1, { museumId, actor, action: "articles.import", detail }));
  return { list, mediaKeys: mediaDone };
}

async function idsBySlug(db: Database, museumId: number, slugs: string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const list of chunks(slugs, IN_LIST_MAX)) {
    const { results } = await db.$client
      .prepare(`SELECT id, slug FROM articles WHERE museum_id = ? AND slug IN (${list.map(() => "?").join(", ")})`)
      .bind(museumId, ...list)
      .all<{ id: number; slug: string }>();
    for (const row of results) ids.set(row.slug, row.id);
  }
  return ids;
}

const ATTEMPTS = 4;

/**
 * Plans and writes. Rows with errors refuse the whole import (`failed > 0`, nothing written): the person
 * fixes the file and sends it again. Pictures already stored in R2 that no written row uses are deleted.
 */
export async function applyImport(
  db: Database,
  bucket: R2Bucket,
  museumId: number,
  actor: AuditActor,
  input: { sheet: Sheet; mapping: ColumnMapping; images: ImageSet | null; fileName: string },
  shaCache = new Map<string, string | null>(),
): Promise<ImportReport> {
  const used = new Set<string>();
  try {
    for (let attempt = 1; ; attempt++) {
      let plan: ImportPlan;
      try {
        plan = await planImport(db, bucket, museumId, input.sheet, input.mapping, input.images, { dryRun: false, shaCache });
      } catch (error) {
        if (error instanceof PictureNoLongerShown)
          throw conflict("images", "An article's picture changed while the import was read; try again", "stale_version");
        throw error;
      }
      const report = reportOf(plan);
      if (report.failed > 0) return report;
      const detail = {
        created: report.created,
        updated: report.updated,
        skipped: report.skipped,
        folders: plan.newFolders.length,
        file: input.fileName.slice(0, 200),
      };
      const { list, mediaKeys } = statements(db.$client, plan, museumId, actor, input.images, detail);
      if (list.length === 0) return report;
      try {
        await db.$client.batch(list);
      } catch (error) {
        if ((isUniqueViolation(error) || lostRace(error)) && attempt < ATTEMPTS) continue;
        if (isUniqueViolation(error) || lostRace(error)) throw conflict("file", "The museum changed while the import was written; try again", "stale_version");
        throw error;
      }
      for (const key of mediaKeys) used.add(key);
      const ids = await idsBySlug(
        db,
        museumId,
        plan.rows.filter((r) => r.report.action === "create").map((r) => r.fields.slug),
      );
      for (const row of plan.rows) if (row.report.action === "create") row.report.articleId = ids.get(row.fields.slug);
      return report;
    }
  } finally {
    const unused = (input.images?.keys() ?? []).filter((key) => !used.has(key));
    if (unused.length > 0) await deleteObjects(bucket, unused);
  }
}
