import { randomBytes } from "node:crypto";
import { expect, request, type APIRequestContext, type Page } from "@playwright/test";
import { test } from "./fixtures";

// The end-to-end suite's builders (issue 31 §7, decision 138), the same entities as the integration tests'
// (tests/integration/builders.ts), made the only way an e2e test may make them while the server runs: through
// the staff API, as the logged-in staff member (a direct write makes every other worker wait: fixtures.ts
// writeD1). The museum and its first admin are the `staff` fixture (a pooled museum of its own per test,
// tests/e2e/staff-pool.mjs); everything made here belongs to that museum, which the global teardown deletes
// with all it owns (tests/e2e/global-teardown.ts): no test cleans up after itself.
//
// Each builder takes the staff member's page (its session) or an API request context; every call must answer
// 200 or the test fails there, naming the call.

type Json = Record<string, unknown>;
/** Whoever makes the entity: a logged-in page (its `request` shares the page's cookies) or a request context. */
export type Maker = Page | APIRequestContext;
const requestOf = (who: Maker): APIRequestContext => ("goto" in who ? who.request : who);

/** One staff API call; anything but 200 fails the test. */
export async function call<T = Json>(who: Maker, name: string, data: unknown): Promise<T> {
  const response = await requestOf(who).post(`/api/manage/${name}`, { data });
  expect(response.status(), `${name}: ${response.status() === 200 ? "" : await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

/** An article as the staff API reads it. */
export async function readArticle(who: Maker, articleId: number) {
  const response = await requestOf(who).get(`/api/read/article?articleId=${articleId}`);
  expect(response.status(), "read the article").toBe(200);
  return (await response.json()) as { content: Json[]; version: number; name: string; status: string };
}

/** Publishes the article's saved draft (decision 041: visitors see only what is published); its version. */
export async function publishNow(who: Maker, articleId: number): Promise<number> {
  const { version } = await readArticle(who, articleId);
  await call(who, "publish_article", { id: articleId, version });
  return version;
}

// --- Article --------------------------------------------------------------------------------------------------

/**
 * A new article in `folder` (folder names from the root; they must exist), named `name` if given, whose content
 * is `elements` after its metadata (the default one, or `{ url, ...metadata }`); `published` publishes it, `stopNumber` numbers it for tours, `qrcode` links
 * a new QR code to it. Returns its id, address (slug), name, and the code's link and id when asked.
 */
export async function createArticle(
  who: Maker,
  opts: {
    elements?: unknown[];
    name?: string;
    /** The metadata element's fields besides its address (a background colour…), in place of the defaults. */
    metadata?: Json;
    published?: boolean;
    qrcode?: boolean;
    folder?: string[];
    stopNumber?: number;
  } = {},
) {
  const added = await call<{ id: number; name: string; unformatted_name: string }>(who, "add_article", { pathArray: opts.folder ?? [] });
  const articleId = added.id;
  if (opts.name !== undefined) await call(who, "rename_article", { articleId, newName: opts.name });
  if (opts.elements || opts.metadata) {
    const article = await readArticle(who, articleId);
    const metadata = opts.metadata ? { type: "metadatas", url: added.name, ...opts.metadata } : article.content[0];
    await call(who, "update_article", { articleId, version: article.version, newContent: [metadata, ...(opts.elements ?? [])] });
  }
  if (opts.published) await publishNow(who, articleId);
  if (opts.stopNumber !== undefined) await call(who, "update_stop_number", { articleId, stopNumber: opts.stopNumber });
  // Its address never changes (a rename changes the name only).
  const made = { articleId, slug: added.name, name: opts.name ?? added.unformatted_name };
  if (!opts.qrcode) return { ...made, link: undefined, qrcodeId: undefined };
  const code = await createQrCode(who, { articleId });
  return { ...made, link: code.link, qrcodeId: code.qrcodeId };
}

/** A published article behind a new QR code: `createArticle` with `published` and `qrcode`. */
export async function publishWithCode(who: Maker, elements: unknown[]): Promise<{ articleId: number; link: string }> {
  const made = await createArticle(who, { elements, published: true, qrcode: true });
  return { articleId: made.articleId, link: made.link! };
}

// --- QR code --------------------------------------------------------------------------------------------------

/** A new QR code of the staff's museum, linked to `articleId` if given. */
export async function createQrCode(who: Maker, opts: { articleId?: number } = {}) {
  const code = await call<{ id: number; link: string }>(who, "add_qrcode", {});
  if (opts.articleId !== undefined) await call(who, "update_qrcode", { qrcodeId: code.id, articleId: opts.articleId });
  return { qrcodeId: code.id, link: code.link };
}

// --- Tour -----------------------------------------------------------------------------------------------------

/**
 * A new tour named `name` with these stops in this order (an article may come twice), a description and a
 * duration if given (docs/api.md: add_tour, update_tour). Stop numbers are the articles' (`createArticle`'s
 * `stopNumber`, or `update_stop_number`).
 */
export async function createTour(who: Maker, opts: { name: string; articleIds?: number[]; description?: string; minutes?: number }) {
  const tour = await call<{ id: number; link: string; version: number }>(who, "add_tour", { name: opts.name });
  const { name: _name, ...fields } = opts;
  if (Object.keys(fields).length === 0) return tour;
  const updated = await call<{ version: number }>(who, "update_tour", { id: tour.id, version: tour.version, ...fields });
  return { ...tour, version: updated.version };
}

// --- Member ---------------------------------------------------------------------------------------------------

export type Role = "admin" | "editor" | "translator" | "viewer";

/**
 * A new member of the staff's museum with this role (and a translator's languages): invited by the staff
 * member, the invitation accepted with JSON `{password}` from a request context of its own, so the staff's page
 * keeps its session. Returns their login for `logIn(otherPage, member)`.
 */
export async function createMember(who: Maker, opts: { role: Role; languages?: string[]; email?: string; password?: string }) {
  const email = opts.email ?? `${opts.role}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}@muselingo.test`;
  const password = opts.password ?? randomBytes(12).toString("base64url");
  const invited = await call<{ invitationUrl: string }>(who, "invite_member", {
    email,
    role: opts.role,
    ...(opts.languages ? { languages: opts.languages } : {}),
  });
  const own = await request.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const accepted = await own.post(new URL(invited.invitationUrl).pathname, { data: { password } });
    expect(accepted.status(), "accept the invitation").toBe(200);
    const { user } = (await accepted.json()) as { user: { id: number; email: string; role: Role; languages: string[] } };
    return { userId: user.id, email, password, role: user.role, languages: user.languages };
  } finally {
    await own.dispose();
  }
}
