import type { i18n } from "i18next";
// `?url`: each locale's strings are a static JSON file with a content hash in its name (served from /assets/
// with a year's immutable cache), not JavaScript: the page downloads only its own language (decision 077).
import enUrl from "../../locales/en/common.json?url";
import frUrl from "../../locales/fr/common.json?url";
import { DEFAULT_NS, type Locale } from "./config";

/** Where each locale's strings are. The root layout preloads the page language's file with the HTML. */
export const LOCALE_URLS: Record<Locale, string> = { fr: frUrl, en: enUrl };

type Strings = Record<string, unknown>;
const pending = new Map<Locale, Promise<Strings>>();

/** The locale's strings, fetched once per page (the preload in the HTML usually answers at once). */
export function fetchLocaleStrings(locale: Locale): Promise<Strings> {
  let promise = pending.get(locale);
  if (!promise) {
    promise = fetch(LOCALE_URLS[locale], { credentials: "same-origin" }).then((response) => {
      if (!response.ok) throw new Error(`Strings for ${locale}: HTTP ${response.status}`);
      return response.json() as Promise<Strings>;
    });
    // A failed fetch (offline, a deploy replaced the file) may be tried again later.
    promise.catch(() => pending.delete(locale));
    pending.set(locale, promise);
  }
  return promise;
}

/** Adds the locale's strings to the instance if it does not hold them yet. */
export async function ensureLocale(instance: i18n, locale: Locale): Promise<void> {
  if (instance.hasResourceBundle(locale, DEFAULT_NS)) return;
  const strings = await fetchLocaleStrings(locale);
  instance.addResourceBundle(locale, DEFAULT_NS, strings, true, true);
}
