// Easy-to-read versions of articles (issue 22 §2, decision 094): generated from the article's published
// text by an LLM engine, edited and approved by staff; visitors read the approved copy only. Every write
// is one D1 batch with its audit entry, guarded by the version the caller saw (409 when stale).
import { and, eq } from "drizzle-orm";
import { auditD1, type AuditActor } from "~/audit/log.server";
import { ALT_MAX_LENGTH, HEADING_MAX_LENGTH, LABEL_MAX_LENGTH, TEXT_MAX_LENGTH } from "~/content/defaults";
import { articleContentSchema, parseStoredContent, type ArticleContent } from "~/content/schema";
import type { Database } from "~/db/client.server";
import { abortUnlessChanged, lostRace } from "~/db/guards";
import { articles, easyReadVersions, museums, users } from "~/db/schema";
import { conflict, DomainError, invalidField, notFound } from "~/errors";
import { liveArticleWhere } from "~/models/live-article.server";
import { recordUsage, textsChars } from "~/usage/usage.server";
import { EngineError } from "~/translation/engines/errors";
import { splitBatches } from "~/translation/engines/run";
import type { EasyReadEngine } from "./engines";
import { fieldsToRewrite, mapFields, textFields, tidyField, textHash, type FieldKind } from "./fields";
import type { ApproveEasyReadInput, GenerateEasyReadInput, UpdateEasyReadInput } from "./input";

/** A generation's claim lasts this long: a request that died mid-call frees the article after it. */
export const CLAIM_MS = 150_000;
/** One engine call may take this long (a long article on a slow model). */
const CALL_TIMEOUT_MS = 60_000;
/**
 * A call finding a generation under way waits for it this long, looking after `POLL_MS`, then half as
 * long again each time up to `POLL_MAX_MS`: many waiting calls do not read D1 five times a second each
 * for the whole of a slow generation.
 */
const WAIT_MS = 140_000;
const POLL_MS = 200;
const POLL_MAX_MS = 2_000;

export interface EasyReadDeps {
  db: Database;
  engines: readonly EasyReadEngine[];
  /** For tests: how often a waiting call looks again, and for how long. */
  pollMs?: number;
  waitMs?: number;
}

export type EasyReadStatus = "none" | "generating" | "draft" | "approved" | "changed";

/** What the staff page and `GET /api/read/easy_read` show. */
export interface EasyReadState {
  articleId: number;
  articleName: string;
  sourceLang: string;
  /** The article's published content (what the version is made from); null when never published. */
  original: ArticleContent | null;
  status: EasyReadStatus;
  /** The draft's version (0 = none yet): send it back with update, approve and regenerate. */
  version: number;
  content: ArticleContent | null;
  /** The approved copy visitors read; null when none is approved. */
  approved: ArticleContent | null;
  approvedVersion: number | null;
  /** The article's published text changed since the draft was generated ("the original changed since"). */
  stale: boolean;
  engine: string;
  generatedAt: number | null;
  updatedAt: number | null;
  approvedAt: number | null;
  approvedBy: { id: number; email: string } | null;
  /** The generation under way ends (or is given up) by then; null when none runs. */
  generatingUntil: number | null;
}

type Row = typeof easyReadVersions.$inferSelect;

interface LiveArticle {
  id: number;
  slug: string;
  name: string;
  sourceLang: string;
  published: ArticleContent | null;
}

/** The live article of the museum (decision 134) with its museum's language, or 404 naming `articleId`. */
async function liveArticle(db: Database, museumId: number, articleId: number): Promise<LiveArticle> {
  const row = await db
    .select({
      id: articles.id,
      slug: articles.slug,
      name: articles.unformattedName,
      published: articles.publishedContent,
      sourceLang: museums.sourceLang,
    })
    .from(articles)
    .innerJoin(museums, eq(museums.id, articles.museumId))
    .where(and(eq(articles.id, articleId), eq(articles.museumId, museumId), liveArticleWhere(museumId)))
    .get();
  if (!row) throw notFound("Article", "articleId");
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    sourceLang: row.sourceLang,
    published: row.published === null ? null : parseStoredContent(row.published, row.slug),
  };
}

