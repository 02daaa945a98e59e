// What `/article/history?id=` shows (issue 18 §3): the versions, one version read-only, or a comparison of
// two sides, each a version number, the draft or the published content. Every unknown side is a 404.
import type { ArticleContent } from "~/content/schema";
import type { Database } from "~/db/client.server";
import { notFound } from "~/errors";
import { getMuseum } from "~/models/museums.server";
import { diffContents } from "./diff";
import { listArticleVersions, readArticleSides, readArticleVersion } from "./versions.server";
import { versionNumberSchema } from "./versions-input";

/** One side of a comparison: a version, the draft staff edit, or what visitors see. */
export type Side = number | "draft" | "published";

export function parseSide(raw: string | null): Side | null {
  if (raw === "draft" || raw === "published") return raw;
  const parsed = versionNumberSchema.safeParse(raw ?? undefined);
  return parsed.success ? parsed.data : null;
}

export interface HistoryQuery {
  view: string | null;
  from: string | null;
  to: string | null;
}

async function contentOf(db: Database, museumId: number, articleId: number, side: Side, field: string): Promise<ArticleContent> {
  if (typeof side === "number") return (await readArticleVersion(db, museumId, articleId, side)).content;
  const sides = await readArticleSides(db, museumId, articleId);
  const content = sides[side];
  if (!content) throw notFound("Published version", field);
  return content;
}

export async function loadHistoryPage(db: Database, museumId: number, articleId: number, query: HistoryQuery) {
  const [history, museum] = await Promise.all([listArticleVersions(db, museumId, articleId), getMuseum(db, museumId)]);
  let view = null;
  if (query.view !== null) {
    const number = parseSide(query.view);
    if (typeof number !== "number") throw notFound("Version", "view");
    const { content, ...version } = await readArticleVersion(db, museumId, articleId, number);
    view = { version, content };
  }
  let compare = null;
  if (query.from !== null || query.to !== null) {
    const from = parseSide(query.from);
    const to = parseSide(query.to);
    if (from === null) throw notFound("Version", "from");
    if (to === null) throw notFound("Version", "to");
    const [before, after] = await Promise.all([contentOf(db, museumId, articleId, from, "from"), contentOf(db, museumId, articleId, to, "to")]);
    compare = { from, to, diff: diffContents(before, after) };
  }
  return { history, timeZone: museum?.timezone ?? "UTC", view, compare };
}
