// The visitor's display choices (issue 22 §3, decision 097): larger text (two steps), high contrast, more
// spacing between letters and lines. Kept in one cookie, applied as classes on the page's <html> when the
// page is rendered (never inside the cached rendering of an article's content), so one cached translation
// serves every visitor whatever they chose. No JavaScript: a form posts to /display, which sets the cookie.
import { readCookie } from "~/lib/cookies";

export const DISPLAY_COOKIE = "muselingo_display";
const ONE_YEAR = 365 * 24 * 3600;

export interface DisplayChoices {
  /** 0 normal, 1 larger (125 %), 2 largest (150 %). */
  text: 0 | 1 | 2;
  contrast: boolean;
  spacing: boolean;
}

export const DEFAULT_DISPLAY: DisplayChoices = { text: 0, contrast: false, spacing: false };

/**
 * The cookie's value: dot-separated tokens, `t1`|`t2`, `c`, `s` (e.g. `t2.c.s`), "" for the defaults.
 * Anything else — an unknown or repeated token, a long value, broken escapes — gives the defaults: a
 * public page reads a header any client writes and must never fail on it.
 */
export function parseDisplay(value: string | undefined | null): DisplayChoices {
  if (!value || value.length > 16) return { ...DEFAULT_DISPLAY };
  const out: DisplayChoices = { ...DEFAULT_DISPLAY };
  const seen = new Set<string>();
  for (const token of value.split(".")) {
    if (seen.has(token)) return { ...DEFAULT_DISPLAY };
    seen.add(token);
    if (token === "t1" && !seen.has("t2")) out.text = 1;
    else if (token === "t2" && !seen.has("t1")) out.text = 2;
    else if (token === "c") out.contrast = true;
    else if (token === "s") out.spacing = true;
    else return { ...DEFAULT_DISPLAY };
  }
  return out;
}

export function serializeDisplay(choices: DisplayChoices): string {
  return [choices.text ? `t${choices.text}` : "", choices.contrast ? "c" : "", choices.spacing ? "s" : ""].filter(Boolean).join(".");
}

/** The request's display choices (the defaults when the cookie is absent or unreadable). */
export function displayFromRequest(request: Request): DisplayChoices {
  return parseDisplay(readCookie(request.headers.get("Cookie"), DISPLAY_COOKIE));
}

/** The classes of the page's <html> for these choices ("" for the defaults). */
export function displayClasses(choices: DisplayChoices): string {
  return [choices.text ? `v-text-${choices.text}` : "", choices.contrast ? "v-contrast" : "", choices.spacing ? "v-spacing" : ""].filter(Boolean).join(" ");
}

/** Set-Cookie keeping the choices a year (cleared when they are the defaults). */
export function displayCookie(choices: DisplayChoices, secure: boolean): string {
  const value = serializeDisplay(choices);
  const flags = `Path=/; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`;
  return value ? `${DISPLAY_COOKIE}=${value}; Max-Age=${ONE_YEAR}; ${flags}` : `${DISPLAY_COOKIE}=; Max-Age=0; ${flags}`;
}

/** The form's fields as choices: `text` 0–2, `contrast` and `spacing` checked ("1"). Junk reads as the default. */
export function displayFromForm(form: { get(name: string): unknown }): DisplayChoices {
  const text = form.get("text");
  return {
    text: text === "1" ? 1 : text === "2" ? 2 : 0,
    contrast: form.get("contrast") === "1",
    spacing: form.get("spacing") === "1",
  };
}
