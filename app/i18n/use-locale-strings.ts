import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { ensureLocale } from "./client";
import type { Locale } from "./config";

/**
 * Follows the root loader's locale in the browser. The page was hydrated with its own language's strings
 * only (decision 077): when the locale changes (a language switch, a login with another language's cookie),
 * the new language's strings are fetched first, then i18next switches, so no raw key is ever shown. If they
 * cannot be fetched (offline, a newer deploy replaced the file), the page reloads in the new language.
 */
export function useLocaleStrings(locale: Locale) {
  const { i18n } = useTranslation();
  useEffect(() => {
    if (i18n.language === locale) return;
    let cancelled = false;
    ensureLocale(i18n, locale)
      .then(() => {
        if (!cancelled) void i18n.changeLanguage(locale);
      })
      .catch(() => {
        if (!cancelled) window.location.reload();
      });
    return () => {
      cancelled = true;
    };
  }, [locale, i18n]);
}
