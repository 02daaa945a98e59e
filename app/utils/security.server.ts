import { siteConfig } from "~/site-config";
import { apiError } from "./http.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A state-changing request sent by a page of another site (CSRF): refused whatever its cookies.
 * `Sec-Fetch-Site` decides where the browser sends it; otherwise `Origin`, and when a client sends
 * neither, a foreign `Referer`. Requests with none of them (scripts, API clients) carry no ambient
 * browser credentials worth forging.
 */
export function isCrossSiteWrite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const own = new URL(request.url).origin;
  const site = request.headers.get("Sec-Fetch-Site");
  if (site !== null) return site !== "same-origin" && site !== "none";
  const origin = request.headers.get("Origin");
  if (origin !== null) return origin !== own;
  const referer = request.headers.get("Referer");
  if (referer !== null) {
    try {
      return new URL(referer).origin !== own;
    } catch {
      return true;
    }
  }
  return false;
}

export function crossSiteRefusal(): Response {
  return apiError(403, "forbidden", "Cross-site requests are not accepted");
}

export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // React style attributes and react-hot-toast's injected styles.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src ${siteConfig.booking.origin}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** Uploaded files are served under this path, to anyone (visitor pages show them). */
export const PUBLIC_MEDIA_PREFIX = "/media/";

/** The invitation and password-reset pages (their address holds a secret token). */
export const MEMBER_LINK_PATH = /^\/(invite|reset)\//;

/** Adds the headers every response carries; HTML also gets the CSP with this request's nonce. */
export function withSecurityHeaders(response: Response, nonce: string, hasSessionCookie = false, pathname = ""): Response {
  const secured = new Response(response.body, response);
  const headers = secured.headers;
  headers.set("X-Content-Type-Options", "nosniff");
  // A member link's page carries its token in the address: never sent on, never cached (decision 044).
  const memberLink = MEMBER_LINK_PATH.test(pathname);
  headers.set("Referrer-Policy", memberLink ? "no-referrer" : "strict-origin-when-cross-origin");
  if (memberLink) headers.set("Cache-Control", "private, no-store");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  // Anything answered to a signed-in browser is about that user's museum: never kept by a cache. Not
  // media files: the same bytes go to everyone under a random, never-reused key, so they keep their
  // public immutable caching (an editor's browser would otherwise fetch every image and video again).
  if (hasSessionCookie && !pathname.startsWith(PUBLIC_MEDIA_PREFIX)) headers.set("Cache-Control", "private, no-store");
  const type = headers.get("Content-Type") ?? "";
  if (type.startsWith("text/html")) {
    headers.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  } else if (!headers.has("Content-Security-Policy")) {
    headers.set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  }
  return secured;
}