const readRow = (db: Database, museumId: number, articleId: number) =>
  db
    .select()
    .from(easyReadVersions)
    .where(and(eq(easyReadVersions.articleId, articleId), eq(easyReadVersions.museumId, museumId)))
    .get();

function statusOf(row: Row | undefined, now: number): EasyReadStatus {
  if (row?.generatingUntil && row.generatingUntil > now) return "generating";
  if (!row || row.content === null) return "none";
  if (row.approvedVersion === null) return "draft";
  return row.approvedVersion === row.version ? "approved" : "changed";
}

async function emailOf(db: Database, id: number | null) {
  if (id === null) return null;
  const row = await db.select({ email: users.email }).from(users).where(eq(users.id, id)).get();
  return { id, email: row?.email ?? "" };
}

async function stateOf(db: Database, article: LiveArticle, row: Row | undefined, now = Date.now()): Promise<EasyReadState> {
  const content = row?.content ? parseStoredContent(row.content, article.slug) : null;
  const hash = article.published ? await textHash(article.published) : "";
  return {
    articleId: article.id,
    articleName: article.name,
    sourceLang: article.sourceLang,
    original: article.published,
    status: statusOf(row, now),
    version: row?.version ?? 0,
    content,
    approved: row?.approvedContent ? parseStoredContent(row.approvedContent, article.slug) : null,
    approvedVersion: row?.approvedVersion ?? null,
    stale: content !== null && row!.sourceHash !== hash,
    engine: row?.engine ?? "",
    generatedAt: row?.generatedAt ?? null,
    updatedAt: row?.content ? row.updatedAt : null,
    approvedAt: row?.approvedAt ?? null,
    approvedBy: row?.approvedAt ? await emailOf(db, row.approvedBy) : null,
    generatingUntil: row?.generatingUntil && row.generatingUntil > now ? row.generatingUntil : null,
  };
}

/** `GET /api/read/easy_read?articleId=`: the article's easy-to-read version, its original and its state. */
export async function readEasyRead(db: Database, museumId: number, articleId: number): Promise<EasyReadState> {
  const article = await liveArticle(db, museumId, articleId);
  return stateOf(db, article, await readRow(db, museumId, articleId));
}

/**
 * The approved easy-to-read content of an article, or null: what visitors read, and what narration and
 * translation start from (the seam for issue 22 §1). Tenancy: the museum must own the article.
 */
export async function approvedEasyRead(db: Database, museumId: number, articleId: number): Promise<ArticleContent | null> {
  const row = await db
    .select({ approved: easyReadVersions.approvedContent })
    .from(easyReadVersions)
    .where(and(eq(easyReadVersions.articleId, articleId), eq(easyReadVersions.museumId, museumId)))
    .get();
  return row?.approved ? parseStoredContent(row.approved) : null;
}

const stale = (version: number) => conflict("version", `The easy-to-read version was changed elsewhere meanwhile (now version ${version})`, "stale_version");

const short = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim().slice(0, 300);

function engineFailed(error: unknown): DomainError {
  return new DomainError("unavailable", `The easy-to-read version could not be written (${short(error)}); nothing was changed`, "articleId", "engine_failed");
}

const MAX_BY_KIND: Record<FieldKind, number> = { text: TEXT_MAX_LENGTH, heading: HEADING_MAX_LENGTH, label: LABEL_MAX_LENGTH, alt: ALT_MAX_LENGTH };

