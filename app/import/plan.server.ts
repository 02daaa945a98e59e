// The dry run: what each row of a sheet would do (create, update by address, skip when unchanged) and every
// problem by row and column. The apply (apply.server.ts) writes exactly this plan.
import { CONTENT_MAX_BYTES, contentByteSize, parseStoredContent, type ArticleContent } from "~/content/schema";
import { chunks, IN_LIST_MAX } from "~/db/chunks";
import type { Database } from "~/db/client.server";
import type { FolderIndex } from "~/models/folder-index.server";
import { loadFolderIndex } from "~/models/tree.server";
import type { ColumnMapping } from "./columns";
import { storedSha256, type ImageSet } from "./images.server";
import { baseName, zipName } from "./zip";
import { readRow, rowContent, type RowError, type RowFields } from "./row";
import type { Sheet } from "./sheet";
import { isLiveArticle } from "~/models/live-article.server";

/** An apply met an article whose picture changed while the import was read: the caller answers 409. */
export class PictureNoLongerShown extends Error {}

export type RowAction = "create" | "update" | "skip" | "error";

export interface RowReport {
  row: number;
  action: RowAction;
  articleId?: number;
  name: string;
  address: string;
  errors: RowError[];
}

export interface PlannedRow {
  report: RowReport;
  fields: RowFields;
  content: ArticleContent;
  existing: { id: number; version: number } | null;
  /** A picture this import stores (not one the article already shows). */
  newImageKey: string | null;
}

export interface ImportPlan {
  rows: PlannedRow[];
  /** Folder paths to create, parents first. */
  newFolders: string[][];
  index: FolderIndex;
}

interface ExistingArticle {
  id: number;
  slug: string;
  unformatted_name: string;
  folder_id: number | null;
  content: string;
  version: number;
  deleted_at: number | null;
}

async function existingArticles(db: Database, museumId: number, slugs: string[]): Promise<Map<string, ExistingArticle>> {
  const found = new Map<string, ExistingArticle>();
  for (const list of chunks(slugs, IN_LIST_MAX)) {
    const { results } = await db.$client
      .prepare(
        `SELECT id, slug, unformatted_name, folder_id, content, version, deleted_at FROM articles
         WHERE museum_id = ? AND slug IN (${list.map(() => "?").join(", ")})`,
      )
      .bind(museumId, ...list)
      .all<ExistingArticle>();
    for (const row of results) found.set(row.slug, row);
  }
  return found;
}

/** The live folder at `path`, or undefined when some of it does not exist yet. */
function existingFolder(index: FolderIndex, path: readonly string[]): number | null | undefined {
  let parent: number | null = null;
  for (const name of path) {
    const child = index.liveChild(parent, name);
    if (!child) return undefined;
    parent = child.id;
  }
  return parent;
}

/** The first picture an article shows (an image or a legend item's), as its R2 key, when it is this museum's. */
function shownImageKey(content: ArticleContent, museumId: number): { src: string; key: string } | null {
  for (const element of content) {
    if ((element.type === "image" || element.type === "legendItem") && element.src.startsWith(`/media/m/${museumId}/image/`)) {
      return { src: element.src, key: element.src.slice("/media/".length) };
    }
  }
  return null;
}

/**
 * Before an apply reads its pictures: which ZIP entries the articles they go to already show (same SHA-256),
 * so a re-import stores nothing in R2 only to delete it again. Conservative: an entry some row might name
 * (by path or by bare file name) for a new article, or an article showing other bytes, is stored.
 */
export async function picturesAlreadyShown(
  db: Database,
  bucket: R2Bucket,
  museumId: number,
  sheet: Sheet,
  mapping: ColumnMapping,
  shaCache: Map<string, string | null>,
): Promise<(entryName: string, sha256: string) => boolean> {
  if (mapping.image === undefined) return () => false;
  const read = sheet.rows.map((r) => readRow(r.cells, mapping).fields).filter((f) => f.image !== "" && f.slug !== "");
  const existing = await existingArticles(db, museumId, [...new Set(read.map((f) => f.slug))]);
  const byName = new Map<string, (string | null)[]>();
  for (const fields of read) {
    const current = existing.get(fields.slug);
    let sha: string | null = null;
    if (current && current.deleted_at === null) {
      const shown = shownImageKey(parseStoredContent(current.content, current.slug), museumId);
      if (shown) sha = await storedSha256(bucket, shown.key, shaCache);
    }
    const name = zipName(fields.image);
    byName.set(name, [...(byName.get(name) ?? []), sha]);
  }
  return (entryName, sha256) => {
    const path = zipName(entryName);
    let named = false;
    for (const [name, shas] of byName) {
      if (name !== path && baseName(name) !== baseName(path)) continue;
      named = true;
      if (shas.some((s) => s !== sha256)) return false;
    }
    return named;
  };
}

