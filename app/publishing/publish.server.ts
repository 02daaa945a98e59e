// Drafts and publishing (issue 18, decision 041). `articles.content`/`version` are the draft staff save;
// visitors read `published_content`. Publishing copies the draft over it, adds a row to the article's
// history (`article_versions`) and an audit entry, all in one D1 batch (one transaction) guarded by the
// draft version, so of two editors publishing at once exactly one wins and the other gets 409.
import { abortUnlessChanged, lostRace } from "~/db/guards";
import { eq, sql, type SQL } from "drizzle-orm";
import { auditStatement, type AuditActor } from "~/audit/log.server";
import type { Database } from "~/db/client.server";
import { museums, users } from "~/db/schema";
import { conflict, DomainError, invalidField, isUniqueViolation } from "~/errors";
import { findLiveArticle, liveArticleSql, liveArticleWhere, type ArticleRow as LiveArticleRow } from "~/models/live-article.server";
import type { DiscardDraftInput, PublishArticleInput } from "./publishing-input";
import { parsePublicationTime } from "~/lib/zoned-time";

/** How far ahead a publication may be scheduled. */
export const SCHEDULE_MAX_AHEAD_MS = 366 * 24 * 60 * 60 * 1000;

export type PublicationStatus = "published" | "draft" | "never_published";

/** Who acts: the signed-in member (a scheduled publication acts as the member who scheduled it). */
export interface Publisher {
  id: number;
  email: string;
  museumId: number;
}

type ArticleRow = LiveArticleRow;

/** The article's publication state, as the API and the editor show it. */
export interface Publication {
  status: PublicationStatus;
  /** The draft's version (the editor's `version`). */
  version: number;
  /** The draft version published last; null when never published. */
  publishedVersion: number | null;
  publishedAt: number | null;
  /** A scheduled publication (epoch ms) and who scheduled it; null when none. */
  publishAt: number | null;
  publishAtBy: { id: number; email: string } | null;
}

export function statusOf(row: Pick<ArticleRow, "publishedContent" | "publishedVersion" | "version">): PublicationStatus {
  if (row.publishedContent === null) return "never_published";
  return row.publishedVersion === row.version ? "published" : "draft";
}

async function emailOf(db: Database, userId: number | null): Promise<string> {
  if (userId === null) return "";
  const row = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).get();
  return row?.email ?? "";
}

export async function publicationOf(db: Database, row: ArticleRow): Promise<Publication> {
  return {
    status: statusOf(row),
    version: row.version,
    publishedVersion: row.publishedVersion,
    publishedAt: row.publishedAt,
    publishAt: row.publishAt,
    publishAtBy: row.publishAt === null || row.publishAtBy === null ? null : { id: row.publishAtBy, email: await emailOf(db, row.publishAtBy) },
  };
}

/** The live article of the museum (decision 134), or 404 on `field`. */
const liveArticle = (db: Database, museumId: number, articleId: number, field = "id"): Promise<ArticleRow> => findLiveArticle(db, museumId, articleId, field);

/**
 * A D1 statement from a drizzle SQL template or query builder: the batch goes straight to D1, because
 * drizzle's batch cannot bind raw SQL with parameters (drizzle-orm 0.45 `SQLiteRaw` has no `stmt`).
 */
