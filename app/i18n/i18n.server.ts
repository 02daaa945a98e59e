import { createCookie } from "@remix-run/cloudflare";
import { RemixI18Next } from "remix-i18next/server";
import { DEFAULT_LOCALE, i18nOptions, isLocale, resources, SUPPORTED_LOCALES, type Locale } from "./config";

export const localeCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...SUPPORTED_LOCALES],
    fallbackLanguage: DEFAULT_LOCALE,
    cookie: localeCookie,
    order: ["cookie", "header"],
  },
  i18next: { ...i18nOptions, resources },
});

export async function getLocale(request: Request): Promise<Locale> {
  const locale = await i18nServer.getLocale(request);
  return isLocale(locale) ? locale : DEFAULT_LOCALE;
}
