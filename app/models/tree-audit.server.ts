// The audit entries of changes to the tree and to drafts (decision 124), as statements for the same D1 batch
// as the change: a change and its entry are written together or not at all. Those that read a name from the
// row (the new article's numbered name, the name before a rename) run in SQL over that row.
import type { AuditActor } from "~/audit/log.server";
import { conditionalAudit } from "~/teams/audit-sql.server";
import { liveArticleSql } from "./live-article.server";

const who = (actor: AuditActor) => ({ actorId: actor.id, actorEmail: actor.email });

/** After the numbered insert: "created the article «New article 3»" (its name is made by that statement). */
export function articleCreatedAudit(d1: D1Database, museumId: number, actor: AuditActor, path: readonly string[], at: number) {
  return conditionalAudit(
    d1,
    {
      museumId,
      ...who(actor),
      action: "article.create",
      target: { sql: "'article:' || id" },
      detail: { sql: "json_object('name', unformatted_name, 'path', json(?))", binds: [JSON.stringify(path)] },
      at,
    },
    "articles",
    "id = last_insert_rowid() AND museum_id = ? AND changes() > 0",
    [museumId],
  );
}

/** Before the rename, over the same live row: the name it had and the one it gets. */
export function articleRenamedAudit(d1: D1Database, museumId: number, actor: AuditActor, articleId: number, newName: string, at: number) {
  return conditionalAudit(
    d1,
    {
      museumId,
      ...who(actor),
      action: "article.rename",
      target: `article:${articleId}`,
      detail: { sql: "json_object('name', ?, 'from', unformatted_name)", binds: [newName] },
      at,
    },
    "articles",
    `id = ? AND museum_id = ? AND ${liveArticleSql("articles", museumId)} AND unformatted_name IS NOT ?`,
    [articleId, museumId, newName],
  );
}

/** After a draft save (the `UPDATE … RETURNING` just before): the article's name and its new version. */
export function articleSavedAudit(d1: D1Database, museumId: number, actor: AuditActor, articleId: number, at: number) {
  return conditionalAudit(
    d1,
    {
      museumId,
      ...who(actor),
      action: "article.save",
      target: `article:${articleId}`,
      detail: { sql: "json_object('name', unformatted_name, 'version', version)" },
      at,
    },
    "articles",
    "id = ? AND museum_id = ? AND changes() > 0",
    [articleId, museumId],
  );
}
