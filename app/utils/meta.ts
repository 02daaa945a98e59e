import type { MetaDescriptor } from "@remix-run/cloudflare";
import { DEFAULT_LOCALE, isLocale, fixedT, type Locale } from "~/i18n/config";

interface MatchLike {
  id: string;
  data?: unknown;
}

export function localeFromMatches(matches: readonly MatchLike[]): Locale {
  const root = matches.find((m) => m.id === "root")?.data as { locale?: unknown } | undefined;
  return isLocale(root?.locale) ? root.locale : DEFAULT_LOCALE;
}

/** Title and description from `<section>.metaTitle` / `<section>.metaDescription`; admin pages are not indexed. */
export function pageMeta(matches: readonly MatchLike[], section: string, options: { noindex?: boolean } = {}): MetaDescriptor[] {
  const locale = localeFromMatches(matches);
  const meta: MetaDescriptor[] = [
    { title: fixedT(locale)(`${section}.metaTitle`) },
    { name: "description", content: fixedT(locale)(`${section}.metaDescription`) },
  ];
  if (options.noindex) meta.push({ name: "robots", content: "noindex, nofollow" });
  return meta;
}
