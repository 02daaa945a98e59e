import { readCookie } from "~/lib/cookies";
import { findLanguage, negotiateLanguage } from "~/translation/languages";

/** Remembers the visitor's choice across codes and museums of this host. */
export const LANGUAGE_COOKIE = "muselingo_lang";
const ONE_YEAR = 365 * 24 * 3600;
// Longer headers are cut before parsing: no catalogue tag list needs more, and the page never waits on junk.
const MAX_HEADER_CHARS = 4096;

export interface LanguageChoice {
  lang: string;
  /** `?lang=` named a catalogue language: the visitor chose it (a view, not a scan). */
  chosen: boolean;
  /** Set-Cookie remembering the choice, when one was made. */
  setCookie?: string;
}

/** The value of cookie `name`, never throwing (a public page reads a header any client writes). */
export function cookieValue(request: Request, name: string): string | undefined {
  return readCookie(request.headers.get("Cookie"), name);
}

function acceptLanguage(request: Request): string {
  return (request.headers.get("Accept-Language") ?? "").slice(0, MAX_HEADER_CHARS);
}

/** The reading language named by `?lang=`, if the catalogue knows it. */
function askedLanguage(url: URL): string | undefined {
  return findLanguage(url.searchParams.get("lang") ?? "")?.code;
}

/**
 * The reading language (decision 019): `?lang=`, then the language chosen before (cookie), then the
 * browser's Accept-Language (best catalogue match, `pt-BR` → `pt`), then `fallback` (the museum's source
 * language). A `?lang=`, cookie or header the catalogue does not know is ignored rather than refused: a
 * visitor always gets a page.
 */
export function chooseLanguage(request: Request, fallback: string): LanguageChoice {
  const url = new URL(request.url);
  const asked = askedLanguage(url);
  if (asked) {
    const secure = url.protocol === "https:" ? "; Secure" : "";
    return { lang: asked, chosen: true, setCookie: `${LANGUAGE_COOKIE}=${asked}; Path=/; Max-Age=${ONE_YEAR}; SameSite=Lax; HttpOnly${secure}` };
  }
  const remembered = findLanguage(cookieValue(request, LANGUAGE_COOKIE) ?? "");
  if (remembered) return { lang: remembered.code, chosen: false };
  const negotiated = negotiateLanguage(acceptLanguage(request));
  return { lang: negotiated ?? findLanguage(fallback)?.code ?? fallback, chosen: false };
}

/**
 * The language of a page that belongs to no museum (an unknown code): the same rules, falling back to
 * English for a browser that asks only for languages outside the catalogue, French when it asks nothing.
 */
export function chooseLanguageWithoutMuseum(request: Request): LanguageChoice {
  return chooseLanguage(request, acceptLanguage(request).trim() === "" ? "fr" : "en");
}

/** The languages a visitor most likely wants, for the top of the picker: current, browser's, remembered, source. */
export function likelyLanguages(request: Request, current: string, sourceLang?: string): string[] {
  const out: string[] = [];
  const add = (code: string | undefined) => {
    const lang = code ? findLanguage(code) : undefined;
    if (lang && !out.includes(lang.code)) out.push(lang.code);
  };
  add(current);
  for (const part of acceptLanguage(request).split(",").slice(0, 20)) add(part.split(";")[0]?.trim());
  add(cookieValue(request, LANGUAGE_COOKIE));
  add(sourceLang);
  return out.slice(0, 8);
}
