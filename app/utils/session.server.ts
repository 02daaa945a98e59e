import { redirect } from "@remix-run/cloudflare";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { findSessionUser, SESSION_TTL_MS, type SessionUser } from "~/models/auth.server";
import { readCookie } from "~/lib/cookies";
import { assertCan, can, type Permission } from "~/teams/roles";
import { apiError, isLocalHost } from "./http.server";
import { refusePage } from "./page.server";
import { isDomainError, type DomainError } from "~/errors";

export const SESSION_COOKIE = "muselingo_session";

export function sessionToken(request: Request): string | null {
  const token = readCookie(request.headers.get("Cookie"), SESSION_COOKIE);
  return token && /^(?:[1-9]\d{0,15}\.)?[A-Za-z0-9_-]{20,100}$/.test(token) ? token : null;
}

function cookieAttributes(request: Request): string {
  const secure = isLocalHost(new URL(request.url)) ? "" : "; Secure";
  return `Path=/; HttpOnly; SameSite=Lax${secure}`;
}

export function sessionCookie(request: Request, token: string): string {
  return `${SESSION_COOKIE}=${token}; ${cookieAttributes(request)}; Max-Age=${SESSION_TTL_MS / 1000}`;
}

export function clearSessionCookie(request: Request): string {
  return `${SESSION_COOKIE}=; ${cookieAttributes(request)}; Max-Age=0`;
}

// One lookup per request even when several loaders ask.
const cache = new WeakMap<Request, Promise<SessionUser | null>>();

export function getUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  let pending = cache.get(request);
  if (!pending) {
    const token = sessionToken(request);
    pending = token ? findSessionUser(context.db, token) : Promise.resolve(null);
    cache.set(request, pending);
  }
  return pending;
}

/**
 * For pages: a visitor without a session goes to /login and comes back afterwards; a member whose role lacks
 * `permission` gets the 403 page (decision 040). A resource route (a download: no page to show the error)
 * passes `refuseResource`, so the 403 is the JSON refusal rather than Remix's "Unexpected Server Error".
 */
export async function requireUser(
  request: Request,
  context: AppLoadContext,
  permission: Permission,
  refuse: (error: DomainError) => never = refusePage,
): Promise<SessionUser> {
  const user = await getUser(request, context);
  if (!user) {
    const url = new URL(request.url);
    const back = url.pathname + url.search;
    throw redirect(back === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`);
  }
  try {
    assertCan(user, permission);
  } catch (error) {
    if (isDomainError(error)) refuse(error);
    throw error;
  }
  return user;
}

/** For the JSON API: 401 without a session, 403 `forbidden` when the member's role lacks `permission`. */
export async function requireApiUser(request: Request, context: AppLoadContext, permission: Permission): Promise<SessionUser> {
  const user = await getUser(request, context);
  if (!user) throw apiError(401, "unauthorized", "Log in first");
  if (!can(user, permission)) throw apiError(403, "forbidden", "Your role in this museum does not allow this");
  return user;
}

/**
 * Only same-site paths, so a crafted link cannot send a user elsewhere after login: a single leading
 * slash, no backslash, and no control or whitespace character that a browser would strip or reinterpret.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || to.length > 2048 || !to.startsWith("/") || to.startsWith("//")) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]/u.test(to)) return fallback;
  return to;
}
