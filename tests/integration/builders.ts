import { env, SELF } from "cloudflare:test";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { onTestFinished } from "vitest";
import { getLoadContext } from "~/load-context";
import { hashPassword } from "~/lib/password.server";
import { randomLink } from "~/models/qrcodes.server";
import { languagesForRole, memberLanguagesSchema } from "~/teams/member-input";
import type { Role } from "~/teams/roles";
import { BASE, get, logIn, postJson } from "./http";

// One builder per entity the integration tests make (issue 31 §7, decision 138), as Epic Stack's createUser
// and login fixtures are: a museum, a member with a role and languages (and their session), an article
// published or draft, a QR code, a tour, and one reader of the audit log. Owners and structure (museum,
// member, QR code, tour) are rows written straight to D1, as the operator scripts do: nothing in the app makes
// a museum, and the invitation path is the team tests' own subject (team-helpers.ts `addMember`). Content
// (an article) goes through the staff API: its rows, versions and publication are the app's to shape.
//
// Storage is not rolled back between the tests of a file and files share a runtime: every builder makes new
// names, so tests never collide; `cleanup: true` (or `removeMuseum`) takes a museum and everything it owns
// away when the test ends, for a test that reads across museums (a cron sweep, a count of every row).

type Json = Record<string, unknown>;
/** A museum given by its id, or by anything that carries it (a Museum, a member, `session.user`). */
export type MuseumRef = number | { museumId: number };
const museumIdOf = (museum: MuseumRef) => (typeof museum === "number" ? museum : museum.museumId);

let counter = 0;
/** A name no other test of the run uses (a time and a counter). */
export function unique(prefix: string) {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

// --- Passwords ------------------------------------------------------------------------------------------------

export const DEFAULT_PASSWORD = "correct horse battery";
let defaultHash: Promise<string> | undefined;
/**
 * The default password's hash, made once per test file (PBKDF2 at 100,000 iterations is the dearest step of a
 * fresh museum): users made without a password of their own share it, salt included. A test that needs its own
 * salt passes a password (tests/integration/auth.test.ts "uses a different salt for each user"). Decision 126.
 */
export function defaultPasswordHash(): Promise<string> {
  defaultHash ??= hashPassword(DEFAULT_PASSWORD);
  return defaultHash;
}

// --- Museum ---------------------------------------------------------------------------------------------------

export interface Museum {
  museumId: number;
  museumSlug: string;
  museumName: string;
}

/**
 * A museum with no one in it, its columns at their defaults (French source, Paris time). `cleanup: true`
 * removes it and all it owns when the current test ends (call inside a test).
 */
export async function createMuseum(opts: { name?: string; slug?: string; cleanup?: boolean; shard?: number } = {}): Promise<Museum> {
  const museumSlug = opts.slug ?? unique("museum");
  const museumName = opts.name ?? `Museum ${museumSlug}`;
  // As the operator's script makes one (decision 142): its id from the directory, its row on its shard (0 unless
  // named: the tests' D1 reads go to `env.DB`; tests/integration/shards.test.ts plants museums on the others).
  const shard = opts.shard ?? 0;
  const dir = await env.DIRECTORY.prepare("INSERT INTO museums (slug, shard) VALUES (?, ?) RETURNING id").bind(museumSlug, shard).first<{ id: number }>();
  await shardDb(shard).prepare("INSERT INTO museums (id, name, slug) VALUES (?, ?, ?)").bind(dir!.id, museumName, museumSlug).run();
  museumShards.set(dir!.id, shard);
  const museum = { museumId: dir!.id, museumSlug, museumName };
  if (opts.cleanup) onTestFinished(() => removeMuseum(museum));
  return museum;
}

const museumShards = new Map<number, number>();

/** Shard k's database (`DB`, `DB_1`, `DB_2`). */
export function shardDb(k: number): D1Database {
  const db = k === 0 ? env.DB : (env as unknown as Record<string, D1Database | undefined>)[`DB_${k}`];
  if (!db) throw new Error(`no shard ${k} in the test runtime`);
  return db;
}

/** The database of the museum's shard, for tests that read or plant its rows. */
export function museumDb(museum: MuseumRef): D1Database {
  return shardDb(museumShards.get(museumIdOf(museum)) ?? 0);
}

/** The tables with a `museum_id` column (read from the schema, so a new table is covered without a change here). */
export async function museumOwnedTables(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT m.name AS name FROM sqlite_master m JOIN pragma_table_info(m.name) c ON c.name = 'museum_id' WHERE m.type = 'table' AND m.name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY m.name",
  ).all<{ name: string }>();
  return results.map((r) => r.name);
}

