// The rows of a museum archive's data files (decision 062): the tables' columns in the content model's
// words, with the ids they had in the museum they came from (an import gives new ones and maps every reference).
import { z } from "zod";
import { isDay } from "~/lib/dates";
import { sanitiseOriginalName } from "~/models/media-name";

const id = z.number().int().positive();
const time = z.number().int().nonnegative();
const lang = z
  .string()
  .min(1)
  .max(35)
  .regex(/^[A-Za-z0-9-]+$/);
const short = (max: number) => z.string().max(max);

export const folderRow = z.object({ id, parentId: id.nullable(), name: short(200), createdAt: time, deletedAt: time.nullable() });

/** Content is the article's element list as JSON (checked against the content model when restored). */
export const articleRow = z.object({
  id,
  folderId: id.nullable(),
  slug: short(200),
  name: short(200),
  content: z.array(z.unknown()),
  version: z.number().int().positive(),
  publishedContent: z.array(z.unknown()).nullable(),
  publishedVersion: z.number().int().positive().nullable(),
  publishedAt: time.nullable(),
  /** A scheduled publication (informative: an import does not carry it over, decision 063). */
  publishAt: time.nullable().default(null),
  createdAt: time,
  updatedAt: time,
  deletedAt: time.nullable(),
  /** The number on the label (0009, issue 21); absent from older archives. */
  stopNumber: z.number().int().min(1).max(9999).nullable().default(null),
});

export const articleVersionRow = z.object({
  articleId: id,
  number: z.number().int().positive(),
  name: short(200),
  content: z.array(z.unknown()),
  publishedAt: time,
  publishedByEmail: short(320),
  note: short(2000),
});

export const qrcodeRow = z.object({
  id,
  link: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/),
  articleId: id.nullable(),
  createdAt: time,
});

/** A tour (0009, issue 21) with its stops as article ids in order; `cover` a `/media/…` address or null. */
export const tourRow = z.object({
  id,
  link: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/),
  name: short(120).min(1),
  description: short(1000),
  cover: short(2048).nullable(),
  minutes: z.number().int().min(1).max(600).nullable(),
  createdAt: time,
  updatedAt: time,
  stops: z.array(id).max(200),
});

const hash = z.string().max(128);
const r2Key = z
  .string()
  .min(1)
  .max(300)
  .regex(/^[A-Za-z0-9/_.-]+$/)
  .refine((k) => !k.split("/").includes(".."), "invalid");

/**
 * An article's easy-to-read version (0011, issue 22 §2): the draft staff edit and the approved copy visitors
 * read, as element lists (checked against the content model when restored). Who edited or approved is not
 * carried (user ids of another team), nor a generation under way.
 */
export const easyReadRow = z.object({
  articleId: id,
  content: z.array(z.unknown()).nullable(),
  version: z.number().int().nonnegative(),
  sourceHash: hash,
  engine: short(100),
  generatedAt: time.nullable(),
  updatedAt: time,
  approvedContent: z.array(z.unknown()).nullable(),
  approvedVersion: z.number().int().nonnegative().nullable(),
  approvedSourceHash: hash.nullable(),
  approvedAt: time.nullable(),
});

/** A narration (0010, issue 22 part 1): its audio file is `narrations/<key>` in the archive. */
export const narrationRow = z.object({
  articleId: id,
  lang,
  kind: z.enum(["recorded", "generated"]),
  key: r2Key,
  contentType: z.string().min(1).max(100),
  bytes: z.number().int().nonnegative(),
  durationMs: z.number().int().nonnegative().nullable(),
  textHash: hash.nullable(),
  engine: short(100).nullable(),
  voice: short(200).nullable(),
  createdAt: time,
  updatedAt: time,
});

export const glossaryRow = z.object({ term: short(200).min(1), targetLang: z.union([z.literal(""), lang]), translation: short(200), createdAt: time });

export const mediaRow = z.object({
  key: r2Key,
  kind: z.enum(["image", "video", "subtitles"]),
  contentType: z.string().min(1).max(100),
  bytes: z.number().int().nonnegative(),
  articleId: id.nullable(),
  width: z.number().int().positive().nullable(),
  height: z.number().int().positive().nullable(),
  createdAt: time,
  /** The uploaded file's own name (issue 20): absent from older archives; kept the way an upload keeps it. */
  originalName: z
    .string()
    .max(1000)
    .nullable()
    .optional()
    .transform((name) => sanitiseOriginalName(name ?? null)),
});

export const memoryRow = z.object({
  sourceLang: lang,
  targetLang: lang,
  sourceHash: z.string().min(1).max(128),
  sourceText: z.string().max(100_000),
  text: z.string().max(100_000),
  origin: z.enum(["machine", "edited"]),
  engine: short(100),
  updatedAt: time,
});

export const reviewRow = z.object({
  articleId: id,
  targetLang: lang,
  segmentId: z.string().min(1).max(200),
  sourceHash: z.string().min(1).max(128),
  sourceText: z.string().max(100_000),
  text: z.string().max(100_000),
  updatedAt: time,
});

export const reportRow = z.object({ articleId: id, lang, message: short(5000), createdAt: time, resolvedAt: time.nullable() });

export const statRow = z.object({
  day: z.string().refine(isDay, "a calendar day, YYYY-MM-DD"),
  articleId: id,
  lang,
  scans: z.number().int().nonnegative(),
  views: z.number().int().nonnegative(),
});

export type FolderRow = z.infer<typeof folderRow>;
export type ArticleRow = z.infer<typeof articleRow>;
export type ArticleVersionRow = z.infer<typeof articleVersionRow>;
export type QrcodeRow = z.infer<typeof qrcodeRow>;
export type GlossaryRow = z.infer<typeof glossaryRow>;
export type TourRow = z.infer<typeof tourRow>;
export type EasyReadRow = z.infer<typeof easyReadRow>;
export type NarrationRow = z.infer<typeof narrationRow>;
export type MediaRow = z.infer<typeof mediaRow>;
export type MemoryRow = z.infer<typeof memoryRow>;
export type ReviewRow = z.infer<typeof reviewRow>;
export type ReportRow = z.infer<typeof reportRow>;
export type StatRow = z.infer<typeof statRow>;

export const STATS_HEADER = "day,article_id,lang,scans,views";

export function statsCsv(rows: StatRow[]): string {
  return `${STATS_HEADER}\n${rows.map((r) => `${r.day},${r.articleId},${r.lang},${r.scans},${r.views}\n`).join("")}`;
}

/** The statistics file back into rows; null when a line is not one this format writes. */
export function parseStatsCsv(text: string): StatRow[] | null {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines[0] !== STATS_HEADER) return null;
  const rows: StatRow[] = [];
  for (const line of lines.slice(1)) {
    if (line === "") continue;
    const [day, articleId, l, scans, views, ...rest] = line.split(",");
    if (rest.length) return null;
    const parsed = statRow.safeParse({ day, articleId: Number(articleId), lang: l, scans: Number(scans), views: Number(views) });
    if (!parsed.success) return null;
    rows.push(parsed.data);
  }
  return rows;
}
