import { and, asc, eq, isNull } from "drizzle-orm";
import { claimNewLink } from "~/shards/directory.server";
import type { Database } from "~/db/client.server";
import { articles, qrcodes } from "~/db/schema";
import { isUniqueViolation, notFound } from "~/errors";
import { LINK_ALPHABET, LINK_LENGTH } from "./qrcode-input";
import { loadFolderIndex } from "./tree.server";
import { findLiveArticle, liveArticleSql, liveArticleWhere } from "./live-article.server";
import { auditWhenChanged, auditWhenChangedD1, type AuditActor } from "~/audit/log.server";

/** The spec's QR code: `id_article` and `name` are null while it leads nowhere (inactive). */
export interface QrCodeView {
  id: number;
  link: string;
  id_article: number | null;
  name: string | null;
}

/** A random short link; 31^8 ≈ 8.5 × 10^11 values, so a collision is rare and simply retried. */
export function randomLink(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(LINK_LENGTH * 2));
  let link = "";
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 31).
  for (const byte of bytes) {
    if (byte >= 248) continue;
    link += LINK_ALPHABET[byte % LINK_ALPHABET.length];
    if (link.length === LINK_LENGTH) return link;
  }
  return randomLink();
}

async function views(db: Database, museumId: number, qrcodeId?: number): Promise<QrCodeView[]> {
  const rows = await db
    .select({ id: qrcodes.id, link: qrcodes.link, articleId: articles.id, name: articles.unformattedName })
    .from(qrcodes)
    // An article in the trash, itself or through a folder, makes its code inactive until it comes back.
    .leftJoin(articles, and(eq(articles.id, qrcodes.articleId), eq(articles.museumId, qrcodes.museumId), liveArticleWhere(museumId)))
    .where(and(eq(qrcodes.museumId, museumId), qrcodeId === undefined ? undefined : eq(qrcodes.id, qrcodeId)))
    .orderBy(asc(qrcodes.id));
  return rows.map((row) => ({ id: row.id, link: row.link, id_article: row.articleId, name: row.articleId === null ? null : row.name }));
}

export const listQrCodes = (db: Database, museumId: number) => views(db, museumId);

export async function getQrCode(db: Database, museumId: number, qrcodeId: number): Promise<QrCodeView> {
  const [code] = await views(db, museumId, qrcodeId);
  if (!code) throw notFound("QR code", "qrcodeId");
  return code;
}

/** A new, inactive code. The unique index on `link` settles a collision, even between parallel calls. */
export async function addQrCode(db: Database, directory: Database, museumId: number, actor: AuditActor): Promise<QrCodeView> {
  for (let attempt = 1; ; attempt++) {
    try {
      // Unique across museums and shards: the directory's claim (decision 142).
      const link = await claimNewLink(directory.$client, museumId, "qrcode", randomLink);
      const [rows] = await db.batch([
        db.insert(qrcodes).values({ museumId, link }).returning({ id: qrcodes.id, link: qrcodes.link }),
        auditWhenChanged(db, { museumId, actor, action: "qrcode.create", target: "qrcode:", detail: { link } }, { insertedId: true }),
      ]);
      const row = rows[0];
      if (!row) throw new Error("qrcode insert returned no row");
      return { id: row.id, link: row.link, id_article: null, name: null };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

/**
 * Links the code to a live article of the same museum, or unlinks it (`articleId: null`). The write is
 * conditional on the article still being live, so a parallel delete cannot leave a link to the trash.
 */
export async function linkQrCode(
  db: Database,
  museumId: number,
  input: { qrcodeId: number; articleId: number | null },
  actor: AuditActor,
): Promise<QrCodeView> {
  let name: string | null = null;
  if (input.articleId !== null) {
    name = (await findLiveArticle(db, museumId, input.articleId)).unformattedName;
  }
  const previous = await db
    .select({ link: qrcodes.link, articleId: qrcodes.articleId })
    .from(qrcodes)
    .where(and(eq(qrcodes.id, input.qrcodeId), eq(qrcodes.museumId, museumId)))
    .get();
  // Linking a code to the article it already leads to (or unlinking an unlinked one) changes nothing worth an entry.
  const audit =
    previous === undefined || previous.articleId === input.articleId
      ? []
      : [
          auditWhenChangedD1(db.$client, {
            museumId,
            actor,
            action: input.articleId === null ? "qrcode.unlink" : "qrcode.relink",
            target: `qrcode:${input.qrcodeId}`,
            detail: { link: previous.link, articleId: input.articleId, name, previousArticleId: previous.articleId },
          }),
        ];
  const [result] = await db.$client.batch([
    db.$client
      .prepare(
        `UPDATE qrcodes SET article_id = ?1 WHERE id = ?2 AND museum_id = ?3
           AND (?1 IS NULL OR EXISTS (SELECT 1 FROM articles a WHERE a.id = ?1 AND a.museum_id = ?3 AND ${liveArticleSql("a", "?3")}))
         RETURNING id`,
      )
      .bind(input.articleId, input.qrcodeId, museumId),
    ...audit,
  ]);
  const updated = result?.results[0];
  if (!updated) {
    await getQrCode(db, museumId, input.qrcodeId); // 404 naming qrcodeId when the code is the missing one
    throw notFound("Article", "articleId");
  }
  return getQrCode(db, museumId, input.qrcodeId);
}

/** The address printed on the code: `PUBLIC_BASE_URL`, or the origin the request came in on. */
export function publicAddress(publicBaseUrl: string, request: Request, link: string): string {
  const base = (publicBaseUrl || new URL(request.url).origin).replace(/\/+$/, "");
  return `${base}/r/${link}`;
}

/**
 * The article a QR code leads to, or null when the code is inactive: no linked article, or an article
 * in the trash (itself or through a trashed folder). Restoring the article makes the code active again,
 * since nothing about the code itself changed.
 */
export async function activeArticleForLink(db: Database, link: string) {
  const row = await db
    .select({ museumId: qrcodes.museumId, articleId: articles.id, slug: articles.slug, folderId: articles.folderId })
    .from(qrcodes)
    .innerJoin(articles, and(eq(articles.id, qrcodes.articleId), eq(articles.museumId, qrcodes.museumId), isNull(articles.deletedAt)))
    .where(eq(qrcodes.link, link))
    .get();
  if (!row) return null;
  const index = await loadFolderIndex(db, row.museumId);
  return index.isLive(row.folderId) ? { museumId: row.museumId, articleId: row.articleId, slug: row.slug } : null;
}