/** Rows the museum still has: its own (`museums`) and each museum-owned table's (tables with none left out). */
export async function rowsLeft(museum: MuseumRef): Promise<Record<string, number>> {
  const id = museumIdOf(museum);
  const tables = await museumOwnedTables();
  const counts = await env.DB.batch([
    env.DB.prepare("SELECT count(*) AS n FROM museums WHERE id = ?").bind(id),
    ...tables.map((t) => env.DB.prepare(`SELECT count(*) AS n FROM "${t}" WHERE museum_id = ?`).bind(id)),
  ]);
  const left: Record<string, number> = {};
  ["museums", ...tables].forEach((t, i) => {
    const n = (counts[i]!.results[0] as { n: number }).n;
    if (n > 0) left[t] = n;
  });
  return left;
}

/**
 * Teardown: deletes the museum (its rows cascade, sessions through its users), then what has no foreign key to
 * it (every other table with a `museum_id`: scan events, tour stops), and its media in R2. KV entries expire on
 * their own (the visitor cache's keys name the museum's change stamp, which no longer exists).
 */
export async function removeMuseum(museum: MuseumRef): Promise<void> {
  const id = museumIdOf(museum);
  const tables = await museumOwnedTables();
  const db = museumDb(id);
  await db.batch([
    db.prepare("DELETE FROM museums WHERE id = ?").bind(id),
    ...tables.map((t) => db.prepare(`DELETE FROM "${t}" WHERE museum_id = ?`).bind(id)),
  ]);
  await env.DIRECTORY.prepare("DELETE FROM museums WHERE id = ?").bind(id).run();
  for (;;) {
    const listed = await env.MEDIA.list({ prefix: `m/${id}/` });
    if (listed.objects.length === 0) break;
    await env.MEDIA.delete(listed.objects.map((o) => o.key));
  }
}

// --- Member ---------------------------------------------------------------------------------------------------

export interface TestUser {
  museumId: number;
  museumSlug: string;
  userId: number;
  email: string;
  password: string;
}

export interface Member extends TestUser {
  role: Role;
  /** As stored: a translator's languages, sorted; [] = every language (and always [] for other roles). */
  languages: string[];
}

/**
 * A member of `museum`, written as the invitation's acceptance writes one (app/teams/invitations.server.ts).
 * Without `role` the row takes the column's default, an admin (the operator's first user); `languages` are
 * stored as the app stores them (deduplicated, sorted, only for a translator; a code the app refuses throws).
 * The e-mail is stored lowercased and returned as given; without a password the file's shared hash is used.
 */
