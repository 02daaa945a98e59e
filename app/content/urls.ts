// The URL rules of article content, used by the schema when content is written and again by the renderer,
// so bad stored data can never put a javascript: address into a page.

export const URL_MAX_LENGTH = 2048;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:", "tel:"]);
export const MEDIA_PREFIX = "/media/";
const MEDIA_BASE = "https://media.invalid";

function parseAbsolute(raw: unknown): URL | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > URL_MAX_LENGTH) return null;
  if (CONTROL.test(raw) || raw.trim() !== raw) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/**
 * The href to render for a link target, or null: only absolute http:, https:, mailto: and tel: URLs,
 * without credentials, are kept. The URL parser decides the protocol, never a prefix test.
 */
export function safeLinkHref(raw: unknown): string | null {
  const url = parseAbsolute(raw);
  if (!url || !LINK_PROTOCOLS.has(url.protocol)) return null;
  if (url.username || url.password) return null;
  if ((url.protocol === "mailto:" || url.protocol === "tel:") && url.pathname.trim() === "") return null;
  return url.href;
}

/**
 * The src to render for an image, video or subtitle file, or null: this app's `/media/…` paths (already
 * normalised: no `..`, no query) or an https: URL without credentials.
 */
export function safeMediaSrc(raw: unknown): string | null {
  if (typeof raw === "string" && raw.startsWith("/")) {
    if (!raw.startsWith(MEDIA_PREFIX) || raw.length === MEDIA_PREFIX.length) return null;
    if (raw.length > URL_MAX_LENGTH || CONTROL.test(raw)) return null;
    try {
      const url = new URL(raw, MEDIA_BASE);
      return url.origin === MEDIA_BASE && url.pathname === raw ? raw : null;
    } catch {
      return null;
    }
  }
  const url = parseAbsolute(raw);
  if (!url || url.protocol !== "https:" || url.username || url.password) return null;
  return url.href;
}

/** What a link shows when it has no label: the address without its scheme. */
export function linkDisplayText(href: string): string {
  const url = new URL(href);
  if (url.protocol === "mailto:" || url.protocol === "tel:") return decodeSafely(url.pathname);
  const path = url.pathname === "/" ? "" : url.pathname;
  return decodeSafely(`${url.host}${path}`);
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
