import { env, SELF } from "cloudflare:test";
import { hashPassword } from "~/lib/password.server";

export const BASE = "http://localhost";

let counter = 0;
function unique(prefix: string) {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

export interface TestUser {
  museumId: number;
  museumSlug: string;
  userId: number;
  email: string;
  password: string;
}

export const DEFAULT_PASSWORD = "correct horse battery";
let defaultHash: Promise<string> | undefined;
/**
 * The default password's hash, made once per test file (PBKDF2 at 100,000 iterations is the dearest step of a
 * fresh museum): users made without a password of their own share it, salt included. A test that needs its own
 * salt passes a password (tests/integration/auth.test.ts "uses a different salt for each user").
 */
export function defaultPasswordHash(): Promise<string> {
  defaultHash ??= hashPassword(DEFAULT_PASSWORD);
  return defaultHash;
}

/** A museum with one staff user, written straight to D1 as the operator scripts do. */
export async function createMuseumWithUser(opts: { password?: string; email?: string } = {}): Promise<TestUser> {
  const museumSlug = unique("museum");
  const email = opts.email ?? `${unique("staff")}@example.org`;
  const password = opts.password ?? DEFAULT_PASSWORD;
  const hash = opts.password === undefined ? await defaultPasswordHash() : await hashPassword(password);
  const museum = await env.DB.prepare("INSERT INTO museums (name, slug) VALUES (?, ?) RETURNING id")
    .bind(`Museum ${museumSlug}`, museumSlug)
    .first<{ id: number }>();
  const user = await env.DB.prepare("INSERT INTO users (museum_id, email, password_hash) VALUES (?, ?, ?) RETURNING id")
    .bind(museum!.id, email.toLowerCase(), hash)
    .first<{ id: number }>();
  return { museumId: museum!.id, museumSlug, userId: user!.id, email, password };
}

export function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    // Real browsers always send Host; Remix compares it with Origin on document POSTs.
    headers: { "Content-Type": "application/json", Host: "localhost", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    redirect: "manual",
  });
}

export function sessionCookieFrom(response: Response): string {
  const setCookie = response.headers.get("Set-Cookie") ?? "";
  const match = /muselingo_session=([^;]*)/.exec(setCookie);
  if (!match?.[1]) throw new Error(`no session cookie in: ${setCookie}`);
  return `muselingo_session=${match[1]}`;
}

export async function logIn(user: Pick<TestUser, "email" | "password">, headers: Record<string, string> = {}): Promise<string> {
  const response = await postJson("/login", { email: user.email, password: user.password }, headers);
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return sessionCookieFrom(response);
}

export function get(path: string, cookie?: string, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers },
    redirect: "manual",
  });
}

type Json = Record<string, unknown>;

/** A fresh museum's logged-in user with shortcuts for the JSON API. */
export async function staffSession() {
  const user = await createMuseumWithUser();
  const cookie = await logIn(user);
  const call = async (name: string, body: unknown) => {
    const response = await postJson(`/api/manage/${name}`, body, { Cookie: cookie });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const read = async (path: string) => {
    const response = await get(path, cookie);
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const tree = async () => (await read("/api/tree")).body as Json[];
  return { user, cookie, call, read, tree };
}

export type StaffSession = Awaited<ReturnType<typeof staffSession>>;

/** Publishes the article's saved draft now (`publish_article` with its current version); checked. */
export async function publishNow(s: Pick<StaffSession, "call" | "read">, articleId: number) {
  const current = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { version: number; status: string };
  if (current.status === "published") return current.version;
  const published = await s.call("publish_article", { id: articleId, version: current.version });
  if (published.status !== 200) throw new Error(`publish_article: ${published.status} ${JSON.stringify(published.body)}`);
  return current.version;
}

/** Text elements, one per string, for `publishArticle`. */
export const texts = (lines: readonly string[]) => lines.map((content) => ({ type: "text", content }));

/**
 * A new article at the root whose content is `elements` after its metadata, published and linked to a new QR
 * code (each step checked). Returns its id, its address (slug), the code and `edit` to save and publish new
 * elements over it.
 */
export async function publishArticle(s: StaffSession, elements: readonly unknown[]) {
  const added = await s.call("add_article", { pathArray: [] });
  if (added.status !== 200) throw new Error(`add_article: ${added.status}`);
  const articleId = added.body.id as number;
  // Saves the draft and publishes it (decision 041: visitors see only what is published).
  const edit = async (next: readonly unknown[]) => {
    const current = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[]; version: number; name: string };
    const saved = await s.call("update_article", { articleId, version: current.version, newContent: [current.content[0], ...next] });
    if (saved.status !== 200) throw new Error(`update_article: ${saved.status} ${JSON.stringify(saved.body)}`);
    await publishNow(s, articleId);
    return current.name;
  };
  const slug = await edit(elements);
  const code = await s.call("add_qrcode", {});
  const linked = await s.call("update_qrcode", { qrcodeId: code.body.id, articleId });
  if (linked.status !== 200) throw new Error(`update_qrcode: ${linked.status}`);
  return { articleId, slug, link: code.body.link as string, qrcodeId: code.body.id as number, edit };
}

/**
 * The app Worker's env with its real local SCANS queue, each message also kept as the queue would deliver it
 * (a copy through JSON): call `worker.fetch(request, scans.env, ctx)`, await the context, read `scans.sent`
 * and hand it to the consumer (workers/stats-consumer) with createMessageBatch. The consumer is another Worker,
 * which the test runtime does not run (wrangler.toml binds only the producer here): the test delivers what the
 * real binding took. Decision 126.
 */
export function recordingScans<T>() {
  const sent: T[] = [];
  const queue = {
    send: async (body: unknown, options?: QueueSendOptions) => {
      await env.SCANS.send(body, options);
      sent.push(JSON.parse(JSON.stringify(body)) as T);
    },
    sendBatch: async (messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) => {
      const list = [...messages];
      await env.SCANS.sendBatch(list, options);
      for (const m of list) sent.push(JSON.parse(JSON.stringify(m.body)) as T);
    },
  } as unknown as Queue;
  return { sent, env: { ...env, SCANS: queue } as typeof env };
}