export async function createMember(
  museum: { museumId: number; museumSlug?: string },
  opts: { role?: Role; languages?: readonly string[]; email?: string; password?: string } = {},
): Promise<Member> {
  const email = opts.email ?? `${unique(opts.role ?? "staff")}@example.org`;
  const password = opts.password ?? DEFAULT_PASSWORD;
  const hash = opts.password === undefined ? await defaultPasswordHash() : await hashPassword(password);
  const columns = ["museum_id", "email", "password_hash"];
  const values: unknown[] = [museum.museumId, email.toLowerCase(), hash];
  if (opts.role !== undefined) {
    columns.push("role", "languages");
    values.push(opts.role, JSON.stringify(languagesForRole(opts.role, memberLanguagesSchema.parse(opts.languages ?? []))));
  } else if (opts.languages !== undefined) throw new Error("createMember: languages need a role (translator)");
  await env.DIRECTORY.prepare("INSERT INTO accounts (email, museum_id) VALUES (?, ?)").bind(email.toLowerCase(), museum.museumId).run();
  const row = await museumDb(museum)
    .prepare(`INSERT INTO users (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) RETURNING id, role, languages`)
    .bind(...values)
    .first<{ id: number; role: Role; languages: string }>();
  return {
    museumId: museum.museumId,
    museumSlug: museum.museumSlug ?? "",
    userId: row!.id,
    email,
    password,
    role: row!.role,
    languages: JSON.parse(row!.languages) as string[],
  };
}

/** A logged-in user's shortcuts: the JSON API (`call`, `read`), pages (`page`), the tree. */
export interface Session<U extends Pick<TestUser, "email" | "password"> = TestUser> {
  user: U;
  cookie: string;
  call: (name: string, body: unknown) => Promise<{ status: number; body: Json }>;
  read: (path: string) => Promise<{ status: number; body: unknown }>;
  page: (path: string, headers?: Record<string, string>) => Promise<Response>;
  tree: () => Promise<Json[]>;
}

