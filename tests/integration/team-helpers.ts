import { env, SELF } from "cloudflare:test";
import { BASE, get, postJson, sessionCookieFrom, staffSession, type StaffSession } from "./helpers";

type Json = Record<string, unknown>;

let ipCounter = 0;
/** A client address of its own, so one test's link lookups never use another's guess budget. */
export function freshAddress(): string {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

export const PASSWORD = "a long enough password";

export function uniqueEmail(prefix = "member"): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;
}

/** `POST /api/manage/invite_member` as the admin. */
export async function invite(admin: StaffSession, body: Json) {
  return admin.call("invite_member", body);
}

/** The path of a link (`/invite/…`, `/reset/…`) from the URL an admin got. */
export const pathOf = (url: string) => new URL(url).pathname;

/** Uses a link with JSON `{password}` from its own client address (unless given). */
export function followLink(url: string, password = PASSWORD, headers: Record<string, string> = {}) {
  return postJson(pathOf(url), { password }, { "CF-Connecting-IP": freshAddress(), ...headers });
}

/** A new member of the admin's museum, by invitation and acceptance; returns their id, e-mail and cookie. */
export async function addMember(admin: StaffSession, role: string, languages?: string[]) {
  const email = uniqueEmail(role);
  const invited = await invite(admin, { email, role, ...(languages ? { languages } : {}) });
  if (invited.status !== 200) throw new Error(`invite_member: ${invited.status} ${JSON.stringify(invited.body)}`);
  const accepted = await followLink(invited.body.invitationUrl as string);
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${await accepted.text()}`);
  const body = (await accepted.json()) as { user: { id: number } };
  const cookie = sessionCookieFrom(accepted);
  const call = async (name: string, payload: unknown) => {
    const response = await postJson(`/api/manage/${name}`, payload, { Cookie: cookie });
    return { status: response.status, body: (await response.json()) as Json };
  };
  return { userId: body.user.id, email, cookie, call };
}

/** An admin of a fresh museum (the operator's first user). */
export const newAdmin = staffSession;

export async function userRow(id: number) {
  return env.DB.prepare("SELECT id, museum_id, email, role, languages FROM users WHERE id = ?").bind(id).first<{
    id: number;
    museum_id: number;
    email: string;
    role: string;
    languages: string;
  }>();
}

/** Whether a session cookie still opens a staff call. */
export async function cookieWorks(cookie: string): Promise<boolean> {
  const response = await get("/api/read/glossary", cookie);
  if (response.status === 401) return false;
  // Any role: 200 or 403 both mean the session exists.
  return response.status === 200 || response.status === 403;
}

export function postForm(path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
  return SELF.fetch(`${BASE}${path}`, { method: "POST", headers: { Host: "localhost", Origin: BASE, ...headers }, body, redirect: "manual" });
}
