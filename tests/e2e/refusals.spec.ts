import { expect, test, type Staff } from "./fixtures";

// Issue 29 §5 (decision 121): a request refused before (or while) its body is read must not break the next one.
// Under `wrangler dev` (what `npm start` and this suite's server run), a Worker that cancelled the refused
// body left wrangler's dev proxy with a dead connection to the Worker: the next POST answered 503 "Your
// worker restarted mid-request" (a GET waited for another request). The proxy is where it breaks, so this
// runs against the suite's own `wrangler dev`, from Node with keep-alive as a browser does, not in the
// browser (it cannot send every kind) nor in vitest-pool-workers (no proxy there).
//
// Each kind of refusal is sent ROUNDS times with a 2 MB body, each followed by a normal POST that must
// succeed. No retry for this file: CI's one retry is what hid this defect.
//
// Six rounds, not twenty (decision 130): with the defect, the next POST succeeded 0/20 times for 14 kinds and at
// most 6/20 for the others (decision 121), so six rounds in a row all succeeding by chance is at most 0.3^6 =
// 0.07 % for the luckiest kind, while twenty rounds of 2 MB bodies cost the end-to-end lane about 20 s of CPU.
test.describe.configure({ retries: 0 });

const ROUNDS = 6;
const BIG = 2 * 1024 * 1024;
const BOUNDARY = "----muselingo-refusal";
const encoder = new TextEncoder();

type Who = "nobody" | "admin" | "viewer";

interface Sent {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body: Uint8Array | string;
  /** Sent as a stream (chunked, no Content-Length), so the size is only found out while reading. */
  streamed?: boolean;
}

interface Kind {
  name: string;
  who: Who;
  status: number;
  refused: () => Sent;
  /** The normal POST after it: a new folder (default), or the language form for an empty museum. */
  next?: "folder" | "language";
}

/** 2 MB of JSON that parses. */
const bigJson = () => JSON.stringify({ pathArray: [], id: "x".repeat(BIG) });
const bigText = () => "y".repeat(BIG);
const bigForm = () => `lng=fr&redirectTo=${"z".repeat(BIG)}`;
const json = { "Content-Type": "application/json" };
const multipartType = { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` };

/** A multipart body: `fields` first, then a 2 MB file in the field `file` that starts as a PNG does. */
function bigMultipart(file: string, fields: Record<string, string> = {}): Uint8Array {
  const head =
    Object.entries(fields)
      .map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join("") + `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file}"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${BOUNDARY}--\r\n`;
  const out = new Uint8Array(head.length + BIG + tail.length);
  out.set(encoder.encode(head));
  out.fill(0x61, head.length, head.length + BIG);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], head.length);
  out.set(encoder.encode(tail), head.length + BIG);
  return out;
}

const KINDS: Kind[] = [
  // JSON calls (jsonAction, readJsonBody).
  { name: "401 JSON call without a session", who: "nobody", status: 401, refused: () => ({ path: "/api/manage/add_folder", headers: json, body: bigJson() }) },
  { name: "403 JSON call of a viewer", who: "viewer", status: 403, refused: () => ({ path: "/api/manage/add_folder", headers: json, body: bigJson() }) },
  {
    name: "403 cross-site write",
    who: "admin",
    status: 403,
    refused: () => ({ path: "/api/manage/add_folder", headers: { ...json, "Sec-Fetch-Site": "cross-site" }, body: bigJson() }),
  },
  {
    name: "405 PUT to a POST call",
    who: "admin",
    status: 405,
    refused: () => ({ method: "PUT", path: "/api/manage/add_folder", headers: json, body: bigJson() }),
  },
  { name: "405 POST to a GET call", who: "admin", status: 405, refused: () => ({ path: "/api/read/articles", headers: json, body: bigJson() }) },
  {
    name: "413 JSON body over 1 MB (Content-Length)",
    who: "admin",
    status: 413,
    refused: () => ({ path: "/api/manage/add_folder", headers: json, body: bigJson() }),
  },
  {
    name: "413 JSON body over 1 MB found while reading (no Content-Length)",
    who: "admin",
    status: 413,
    refused: () => ({ path: "/api/manage/add_folder", headers: json, body: bigJson(), streamed: true }),
  },
  {
    name: "415 JSON call with a text body",
    who: "admin",
    status: 415,
    refused: () => ({ path: "/api/manage/add_folder", headers: { "Content-Type": "text/plain" }, body: bigText() }),
  },
  // Uploads (multipartAction, the streamed multipart reader).
  {
    name: "401 upload without a session",
    who: "nobody",
    status: 401,
    refused: () => ({ path: "/api/upload/image", headers: multipartType, body: bigMultipart("image") }),
  },
  {
    name: "403 upload of a viewer",
    who: "viewer",
    status: 403,
    refused: () => ({ path: "/api/upload/image", headers: multipartType, body: bigMultipart("image") }),
  },
  {
    name: "413 upload over the image limit (Content-Length)",
    who: "admin",
    status: 413,
    refused: () => ({ path: "/api/upload/image", headers: multipartType, body: bigMultipart("image") }),
  },
  {
    name: "413 upload over the image limit found while reading (no Content-Length)",
    who: "admin",
    status: 413,
    refused: () => ({ path: "/api/upload/image", headers: multipartType, body: bigMultipart("image"), streamed: true }),
  },
  { name: "415 upload that is not multipart", who: "admin", status: 415, refused: () => ({ path: "/api/upload/image", headers: json, body: bigJson() }) },
  {
    name: "400 upload refused halfway (an unknown field before the file)",
    who: "admin",
    status: 400,
    refused: () => ({ path: "/api/upload/video", headers: multipartType, body: bigMultipart("video", { bogus: "1" }) }),
  },
  // The museum archive (a raw body read by the ZIP reader).
  {
    name: "401 archive import without a session",
    who: "nobody",
    status: 401,
    next: "language",
    refused: () => ({ path: "/api/manage/import_museum", headers: { "Content-Type": "application/zip" }, body: bigText() }),
  },
  {
    name: "415 archive import that is not a ZIP type",
    who: "admin",
    status: 415,
    next: "language",
    refused: () => ({ path: "/api/manage/import_museum", headers: { "Content-Type": "text/plain" }, body: bigText() }),
  },
  {
    name: "400 archive import refused halfway (not a ZIP file)",
    who: "admin",
    status: 400,
    next: "language",
    refused: () => ({ path: "/api/manage/import_museum", headers: { "Content-Type": "application/zip" }, body: bigText() }),
  },
  // Forms of pages and resources (readFormBody), and Remix's own 405.
  {
    name: "413 language form over its limit",
    who: "nobody",
    status: 413,
    refused: () => ({ path: "/resources/language", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: bigForm() }),
  },
  {
    name: "415 display form with a text body",
    who: "nobody",
    status: 415,
    refused: () => ({ path: "/display", headers: { "Content-Type": "text/plain" }, body: bigText() }),
  },
  {
    name: "405 POST to a page without an action",
    who: "nobody",
    status: 405,
    refused: () => ({ path: "/", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: bigForm() }),
  },
];

