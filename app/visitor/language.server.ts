import { findLanguage, negotiateLanguage } from "~/translation/languages";

/** Remembers the visitor's choice across codes and museums of this host. */
export const LANGUAGE_COOKIE = "muselingo_lang";
const ONE_YEAR = 365 * 24 * 3600;

export interface LanguageChoice {
  lang: string;
  /** `?lang=` named a catalogue language: the visitor chose it (a view, not a scan). */
  chosen: boolean;
  /** Set-Cookie remembering the choice, when one was made. */
  setCookie?: string;
}

function cookieValue(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return undefined;
}

/**
 * The reading language (issue 8): `?lang=`, then the language chosen before (cookie), then the browser's
 * Accept-Language (best catalogue match, `pt-BR` → `pt`), then the museum's source language. A `?lang=`
 * the catalogue does not know is ignored rather than refused: a visitor always gets a page.
 */
export function chooseLanguage(request: Request, sourceLang: string): LanguageChoice {
  const url = new URL(request.url);
  const asked = findLanguage(url.searchParams.get("lang") ?? "");
  if (asked) {
    const secure = url.protocol === "https:" ? "; Secure" : "";
    return { lang: asked.code, chosen: true, setCookie: `${LANGUAGE_COOKIE}=${asked.code}; Path=/; Max-Age=${ONE_YEAR}; SameSite=Lax; HttpOnly${secure}` };
  }
  const remembered = findLanguage(cookieValue(request, LANGUAGE_COOKIE) ?? "");
  if (remembered) return { lang: remembered.code, chosen: false };
  const negotiated = negotiateLanguage(request.headers.get("Accept-Language"));
  return { lang: negotiated ?? findLanguage(sourceLang)?.code ?? sourceLang, chosen: false };
}

/** The languages a visitor most likely wants, for the top of the picker: browser's, current, source. */
export function likelyLanguages(request: Request, current: string, sourceLang: string): string[] {
  const out: string[] = [];
  const add = (code: string | undefined) => {
    const lang = code ? findLanguage(code) : undefined;
    if (lang && !out.includes(lang.code)) out.push(lang.code);
  };
  add(current);
  for (const part of (request.headers.get("Accept-Language") ?? "").split(",")) add(part.split(";")[0]?.trim());
  add(cookieValue(request, LANGUAGE_COOKIE));
  add(sourceLang);
  return out.slice(0, 8);
}