function statement(db: Database, query: SQL | { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const built = "toSQL" in query ? query.toSQL() : db.run(query).getQuery();
  return db.$client.prepare(built.sql).bind(...built.params);
}

const stale = (version: number) => conflict("version", `The article was saved elsewhere meanwhile (now version ${version})`, "stale_version");
const noChanges = () => conflict("id", "Nothing to publish: the draft is already published", "no_changes");

/** The statements that publish the article's current draft (guarded by `where`) and record it. */
function publishStatements(
  db: Database,
  articleId: number,
  museumId: number,
  now: number,
  guard: ReturnType<typeof sql>,
  by: AuditActor,
  note: string,
  detail: Record<string, string | number | boolean | null>,
) {
  return [
    statement(
      db,
      sql`UPDATE articles SET published_content = content, published_version = version, published_at = ${now}, publish_at = NULL, publish_at_by = NULL
      WHERE id = ${articleId} AND museum_id = ${museumId} AND ${liveArticleWhere(museumId)}
        AND (published_version IS NULL OR published_version <> version) AND ${guard}`,
    ),
    abortUnlessChanged(db.$client),
    statement(
      db,
      sql`INSERT INTO article_versions (article_id, museum_id, number, content, name, published_at, published_by, published_by_email, note)
      SELECT id, museum_id, (SELECT coalesce(max(number), 0) + 1 FROM article_versions WHERE article_id = ${articleId}), content, unformatted_name, ${now}, ${by.id}, ${by.email}, ${note}
      FROM articles WHERE id = ${articleId} AND museum_id = ${museumId}`,
    ),
    statement(db, auditStatement(db, { museumId, actor: by, action: "article.publish", target: `article:${articleId}`, detail, at: now })),
    statement(
      db,
      sql`SELECT (SELECT max(number) FROM article_versions WHERE article_id = ${articleId}) AS number, version FROM articles WHERE id = ${articleId}`,
    ),
  ];
}

/**
 * `POST /api/manage/publish_article {id, version, at?, note?}`: without `at`, publishes the saved draft now;
 * with a time, schedules it (the draft as it is then is published); with `at: null`, cancels the schedule.
 */
export async function publishArticle(db: Database, user: Publisher, input: PublishArticleInput, now = Date.now()) {
  if (input.at === null) return unschedule(db, user, input, now);
  if (input.at !== undefined) return schedule(db, user, { ...input, at: input.at }, now);
  const row = await liveArticle(db, user.museumId, input.id);
  if (row.version !== input.version) throw stale(row.version);
  if (row.publishedContent !== null && row.publishedVersion === row.version) throw noChanges();
  const actor = { id: user.id, email: user.email };
  const note = input.note ?? "";
  let results;
  try {
    results = await db.$client.batch(
      publishStatements(db, input.id, user.museumId, now, sql`version = ${input.version}`, actor, note, {
        name: row.unformattedName,
        version: input.version,
        note: note || null,
      }),
    );
  } catch (error) {
    if (!lostRace(error)) throw error;
    const still = await liveArticle(db, user.museumId, input.id);
    if (still.version !== input.version) throw stale(still.version);
    throw noChanges();
  }
  const numbers = (results[4] as D1Result<{ number: number; version: number }> | undefined)?.results[0];
  return {
    id: input.id,
    versionNumber: numbers?.number ?? null,
    ...(await publicationOf(db, await liveArticle(db, user.museumId, input.id))),
  };
}

async function museumTimeZone(db: Database, museumId: number): Promise<string> {
  const row = await db.select({ timezone: museums.timezone }).from(museums).where(eq(museums.id, museumId)).get();
  return row?.timezone ?? "UTC";
}

async function schedule(db: Database, user: Publisher, input: PublishArticleInput & { at: string }, now: number) {
  const row = await liveArticle(db, user.museumId, input.id);
  const timeZone = await museumTimeZone(db, user.museumId);
  const at = parsePublicationTime(input.at, timeZone);
  if (at === null) throw invalidField("at", "invalid");
  if (at <= now) throw invalidField("at", "in_the_past");
  if (at > now + SCHEDULE_MAX_AHEAD_MS) throw new DomainError("invalid_input", "at is more than a year ahead", "at", "out_of_range");
  if (row.version !== input.version) throw stale(row.version);
  try {
    await db.$client.batch([
      statement(
        db,
        sql`UPDATE articles SET publish_at = ${at}, publish_at_by = ${user.id}
        WHERE id = ${input.id} AND museum_id = ${user.museumId} AND ${liveArticleWhere(user.museumId)} AND version = ${input.version}`,
      ),
      abortUnlessChanged(db.$client),
      statement(
        db,
        auditStatement(db, {
          museumId: user.museumId,
          actor: { id: user.id, email: user.email },
          action: "article.schedule",
          target: `article:${input.id}`,
          detail: { name: row.unformattedName, at: new Date(at).toISOString(), timeZone },
          at: now,
        }),
      ),
    ]);
  } catch (error) {
    if (!lostRace(error)) throw error;
    const still = await liveArticle(db, user.museumId, input.id);
    throw stale(still.version);
  }
  return { id: input.id, versionNumber: null, ...(await publicationOf(db, await liveArticle(db, user.museumId, input.id))) };
}

/** `at: null`: cancels a scheduled publication; nothing scheduled is not an error (the answer says so). */
async function unschedule(db: Database, user: Publisher, input: PublishArticleInput, now: number) {
  const row = await liveArticle(db, user.museumId, input.id);
  if (row.version !== input.version) throw stale(row.version);
  if (row.publishAt !== null) {
    try {
      await db.$client.batch([
        statement(
          db,
          sql`UPDATE articles SET publish_at = NULL, publish_at_by = NULL
          WHERE id = ${input.id} AND museum_id = ${user.museumId} AND ${liveArticleWhere(user.museumId)} AND publish_at IS NOT NULL AND version = ${input.version}`,
        ),
        abortUnlessChanged(db.$client),
        statement(
          db,
          auditStatement(db, {
            museumId: user.museumId,
            actor: { id: user.id, email: user.email },
            action: "article.unschedule",
            target: `article:${input.id}`,
            detail: { name: row.unformattedName, at: new Date(row.publishAt).toISOString() },
            at: now,
          }),
        ),
      ]);
    } catch (error) {
      if (!lostRace(error)) throw error;
      const still = await liveArticle(db, user.museumId, input.id);
      if (still.version !== input.version) throw stale(still.version);
      // Someone else cancelled it (or it was published) meanwhile: nothing is scheduled, as asked.
    }
  }
  return { id: input.id, versionNumber: null, ...(await publicationOf(db, await liveArticle(db, user.museumId, input.id))) };
}

/**
 * `POST /api/manage/discard_draft {id}`: the draft goes back to the published content. The version moves on
 * (open editors get 409 on their next save) and becomes the published version (no draft any more); a
 * scheduled publication is cancelled with it (there is nothing left to publish).
 */
export async function discardDraft(db: Database, user: Publisher, input: DiscardDraftInput, now = Date.now()) {
  const row = await liveArticle(db, user.museumId, input.id);
  if (row.publishedContent === null) throw conflict("id", "The article was never published: there is nothing to go back to", "never_published");
  if (row.publishedVersion === row.version) throw conflict("id", "The article has no draft to discard", "no_changes");
  try {
    await db.$client.batch([
      statement(
        db,
        sql`UPDATE articles SET content = published_content, slug = coalesce(json_extract(published_content, '$[0].url'), slug),
          version = version + 1, published_version = version + 1, updated_at = ${now}, updated_by = ${user.id}, publish_at = NULL, publish_at_by = NULL
        WHERE id = ${input.id} AND museum_id = ${user.museumId} AND ${liveArticleWhere(user.museumId)} AND published_content IS NOT NULL AND version = ${row.version}`,
      ),
      abortUnlessChanged(db.$client),
      statement(
        db,
        auditStatement(db, {
          museumId: user.museumId,
          actor: { id: user.id, email: user.email },
          action: "article.discard_draft",
          target: `article:${input.id}`,
          detail: { name: row.unformattedName, discardedVersion: row.version },
          at: now,
        }),
      ),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("id", "Another article of the museum now has the published address of this one", "name_taken");
    if (!lostRace(error)) throw error;
    const still = await liveArticle(db, user.museumId, input.id);
    if (still.publishedVersion === still.version) throw conflict("id", "The article has no draft to discard", "no_changes");
    throw stale(still.version);
  }
  return { id: input.id, ...(await publicationOf(db, await liveArticle(db, user.museumId, input.id))) };
}

/**
 * The scheduled publications due at `now` (the per-minute cron): each is published once, as the member who
 * scheduled it, even when two runs overlap (the update is conditional on the `publish_at` this run read).
 * A schedule whose draft holds nothing new is simply cleared.
 */
export async function publishDue(db: Database, now = Date.now(), limit = 200) {
  const due = await db.all<{ id: number; museum_id: number; publish_at: number; publish_at_by: number | null; name: string; email: string | null }>(sql`
    SELECT a.id, a.museum_id, a.publish_at, a.publish_at_by, a.unformatted_name AS name, u.email
    FROM articles a LEFT JOIN users u ON u.id = a.publish_at_by AND u.museum_id = a.museum_id
    WHERE a.publish_at IS NOT NULL AND a.publish_at <= ${now} AND ${sql.raw(liveArticleSql("a", "a.museum_id"))}
    ORDER BY a.publish_at LIMIT ${limit}`);
  let published = 0;
  let cleared = 0;
  for (const row of due) {
    const actor = { id: row.publish_at_by, email: row.email ?? "" };
    try {
      await db.$client.batch(
        publishStatements(db, row.id, row.museum_id, now, sql`publish_at = ${row.publish_at}`, actor, "", {
          name: row.name,
          scheduled: true,
          scheduledFor: new Date(row.publish_at).toISOString(),
        }),
      );
      published++;
    } catch (error) {
      if (!lostRace(error)) {
        console.error(`scheduled publication of article ${row.id} failed: ${String(error)}`);
        continue;
      }
      // Another run published it, or the draft held nothing new: the schedule (if still this one) goes.
      const done = await statement(
        db,
        sql`UPDATE articles SET publish_at = NULL, publish_at_by = NULL
        WHERE id = ${row.id} AND publish_at = ${row.publish_at} AND published_version = version`,
      ).run();
      if ((done.meta?.changes ?? 0) > 0) cleared++;
    }
  }
  return { due: due.length, published, cleared };
}

/**
 * The articles list's badges (decision 041): every live article of the museum that is not simply published
 * as saved — "scheduled" first, then "never" (never published), then "draft" (unpublished changes).
 */
export async function publicationBadges(db: Database, museumId: number): Promise<Record<number, "draft" | "never" | "scheduled">> {
  const rows = await db.all<{ id: number; badge: "draft" | "never" | "scheduled" }>(sql`
    SELECT id, CASE WHEN publish_at IS NOT NULL THEN 'scheduled' WHEN published_content IS NULL THEN 'never' ELSE 'draft' END AS badge
    FROM articles
    WHERE museum_id = ${museumId} AND deleted_at IS NULL
      AND (publish_at IS NOT NULL OR published_content IS NULL OR published_version IS NULL OR published_version <> version)`);
  return Object.fromEntries(rows.map((row) => [row.id, row.badge]));
}