/** The server itself (wrangler listens on 127.0.0.1; Node may try ::1 first for "localhost"). */
const origin = (baseURL: string | undefined) => new URL(baseURL ?? "http://localhost:8790").origin.replace("//localhost:", "//127.0.0.1:");

async function send(base: string, sent: Sent, cookie: string | null): Promise<{ status: number | string; body: string }> {
  const headers = { ...sent.headers, ...(cookie ? { Cookie: cookie } : {}) };
  const bytes = typeof sent.body === "string" ? encoder.encode(sent.body) : sent.body;
  const body = sent.streamed
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.slice(at, at + 64 * 1024));
          controller.close();
        },
      })
    : bytes;
  try {
    const init = { method: sent.method ?? "POST", headers, body, redirect: "manual", duplex: "half", signal: AbortSignal.timeout(30_000) };
    const response = await fetch(`${base}${sent.path}`, init as RequestInit);
    return { status: response.status, body: (await response.text()).slice(0, 200) };
  } catch (error) {
    // The refusal itself lost on the way (a closed connection): what the client saw.
    return { status: `network error: ${String((error as Error).cause ?? error)}`.slice(0, 200), body: "" };
  }
}

async function logIn(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/login`, { method: "POST", headers: json, body: JSON.stringify({ email, password }) });
  expect(response.status, "login").toBe(200);
  await response.arrayBuffer();
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("muselingo_session="));
  expect(cookie, "session cookie").toBeTruthy();
  return cookie!.split(";")[0]!;
}

/** A viewer of the staff's museum, by invitation (decision 044). */
async function viewerOf(base: string, admin: string): Promise<string> {
  const email = `viewer-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@muselingo.test`;
  const invited = await fetch(`${base}/api/manage/invite_member`, {
    method: "POST",
    headers: { ...json, Cookie: admin },
    body: JSON.stringify({ email, role: "viewer" }),
  });
  expect(invited.status, "invite_member").toBe(200);
  const { invitationUrl } = (await invited.json()) as { invitationUrl: string };
  const accepted = await fetch(`${base}${new URL(invitationUrl).pathname}`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ password: "a long enough password" }),
  });
  expect(accepted.status, "accept the invitation").toBe(200);
  await accepted.arrayBuffer();
  return accepted.headers
    .getSetCookie()
    .find((c) => c.startsWith("muselingo_session="))!
    .split(";")[0]!;
}

for (const kind of KINDS) {
  test(`after a refusal (${kind.name}) with a 2 MB body, the next POST is served, ${ROUNDS} times in ${ROUNDS}`, async ({ staff, baseURL }) => {
    test.setTimeout(180_000);
    const base = origin(baseURL);
    const admin = await logIn(base, (staff as Staff).email, staff.password);
    const cookie = kind.who === "nobody" ? null : kind.who === "viewer" ? await viewerOf(base, admin) : admin;
    const failures: string[] = [];
    let served = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const refused = await send(base, kind.refused(), cookie);
      const next =
        kind.next === "language"
          ? await send(
              base,
              { path: "/resources/language", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "lng=en&redirectTo=%2Fdashboard" },
              null,
            )
          : await send(
              base,
              { path: "/api/manage/add_folder", headers: json, body: JSON.stringify({ pathArray: [], id: `Salle ${round} ${Date.now().toString(36)}` }) },
              admin,
            );
      const nextOk = kind.next === "language" ? next.status === 302 : next.status === 200;
      if (refused.status !== kind.status) failures.push(`round ${round}: the refusal answered ${refused.status} ${refused.body}`);
      if (nextOk) served++;
      else failures.push(`round ${round}: the next POST answered ${next.status} ${next.body}`);
    }
    console.log(`${kind.name}: next POST served ${served}/${ROUNDS}`);
    expect(failures, `${kind.name}: next POST served ${served}/${ROUNDS}`).toEqual([]);
  });
}
