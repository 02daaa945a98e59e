import { createInstance, type TFunction } from "i18next";
import enCommon from "../../locales/en/common.json";
import frCommon from "../../locales/fr/common.json";

export const SUPPORTED_LOCALES = ["fr", "en"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "fr";
export const DEFAULT_NS = "common";

// Imported as modules: Workers have no filesystem to load them from, and both are small.
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

// One i18next instance holding both locales, initialised synchronously (the resources are inline), for
// code that runs outside React: meta functions and the error pages' titles. Plurals and
// interpolation work as in components.
const standalone = createInstance({ ...i18nOptions, resources, lng: DEFAULT_LOCALE, initImmediate: false });
void standalone.init();

/** i18next's `t` fixed to one locale. On the server, prefer `i18nServer.getFixedT(request)`. */
export function fixedT(locale: Locale): TFunction {
  return standalone.getFixedT(locale);
}