/** Logs `user` in through `POST /login` (one PBKDF2 check) and gives their session's shortcuts. */
export async function signIn<U extends Pick<TestUser, "email" | "password">>(user: U, headers: Record<string, string> = {}): Promise<Session<U>> {
  const cookie = await logIn(user, headers);
  const call = async (name: string, body: unknown) => {
    const response = await postJson(`/api/manage/${name}`, body, { Cookie: cookie });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const read = async (path: string) => {
    const response = await get(path, cookie);
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const page = (path: string, extra: Record<string, string> = {}) => get(path, cookie, extra);
  const tree = async () => (await read("/api/tree")).body as Json[];
  return { user, cookie, call, read, page, tree };
}

/** A member of `museum` with this role (and languages), logged in. */
export async function memberSession(museum: { museumId: number; museumSlug?: string }, opts: Parameters<typeof createMember>[1] = {}) {
  return signIn(await createMember(museum, opts));
}

/** A museum with one staff user (an admin, the operator's first user), written straight to D1. */
export async function createMuseumWithUser(opts: { password?: string; email?: string; cleanup?: boolean } = {}): Promise<TestUser> {
  const museum = await createMuseum({ cleanup: opts.cleanup });
  const { museumId, museumSlug, userId, email, password } = await createMember(museum, { email: opts.email, password: opts.password });
  return { museumId, museumSlug, userId, email, password };
}

/** A fresh museum's admin, logged in, with shortcuts for the JSON API. */
export async function staffSession(opts: { cleanup?: boolean } = {}): Promise<Session> {
  return signIn(await createMuseumWithUser(opts));
}

export type StaffSession = Session;

// --- Article --------------------------------------------------------------------------------------------------

/** Text elements, one per string, for `createArticle` and `publishArticle`. */
export const texts = (lines: readonly string[]) => lines.map((content) => ({ type: "text", content }));

/** Publishes the article's saved draft now (`publish_article` with its current version); checked. */
export async function publishNow(s: Pick<StaffSession, "call" | "read">, articleId: number) {
  const current = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { version: number; status: string };
  if (current.status === "published") return current.version;
  const published = await s.call("publish_article", { id: articleId, version: current.version });
  if (published.status !== 200) throw new Error(`publish_article: ${published.status} ${JSON.stringify(published.body)}`);
  return current.version;
}

/**
 * A new article in `folder` (a path of folder names, [] = the root, which must exist) whose content is
 * `elements` after its metadata, through the staff API, each step checked. `published` publishes the saved
 * draft (decision 041: visitors see only what is published); `qrcode` links a new QR code to it (through the
 * API too: `add_qrcode`, `update_qrcode`). Returns its id, its address (slug), the code if any, and `edit` to
 * save new elements over it (and publish them, for a published article).
 */
export async function createArticle(
  s: Pick<StaffSession, "call" | "read">,
  opts: { elements?: readonly unknown[]; published?: boolean; qrcode?: boolean; folder?: readonly string[] } = {},
) {
  const added = await s.call("add_article", { pathArray: opts.folder ?? [] });
  if (added.status !== 200) throw new Error(`add_article: ${added.status} ${JSON.stringify(added.body)}`);
  const articleId = added.body.id as number;
  const edit = async (next: readonly unknown[]) => {
    const current = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[]; version: number; name: string };
    const saved = await s.call("update_article", { articleId, version: current.version, newContent: [current.content[0], ...next] });
    if (saved.status !== 200) throw new Error(`update_article: ${saved.status} ${JSON.stringify(saved.body)}`);
    if (opts.published) await publishNow(s, articleId);
    return current.name;
  };
  const slug = opts.elements || opts.published ? await edit(opts.elements ?? []) : (added.body.name as string);
  if (!opts.qrcode) return { articleId, slug, link: undefined, qrcodeId: undefined, edit };
  const code = await s.call("add_qrcode", {});
  if (code.status !== 200) throw new Error(`add_qrcode: ${code.status}`);
  const linked = await s.call("update_qrcode", { qrcodeId: code.body.id, articleId });
  if (linked.status !== 200) throw new Error(`update_qrcode: ${linked.status}`);
  return { articleId, slug, link: code.body.link as string, qrcodeId: code.body.id as number, edit };
}

/**
 * A new article at the root whose content is `elements` after its metadata, published and linked to a new QR
 * code (`createArticle` with `published` and `qrcode`).
 */
export async function publishArticle(s: Pick<StaffSession, "call" | "read">, elements: readonly unknown[]) {
  const made = await createArticle(s, { elements, published: true, qrcode: true });
  return { ...made, link: made.link!, qrcodeId: made.qrcodeId! };
}

/**
 * A bare article row of `museum` (no content, no version, never published), for a test that only needs an
 * article's id and name to hang rows on (statistics, as the consumer writes them). Anything a visitor or an
 * editor reads is made with `createArticle`.
 */
export async function createArticleRow(museum: MuseumRef, opts: { slug?: string; name?: string } = {}) {
  const slug = opts.slug ?? unique("article");
  const row = await museumDb(museum)
    .prepare("INSERT INTO articles (museum_id, slug, unformatted_name, content, updated_at) VALUES (?, ?, ?, '[]', 0) RETURNING id")
    .bind(museumIdOf(museum), slug, opts.name ?? slug)
    .first<{ id: number }>();
  return row!.id;
}

// --- QR code --------------------------------------------------------------------------------------------------

/**
 * A QR code row of `museum`, unlinked or linked to `articleId`, with a fresh link of the printed alphabet (or
 * `link`, any text: a code made before the alphabet, an attack). For a code made as staff make one, see
 * `createArticle({ qrcode: true })`.
 */
export async function createQrCode(museum: MuseumRef, opts: { articleId?: number | null; link?: string } = {}) {
  const link = opts.link ?? randomLink();
  await env.DIRECTORY.prepare("INSERT INTO links (link, museum_id, kind) VALUES (?, ?, 'qrcode') ON CONFLICT DO NOTHING").bind(link, museumIdOf(museum)).run();
  const row = await museumDb(museum)
    .prepare("INSERT INTO qrcodes (museum_id, link, article_id) VALUES (?, ?, ?) RETURNING id")
    .bind(museumIdOf(museum), link, opts.articleId ?? null)
    .first<{ id: number }>();
  return { qrcodeId: row!.id, link };
}

// --- Tour -----------------------------------------------------------------------------------------------------

/**
 * A tour of `museum` with its stops in this order (an article may come twice), written as the tours API writes
 * one. Unless given: named "Le parcours des vases", described, 45 minutes, no cover, a fresh link.
 */
export async function createTour(
  museum: MuseumRef,
  articleIds: readonly number[],
  fields: { name?: string; description?: string; minutes?: number | null; cover?: string | null; link?: string } = {},
) {
  const museumId = museumIdOf(museum);
  const link = fields.link ?? randomLink();
  await env.DIRECTORY.prepare("INSERT INTO links (link, museum_id, kind) VALUES (?, ?, 'tour') ON CONFLICT DO NOTHING").bind(link, museumId).run();
  const db = museumDb(museum);
  const row = await db
    .prepare("INSERT INTO tours (museum_id, link, name, description, cover, minutes, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id")
    .bind(
      museumId,
      link,
      fields.name ?? "Le parcours des vases",
      fields.description ?? "Une promenade dans les salles grecques.",
      fields.cover ?? null,
      fields.minutes === undefined ? 45 : fields.minutes,
      Date.now(),
    )
    .first<{ id: number }>();
  const id = row!.id;
  if (articleIds.length > 0) {
    await db.batch(
      articleIds.map((articleId, i) =>
        db.prepare("INSERT INTO tour_stops (tour_id, position, article_id, museum_id) VALUES (?, ?, ?, ?)").bind(id, i + 1, articleId, museumId),
      ),
    );
  }
  return { id, link };
}

// --- Audit log ------------------------------------------------------------------------------------------------

export interface AuditEntry {
  id: number;
  at: number;
  action: string;
  actor_id: number | null;
  actor_email: string;
  target: string;
  /** The entry's detail, parsed. */
  detail: Record<string, unknown>;
}

/**
 * The museum's audit entries in the order written, optionally only one action (or `action%`, a prefix), one
 * target, or those after entry `after` (see `lastAuditId`); `logins: false` leaves `session.login` out.
 */
export async function auditEntries(
  museum: MuseumRef,
  filter: { action?: string; target?: string; after?: number; logins?: boolean } = {},
): Promise<AuditEntry[]> {
  const where = ["museum_id = ?"];
  const values: unknown[] = [museumIdOf(museum)];
  if (filter.action !== undefined) {
    where.push(filter.action.endsWith("%") ? "action LIKE ?" : "action = ?");
    values.push(filter.action);
  }
  if (filter.target !== undefined) {
    where.push("target = ?");
    values.push(filter.target);
  }
  if (filter.after !== undefined) {
    where.push("id > ?");
    values.push(filter.after);
  }
  if (filter.logins === false) where.push("action != 'session.login'");
  const { results } = await env.DB.prepare(
    `SELECT id, at, action, actor_id, actor_email, target, detail FROM audit_log WHERE ${where.join(" AND ")} ORDER BY id`,
  )
    .bind(...values)
    .all<Omit<AuditEntry, "detail"> & { detail: string }>();
  return results.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
}

/** The id of the museum's last audit entry (0 when none): `auditEntries(m, { after })` reads what came next. */
export async function lastAuditId(museum: MuseumRef): Promise<number> {
  const row = await env.DB.prepare("SELECT coalesce(max(id), 0) AS id FROM audit_log WHERE museum_id = ?").bind(museumIdOf(museum)).first<{ id: number }>();
  return row!.id;
}

// --- The demo museum ------------------------------------------------------------------------------------------

/**
 * The demo museum as `npm start` seeds it (env.DEMO_SEED), in the museum of the staff session `session` makes,
 * seeded once per runtime: test files share their runtime's storage (isolate: false, decision 130) and the seed's
 * QR code links and media keys are fixed, so a second seeding would collide. Callers only read it (export it,
 * count it); a test that changes it must make its own museum.
 */
export async function demoMuseum<S extends { user: { museumId: number; museumSlug: string } }>(session: () => Promise<S>): Promise<S> {
  const holder = globalThis as unknown as Record<symbol, Promise<unknown> | undefined>;
  const key = Symbol.for("muselingo.tests.demo-museum");
  const known = holder[key] as Promise<S> | undefined;
  if (known) {
    const s = await known.catch(() => null);
    if (s && (await env.DB.prepare("SELECT 1 FROM museums WHERE id = ?").bind(s.user.museumId).first())) return s;
  }
  const seeding = (async () => {
    const s = await session();
    const sql = env.DEMO_SEED.sql.replaceAll("'__DEMO_SLUG__'", `'${s.user.museumSlug}'`);
    const statements = sql
      .split(/;\n/)
      .map((q) => q.trim())
      .filter(Boolean);
    await env.DB.batch(statements.map((q) => env.DB.prepare(q)));
    // Its printed links are claimed in the directory, as the seed script claims them (decision 142).
    const { results } = await env.DB.prepare("SELECT link FROM qrcodes WHERE museum_id = ?").bind(s.user.museumId).all<{ link: string }>();
    await env.DIRECTORY.batch(
      results.map((r) =>
        env.DIRECTORY.prepare("INSERT INTO links (link, museum_id, kind) VALUES (?, ?, 'qrcode') ON CONFLICT DO NOTHING").bind(r.link, s.user.museumId),
      ),
    );
    for (const f of env.DEMO_SEED.files) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      await env.MEDIA.put(f.key, bytes, { httpMetadata: { contentType: f.contentType } });
    }
    return s;
  })();
  holder[key] = seeding;
  return seeding;
}

