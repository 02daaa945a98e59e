import { SELF } from "cloudflare:test";

// The integration tests' requests to the built Worker (SELF): JSON posts, pages, the login. The builders
// (./builders.ts) and every test file use these; ./helpers.ts re-exports them.

export const BASE = "http://localhost";

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

/**
 * A client address of its own for each test login (from 2001:db8::/32, the documentation range). Test files share
 * their runtime's D1 (decision 130), and the login limiter counts failures per address for 15 minutes: without an
 * address every request is "local", so ten refused logins anywhere in the runtime (tests of refusals) made every
 * later file's logins answer 429 — in whichever files happened to share a runtime with them.
 */
let logins = 0;
export const freshClientAddress = () => `2001:db8:${(Date.now() % 0xffff).toString(16)}:${crypto.randomUUID().slice(0, 4)}::${(++logins).toString(16)}`;

export async function logIn(user: { email: string; password: string }, headers: Record<string, string> = {}): Promise<string> {
  const response = await postJson("/login", { email: user.email, password: user.password }, { "CF-Connecting-IP": freshClientAddress(), ...headers });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return sessionCookieFrom(response);
}

export function get(path: string, cookie?: string, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers },
    redirect: "manual",
  });
}
