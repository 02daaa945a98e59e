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

export async function logIn(user: { email: string; password: string }, headers: Record<string, string> = {}): Promise<string> {
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