/** A museum's archive (`GET /api/read/export`, the ZIP of decision 062), as its staff downloads it. */
export async function exportMuseum(cookie: string): Promise<Uint8Array<ArrayBuffer>> {
  const response = await get("/api/read/export", cookie);
  const type = response.headers.get("Content-Type");
  if (response.status !== 200 || type !== "application/zip") throw new Error(`museum export: HTTP ${response.status}, ${type}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** `POST /api/manage/import_museum` into the museum of `cookie`'s session: the answer, whatever it is. */
export function importMuseum(cookie: string, body: BodyInit | Uint8Array | null, type = "application/zip", query = ""): Promise<Response> {
  return SELF.fetch(`${BASE}/api/manage/import_museum${query}`, { method: "POST", headers: { Cookie: cookie, "Content-Type": type }, body: body as BodyInit });
}

/**
 * A museum of its own holding the demo's content, for a test that changes it: the shared demo (`demoMuseum`)
 * exported and imported into the museum of a new staff session (its QR codes get new links, its files new keys).
 * Two files once changed the shared demo and each one's counts failed when the other ran first in the same
 * runtime (CI, decision 139). museum-archive.test.ts alone changes the shared demo: it checks the seed's own files.
 */
export async function demoMuseumCopy<S extends { user: { museumId: number; museumSlug: string }; cookie: string }>(session: () => Promise<S>): Promise<S> {
  const demo = await demoMuseum(session);
  const archive = await exportMuseum(demo.cookie);
  const own = await session();
  const imported = await importMuseum(own.cookie, archive);
  if (imported.status !== 200) throw new Error(`demo import: HTTP ${imported.status} ${await imported.text()}`);
  return own;
}

// --- A request's context, for a test that calls the visitor page's steps itself ------------------------------

/**
 * The context the Worker gives `request` (app/load-context.ts, the same function), with the scans sent to `scans`
 * and `waitUntil`'s work kept until `settle()`: for tests that call the visitor page or its steps without the
 * Worker. `snapshots` as under the Worker (visitor snapshots in use); `nonce` the CSP nonce.
 */
export function stepContext(request: Request, { scans, snapshots = false, nonce }: { scans: Queue; snapshots?: boolean; nonce?: string }) {
  const scheduled: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void scheduled.push(p), passThroughOnException: () => undefined };
  const context: AppLoadContext = getLoadContext({
    request,
    context: { cloudflare: { env: { ...env, SCANS: scans } as Env, ctx }, cspNonce: nonce, publishesVisitorChanges: snapshots },
  });
  return { context, settle: () => Promise.all(scheduled.splice(0)) };
}
