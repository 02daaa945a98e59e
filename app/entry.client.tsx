import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { fetchLocaleStrings } from "./i18n/client";
import { DEFAULT_LOCALE, i18nOptions, isLocale } from "./i18n/config";

async function hydrate() {
  const lang = document.documentElement.lang;
  const lng = isLocale(lang) ? lang : DEFAULT_LOCALE;
  // Only the page language's strings (decision 077): fetched from the file the HTML already preloads, so
  // hydration renders exactly the server's text (no raw keys, no mismatch). Another language is fetched when
  // the person switches (app/components/language-switcher.tsx, useLocaleStrings in root.tsx).
  // If the file cannot be had (twice), the page stays as the server rendered it: readable, its links and
  // plain forms working, rather than hydrated with raw keys.
  const strings = await fetchLocaleStrings(lng).catch(() => fetchLocaleStrings(lng));
  await i18next.use(initReactI18next).init({ ...i18nOptions, lng, resources: { [lng]: { common: strings } } });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
