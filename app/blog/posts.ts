// The blog's posts, one Markdown file per language under content/blog/{lang}/, bundled as strings at
// build time (Workers have no filesystem). Pure lookups: rendering the Markdown is posts.server.ts's job.
import type { Locale } from "~/i18n/config";
import { parsePost, type FrontMatter } from "./front-matter";

export interface Post extends FrontMatter {
  lang: Locale;
  body: string;
}

const files = import.meta.glob("../../content/blog/*/*.md", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

function load(): Post[] {
  return Object.entries(files).map(([path, source]) => {
    const match = /content\/blog\/(fr|en)\/([a-z0-9-]+)\.md$/.exec(path);
    if (!match) throw new Error(`blog file outside content/blog/{fr,en}/: ${path}`);
    const { meta, body } = parsePost(source);
    if (meta.slug !== match[2]) throw new Error(`${path}: slug ${meta.slug} differs from the file name`);
    return { ...meta, lang: match[1] as Locale, body };
  });
}

export const POSTS: readonly Post[] = load();

/** The listing: the language's listed posts, newest first (ties keep the slug order, for stable output). */
export function listPosts(lang: Locale, posts: readonly Post[] = POSTS): Post[] {
  return posts.filter((post) => post.lang === lang && post.listed).sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
}

/**
 * The post an address names, in the interface language: `/blog/why-muselingo` read in French shows the
 * French post (pourquoi-muselingo), as the spec asks. Undefined for an unknown address.
 */
export function findPost(title: string, lang: Locale, posts: readonly Post[] = POSTS): Post | undefined {
  const named = posts.find((post) => post.slug === title);
  if (!named) return undefined;
  return posts.find((post) => post.id === named.id && post.lang === lang);
}
