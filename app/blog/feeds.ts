// RSS 2.0 per language, the sitemap and robots.txt: text built from the post list and the public routes.
import type { Locale } from "~/i18n/config";
import { siteConfig } from "~/site-config";
import { feedPath } from "./feed-path";
import { escapeXml, rfc822 } from "./format";
import { listPosts, POSTS, type Post } from "./posts";

const FEED_TEXT: Record<Locale, { title: string; description: string }> = {
  fr: { title: `Le blog de ${siteConfig.productName}`, description: "Traduction automatique, musées et médiation culturelle." },
  en: { title: `The ${siteConfig.productName} blog`, description: "Machine translation, museums and cultural mediation." },
};

export { feedPath };

export function rssFeed(origin: string, lang: Locale, posts: readonly Post[] = POSTS): string {
  const items = listPosts(lang, posts)
    .filter((post) => post.status === "published")
    .map(
      (post) => `    <item>
      <title>${escapeXml(post.title)}</title>
      <link>${escapeXml(`${origin}/blog/${post.slug}`)}</link>
      <guid isPermaLink="true">${escapeXml(`${origin}/blog/${post.slug}`)}</guid>
      <pubDate>${rfc822(post.date)}</pubDate>
      <description>${escapeXml(post.description)}</description>
    </item>`,
    );
  const { title, description } = FEED_TEXT[lang];
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${escapeXml(title)}</title>
    <link>${escapeXml(`${origin}/blog`)}</link>
    <atom:link href="${escapeXml(origin + feedPath(lang))}" rel="self" type="application/rss+xml"/>
    <description>${escapeXml(description)}</description>
    <language>${lang}</language>
${items.join("\n")}
  </channel>
</rss>
`;
}

/** Public pages only: the landing, contact, blog listing and every post address (both languages). */
export function sitemap(origin: string, posts: readonly Post[] = POSTS): string {
  const paths = ["/", "/contact", "/blog", ...[...new Set(posts.map((post) => `/blog/${post.slug}`))].sort()];
  const urls = paths.map((path) => `  <url><loc>${escapeXml(origin + path)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.join("\n")}
</urlset>
`;
}

/**
 * Staff pages and the API stay out of search engines. Visitor pages stay in: a museum's descriptions are
 * public, `/r/{link}` names `/v/{museum}/{slug}` as its canonical address, and bots are never counted.
 */
export const DISALLOWED = ["/dashboard", "/articles", "/article", "/trash", "/qrcodes", "/qrcode", "/stats", "/settings", "/login", "/api/", "/media/", "/vtt"];

export function robotsTxt(origin: string): string {
  return ["User-agent: *", ...DISALLOWED.map((path) => `Disallow: ${path}`), "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
}