export async function planImport(
  db: Database,
  bucket: R2Bucket,
  museumId: number,
  sheet: Sheet,
  mapping: ColumnMapping,
  images: ImageSet | null,
  options: { dryRun: boolean; shaCache?: Map<string, string | null> } = { dryRun: true },
): Promise<ImportPlan> {
  const read = sheet.rows.map((r) => ({ row: r.row, ...readRow(r.cells, mapping) }));
  const slugs = [...new Set(read.map((r) => r.fields.slug).filter((s) => s !== ""))];
  const [index, existing] = await Promise.all([loadFolderIndex(db, museumId), existingArticles(db, museumId, slugs)]);
  const seen = new Set<string>();
  const newFolders = new Map<string, string[]>();
  const rows: PlannedRow[] = [];

  for (const { row, fields, errors } of read) {
    if (fields.slug !== "") {
      if (seen.has(fields.slug)) errors.push({ column: mapping.address === undefined ? "name" : "address", reason: "duplicate_address" });
      seen.add(fields.slug);
    }
    const current = existing.get(fields.slug);
    const currentIsLive = current && isLiveArticle({ deletedAt: current.deleted_at, folderId: current.folder_id }, index);
    if (current && !currentIsLive) errors.push({ column: mapping.address === undefined ? "name" : "address", reason: "address_in_trash" });

    const folderId = existingFolder(index, fields.folderPath);
    if (folderId === undefined && errors.every((e) => e.column !== "folder")) {
      for (let depth = 1; depth <= fields.folderPath.length; depth++) {
        const path = fields.folderPath.slice(0, depth);
        if (existingFolder(index, path) === undefined) newFolders.set(JSON.stringify(path), path);
      }
    }

    const stored = current && currentIsLive ? parseStoredContent(current.content, current.slug) : null;
    let imageSrc = "";
    let newImageKey: string | null = null;
    if (fields.image !== "") {
      const lookup = images ? images.find(fields.image) : ({ ok: false, reason: "image_missing" } as const);
      if (!lookup.ok) errors.push({ column: "image", reason: lookup.reason });
      else {
        const shown = stored ? shownImageKey(stored, museumId) : null;
        if (shown && (await storedSha256(bucket, shown.key, options.shaCache)) === lookup.image.sha256) imageSrc = shown.src;
        else if (!options.dryRun && lookup.image.key === null) {
          // Not stored because the article showed these bytes when the pictures were read; it changed since.
          throw new PictureNoLongerShown();
        } else {
          newImageKey = lookup.image.key;
          // A dry run stores nothing: the address the picture will get is not known yet.
          imageSrc = `/media/${lookup.image.key ?? `m/${museumId}/image/new.${lookup.image.type.ext}`}`;
        }
      }
    }

    const backgroundColor = stored?.[0]?.type === "metadatas" ? stored[0].backgroundColor : undefined;
    const content = errors.length === 0 ? rowContent(fields, imageSrc, backgroundColor) : [];
    if (errors.length === 0 && contentByteSize(content) > CONTENT_MAX_BYTES) errors.push({ column: "text", reason: "content_too_large" });

    let action: RowAction;
    if (errors.length > 0) action = "error";
    else if (!current || !stored) action = "create";
    else {
      const same =
        current.unformatted_name === fields.name &&
        folderId !== undefined &&
        current.folder_id === folderId &&
        JSON.stringify(stored) === JSON.stringify(content);
      action = same ? "skip" : "update";
    }
    rows.push({
      report: {
        row,
        action,
        ...(current && currentIsLive ? { articleId: current.id } : {}),
        name: fields.name,
        address: fields.slug,
        errors,
      },
      fields,
      content,
      existing: current && currentIsLive ? { id: current.id, version: current.version } : null,
      newImageKey: action === "create" || action === "update" ? newImageKey : null,
    });
  }
  const folders = [...newFolders.values()].sort((a, b) => a.length - b.length);
  return { rows, newFolders: folders, index };
}
