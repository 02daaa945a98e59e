import type { MetaDescriptor } from "@remix-run/cloudflare";
import { DEFAULT_LOCALE, isLocale, fixedT, type Locale } from "~/i18n/config";

interface MatchLike {
  id: string;
  data?: unknown;
  /** What the route threw, when its error boundary shows instead of the page (Remix's meta matches carry it). */
  error?: unknown;
}

/** The strings of an error page's title: a refusal's own (403, 404), or the generic error's (decision 136). */
function errorSection(error: unknown): string {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 403 ? "staffError.forbidden" : status === 404 ? "notFound" : "error";
}

export function localeFromMatches(matches: readonly MatchLike[]): Locale {
  const root = matches.find((m) => m.id === "root")?.data as { locale?: unknown } | undefined;
  return isLocale(root?.locale) ? root.locale : DEFAULT_LOCALE;
}

/** Title and description from `<page>.metaTitle` / `<page>.metaDescription`; admin pages are not indexed. */
export function pageMeta(matches: readonly MatchLike[], page: string, options: { noindex?: boolean } = {}): MetaDescriptor[] {
  const locale = localeFromMatches(matches);
  // A page whose error boundary shows is titled by what happened, not by the page it could not show.
  const error = matches.find((m) => m.error != null)?.error;
  const section = error == null ? page : errorSection(error);
  const meta: MetaDescriptor[] = [
    { title: fixedT(locale)(`${section}.metaTitle`) },
    { name: "description", content: fixedT(locale)(`${section}.metaDescription`) },
  ];
  if (options.noindex) meta.push({ name: "robots", content: "noindex, nofollow" });
  return meta;
}