/** Every text rewritten by the first engine that manages all of them (a retryable failure is tried once more). */
async function rewriteAll(engines: readonly EasyReadEngine[], texts: readonly string[], lang: string): Promise<{ texts: string[]; engine: string }> {
  const failures: unknown[] = [];
  for (const engine of engines) {
    try {
      const out: string[] = [];
      // The translation engines' batching (consecutive texts within the limits), so results append in order.
      for (const input of splitBatches(texts, engine.limits)) {
        let result: string[];
        try {
          result = await engine.rewrite(input, lang, AbortSignal.timeout(CALL_TIMEOUT_MS));
        } catch (error) {
          if (!(error instanceof EngineError) || !error.retryable) throw error;
          result = await engine.rewrite(input, lang, AbortSignal.timeout(CALL_TIMEOUT_MS));
        }
        if (result.length !== input.length) throw new EngineError(engine.id, `answered ${result.length} texts for ${input.length}`, { retryable: false });
        out.push(...result);
      }
      return { texts: out, engine: engine.id };
    } catch (error) {
      failures.push(error);
    }
  }
  throw new Error(failures.map(short).join(" · ") || "no engine");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `POST /api/manage/generate_easy_read {articleId, version}`: writes (or rewrites) the draft from the
 * article's published text. `version` is the easy-to-read version the caller saw (0 = none): a stale one
 * is 409. Calls arriving while a generation runs wait for it and answer its result, so many parallel calls
 * make one engine call. An engine failure is 503 `engine_failed` and leaves everything as it was.
 */
export async function generateEasyRead(
  deps: EasyReadDeps,
  user: { id: number; email: string; museumId: number },
  input: GenerateEasyReadInput,
): Promise<EasyReadState & { shared: boolean }> {
  const { db } = deps;
  const article = await liveArticle(db, user.museumId, input.articleId);
  if (!article.published)
    throw conflict("articleId", "The article was never published: an easy-to-read version is made from the published text", "never_published");
  if (deps.engines.length === 0)
    throw new DomainError(
      "unavailable",
      "No LLM engine is configured: list workers-ai-llm or openai-compatible in TRANSLATION_ENGINES",
      "articleId",
      "no_engine",
    );
  const source = article.published;
  const now = Date.now();
  let row = await readRow(db, user.museumId, article.id);
  const claim = now + CLAIM_MS;
  let owned = false;
  if (!row?.generatingUntil || row.generatingUntil <= now) {
    if ((row?.version ?? 0) !== input.version) throw stale(row?.version ?? 0);
    // The claim: a new row, or the existing one when nobody holds it and its version is the one we saw.
    const claimed = await db.$client
      .prepare(
        `INSERT INTO easy_read_versions (article_id, museum_id, version, updated_at, generating_until) VALUES (?1, ?2, 0, ?3, ?4)
         ON CONFLICT (article_id) DO UPDATE SET generating_until = ?4
         WHERE easy_read_versions.museum_id = ?2 AND easy_read_versions.version = ?5 AND (easy_read_versions.generating_until IS NULL OR easy_read_versions.generating_until <= ?3)
         RETURNING article_id`,
      )
      .bind(article.id, user.museumId, now, claim, input.version)
      .first();
    // By the row it returns, not `meta.changes`: D1 counts there the rows the visitor tables' triggers wrote too (decision 132).
    owned = claimed !== null;
  }
  if (!owned) {
    // Another call generates now (or won the claim just before us): wait for its result rather than call the engine again.
    const until = Date.now() + (deps.waitMs ?? WAIT_MS);
    let pause = deps.pollMs ?? POLL_MS;
    do {
      await sleep(pause);
      pause = Math.min(Math.round(pause * 1.5), Math.max(POLL_MAX_MS, deps.pollMs ?? 0));
      row = await readRow(db, user.museumId, article.id);
    } while (row?.generatingUntil && row.generatingUntil > Date.now() && Date.now() < until);
    if (row?.generatingUntil && row.generatingUntil > Date.now())
      throw new DomainError("conflict", "A generation of this easy-to-read version is still running", "articleId", "stale_version");
    if ((row?.version ?? 0) > input.version && row?.content) return { ...(await stateOf(db, article, row)), shared: true };
    throw engineFailed(new Error("the generation this call waited for failed"));
  }

  const release = () =>
    db.$client
      .prepare("UPDATE easy_read_versions SET generating_until = NULL WHERE article_id = ? AND generating_until = ?")
      .bind(article.id, claim)
      .run()
      .catch((error: unknown) => console.warn(`easy-read claim not released: ${short(error)}`));
  const fields = fieldsToRewrite(source);
  let rewritten: { texts: string[]; engine: string };
  try {
    rewritten =
      fields.length === 0
        ? { texts: [], engine: "" }
        : await rewriteAll(
            deps.engines,
            fields.map((f) => f.text),
            article.sourceLang,
          );
  } catch (error) {
    await release();
    console.warn(`easy-read generation failed for article ${article.id}: ${short(error)}`);
    throw engineFailed(error);
  }
  // What the LLM read, for the operator's figures (decision 148).
  if (rewritten.engine !== "")
    await recordUsage(db.$client, [{ museumId: user.museumId, kind: "easy_read", engine: rewritten.engine, chars: textsChars(fields.map((f) => f.text)) }]);
  const byId = new Map(fields.map((field, i) => [field.id, rewritten.texts[i]!]));
  const content = mapFields(source, (text, id, kind) => {
    const next = byId.get(id);
    if (next === undefined) return text;
    const tidy = tidyField(next, kind);
    // A model that answers nothing, or too much for the field, leaves the original text there for staff to rewrite.
    return tidy === "" || tidy.length > MAX_BY_KIND[kind] ? text : tidy;
  });
  const checked = articleContentSchema.safeParse(content);
  const json = JSON.stringify(checked.success ? checked.data : source);
  const at = Date.now();
  const actor: AuditActor = { id: user.id, email: user.email };
  try {
    await db.$client.batch([
      db.$client
        .prepare(
          `UPDATE easy_read_versions SET content = ?1, version = version + 1, source_hash = ?2, engine = ?3, generated_at = ?4, generating_until = NULL, updated_at = ?4, updated_by = ?5
           WHERE article_id = ?6 AND museum_id = ?7 AND generating_until = ?8 AND version = ?9`,
        )
        .bind(json, await textHash(source), rewritten.engine, at, user.id, article.id, user.museumId, claim, input.version),
      abortUnlessChanged(db.$client),
      auditD1(db.$client, {
        museumId: user.museumId,
        actor,
        action: "easy_read.generate",
        target: `article:${article.id}`,
        detail: { name: article.name, engine: rewritten.engine, version: input.version + 1 },
        at,
      }),
    ]);
  } catch (error) {
    await release();
    if (!lostRace(error)) throw error;
    throw stale((await readRow(db, user.museumId, article.id))?.version ?? 0);
  }
  return { ...(await stateOf(db, article, await readRow(db, user.museumId, article.id))), shared: false };
}

/** The draft row, or 404 when there is no generated version (field `articleId`). */
async function draftRow(db: Database, museumId: number, articleId: number, version: number): Promise<Row & { content: string }> {
  const row = await readRow(db, museumId, articleId);
  if (!row || row.content === null) throw new DomainError("not_found", "This article has no easy-to-read version yet", "articleId", "not_generated");
  if (row.version !== version) throw stale(row.version);
  return row as Row & { content: string };
}

async function guardedWrite(db: Database, statement: D1PreparedStatement, audit: D1PreparedStatement, museumId: number, articleId: number) {
  try {
    await db.$client.batch([statement, abortUnlessChanged(db.$client), audit]);
  } catch (error) {
    if (!lostRace(error)) throw error;
    throw stale((await readRow(db, museumId, articleId))?.version ?? 0);
  }
}

/**
 * `POST /api/manage/update_easy_read {articleId, version, texts: {fieldId: text}}`: staff's edit of the
 * draft. An approved version stays what visitors read until the edit is approved in turn.
 */
export async function updateEasyRead(db: Database, user: { id: number; email: string; museumId: number }, input: UpdateEasyReadInput): Promise<EasyReadState> {
  const article = await liveArticle(db, user.museumId, input.articleId);
  const row = await draftRow(db, user.museumId, article.id, input.version);
  const current = parseStoredContent(row.content, article.slug);
  const kinds = new Map(textFields(current).map((field) => [field.id, field.kind]));
  for (const [id, text] of Object.entries(input.texts)) {
    const kind = kinds.get(id);
    if (!kind) throw invalidField(`texts.${id}`, "invalid");
    if (tidyField(text, kind).length > MAX_BY_KIND[kind]) throw invalidField(`texts.${id}`, "too_long");
  }
  const next = mapFields(current, (text, id, kind) => (id in input.texts ? tidyField(input.texts[id]!, kind) : text));
  const json = JSON.stringify(next);
  if (json === JSON.stringify(current)) return stateOf(db, article, row);
  const at = Date.now();
  await guardedWrite(
    db,
    db.$client
      .prepare(
        "UPDATE easy_read_versions SET content = ?1, version = version + 1, updated_at = ?2, updated_by = ?3 WHERE article_id = ?4 AND museum_id = ?5 AND version = ?6",
      )
      .bind(json, at, user.id, article.id, user.museumId, input.version),
    auditD1(db.$client, {
      museumId: user.museumId,
      actor: { id: user.id, email: user.email },
      action: "easy_read.update",
      target: `article:${article.id}`,
      detail: { name: article.name, version: input.version + 1, fields: Object.keys(input.texts).length },
      at,
    }),
    user.museumId,
    article.id,
  );
  return stateOf(db, article, await readRow(db, user.museumId, article.id));
}

/** `POST /api/manage/approve_easy_read {articleId, version}`: visitors read this version from now on. */
export async function approveEasyRead(
  db: Database,
  user: { id: number; email: string; museumId: number },
  input: ApproveEasyReadInput,
): Promise<EasyReadState> {
  const article = await liveArticle(db, user.museumId, input.articleId);
  const row = await draftRow(db, user.museumId, article.id, input.version);
  if (row.approvedVersion === row.version) throw conflict("version", "This version is already approved", "no_changes");
  const at = Date.now();
  await guardedWrite(
    db,
    db.$client
      .prepare(
        `UPDATE easy_read_versions SET approved_content = content, approved_version = version, approved_source_hash = source_hash, approved_at = ?1, approved_by = ?2
         WHERE article_id = ?3 AND museum_id = ?4 AND version = ?5 AND content IS NOT NULL AND (approved_version IS NULL OR approved_version <> version)`,
      )
      .bind(at, user.id, article.id, user.museumId, input.version),
    auditD1(db.$client, {
      museumId: user.museumId,
      actor: { id: user.id, email: user.email },
      action: "easy_read.approve",
      target: `article:${article.id}`,
      detail: { name: article.name, version: input.version },
      at,
    }),
    user.museumId,
    article.id,
  );
  return stateOf(db, article, await readRow(db, user.museumId, article.id));
}

/** `POST /api/manage/delete_easy_read {articleId}`: removes the draft and the approved version (visitors lose the switch). */
export async function deleteEasyRead(
  db: Database,
  user: { id: number; email: string; museumId: number },
  input: { articleId: number },
): Promise<{ deleted: true }> {
  const article = await liveArticle(db, user.museumId, input.articleId);
  const row = await readRow(db, user.museumId, article.id);
  if (!row || (row.content === null && !(row.generatingUntil && row.generatingUntil > Date.now())))
    throw new DomainError("not_found", "This article has no easy-to-read version", "articleId", "not_generated");
  const at = Date.now();
  try {
    await db.$client.batch([
      db.$client.prepare("DELETE FROM easy_read_versions WHERE article_id = ? AND museum_id = ?").bind(article.id, user.museumId),
      abortUnlessChanged(db.$client),
      auditD1(db.$client, {
        museumId: user.museumId,
        actor: { id: user.id, email: user.email },
        action: "easy_read.delete",
        target: `article:${article.id}`,
        detail: { name: article.name, wasApproved: row.approvedVersion !== null },
        at,
      }),
    ]);
  } catch (error) {
    if (!lostRace(error)) throw error;
    throw new DomainError("not_found", "This article has no easy-to-read version", "articleId", "not_generated");
  }
  return { deleted: true };
}

/**
 * The visitor target with its approved easy-to-read version (one query, by primary key), for the visitor
 * snapshot (decision 039): a cached view then needs no D1 for it; approve and delete mark the museum changed.
 */
export async function withEasyRead<T extends { museum: { id: number }; article: { id: number } | null }>(
  db: Database,
  target: T | null,
): Promise<(T & { easyRead: ArticleContent | null }) | null> {
  if (!target) return null;
  return { ...target, easyRead: target.article ? await approvedEasyRead(db, target.museum.id, target.article.id) : null };
}
