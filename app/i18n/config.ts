import i18next, { createInstance, type i18n, type TFunction } from "i18next";
import enCommon from "../../locales/en/common.json";
import frCommon from "../../locales/fr/common.json";

export const SUPPORTED_LOCALES = ["fr", "en"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "fr";
export const DEFAULT_NS = "common";

/**
 * Both locales' strings, imported as modules (Workers have no filesystem to load them from). Server and
 * tests only: the browser receives only the page language's strings (app/i18n/client.ts, decision 077).
 * Client code must not use this: the client build drops it only because nothing there reads it, and
 * tests/unit/client-strings.test.ts fails if the other language's strings reach the editor's JavaScript.
 */
export const resources = {
  fr: { common: frCommon },
  en: { common: enCommon },
} as const;

export const i18nOptions = {
  supportedLngs: [...SUPPORTED_LOCALES],
  fallbackLng: DEFAULT_LOCALE,
  defaultNS: DEFAULT_NS,
  ns: [DEFAULT_NS],
  interpolation: { escapeValue: false },
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

// On the server: one i18next instance holding both locales, initialised synchronously on first use (the
// resources are inline), for code that runs outside React: meta functions and the error pages' titles.
let standalone: i18n | undefined;
function serverInstance(): i18n {
  if (!standalone) {
    standalone = createInstance({ ...i18nOptions, resources, lng: DEFAULT_LOCALE, initImmediate: false });
    void standalone.init();
  }
  return standalone;
}

/**
 * i18next's `t` fixed to one locale, for meta functions and other code outside React. On the server, prefer
 * `i18nServer.getFixedT(request)`. In the browser it reads the instance entry.client initialised with the
 * page language's strings (a language switch loads the new language's strings before the page changes).
 * `import.meta.env.SSR` is a build-time constant: the client build keeps only the second branch, so
 * `resources` (both locales) never reaches the browser.
 */
export function fixedT(locale: Locale): TFunction {
  if (import.meta.env.SSR) return serverInstance().getFixedT(locale);
  return i18next.getFixedT(locale);
}
