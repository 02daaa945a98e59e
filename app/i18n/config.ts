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

/** A translator usable outside React (meta functions, error pages before hydration). */
export function translate(locale: Locale, key: string, vars: Record<string, string | number> = {}): string {
  let node: unknown = resources[locale].common;
  for (const part of key.split(".")) {
    node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  }
  if (typeof node !== "string") return key;
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ""));
}
