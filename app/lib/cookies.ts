// The one cookie reader of the app (sessions, the visitor's language). Any client writes the Cookie header,
// so nothing in it may throw: `muselingo_lang=%` was a 500 on every visitor page (issue 16).

/** Longer headers are cut before parsing: no cookie of ours needs more, and a request never waits on junk. */
const MAX_HEADER_CHARS = 4096;

/**
 * The value of cookie `name` in a Cookie header (RFC 6265 §5.2: `name=value` pairs split on ";", a value
 * optionally in double quotes, percent-decoded), or undefined when it is absent, has no "=", or its
 * percent-escapes are broken.
 */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  for (const part of (header ?? "").slice(0, MAX_HEADER_CHARS).split(";")) {
    const at = part.indexOf("=");
    if (at === -1 || part.slice(0, at).trim() !== name) continue;
    const raw = part
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
