import type { Locale } from "~/i18n/config";

/**
 * A language's RSS address. On its own so pages can link the feed without shipping the posts (and their
 * front-matter parser) to the browser.
 */
export const feedPath = (lang: Locale) => `/rss.${lang}.xml`;
