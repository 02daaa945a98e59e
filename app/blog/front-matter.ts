// Blog posts are Markdown files with a small front matter block: `key: value` lines between two `---`
// lines, values plain strings, and `[a, b]` for a list. Enough for our own files, strict on the rest:
// a post with a missing or malformed field fails the build's tests, not a visitor's request.
import { z } from "zod";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const frontMatterSchema = z.object({
  /** Joins the language versions of one post (`why` for pourquoi-muselingo and why-muselingo). */
  id: z.string().regex(/^[a-z0-9-]+$/),
  slug: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(1),
  description: z.string().min(1),
  date: z.string().regex(DATE),
  cover: z.string().startsWith("/"),
  coverAlt: z.string().min(1),
  tags: z.array(z.string()).default([]),
  /** `false`: reachable by its address but not on the listing (the spec's sixth card, mucem). */
  listed: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  /** `coming-soon`: the page says so instead of a body (the spec's untranslated English posts). */
  status: z.enum(["published", "coming-soon"]).default("published"),
});

export type FrontMatter = z.infer<typeof frontMatterSchema>;

export interface ParsedMarkdown {
  data: Record<string, string | string[]>;
  body: string;
}

/** Splits `---\nkey: value\n---\nbody`; throws on a file without the block or a line it cannot read. */
export function splitFrontMatter(source: string): ParsedMarkdown {
  const text = source.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  if (!match) throw new Error("missing front matter");
  const data: Record<string, string | string[]> = {};
  for (const line of (match[1] ?? "").split("\n")) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const colon = line.indexOf(":");
    if (colon <= 0) throw new Error(`front matter line without a key: ${line}`);
    const key = line.slice(0, colon).trim();
    const raw = line.slice(colon + 1).trim();
    if (key in data) throw new Error(`front matter key twice: ${key}`);
    data[key] = raw.startsWith("[") && raw.endsWith("]") ? parseList(raw) : unquote(raw);
  }
  return { data, body: text.slice(match[0].length) };
}

function parseList(raw: string): string[] {
  const inner = raw.slice(1, -1).trim();
  return inner === "" ? [] : inner.split(",").map((item) => unquote(item.trim()));
}

function unquote(value: string): string {
  const quoted = /^"(.*)"$/.exec(value) ?? /^'(.*)'$/.exec(value);
  return quoted ? (quoted[1] ?? "") : value;
}

export function parsePost(source: string): { meta: FrontMatter; body: string } {
  const { data, body } = splitFrontMatter(source);
  return { meta: frontMatterSchema.parse(data), body };
}
