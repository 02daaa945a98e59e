// Each museum's figures for the operator's console (issue 33 §2, decision 146): the directory's row (state, shard,
// data location) and, from the museum's shard, counts only — members, articles, languages read and scans in 30
// days, narration characters this month, media bytes, last staff activity. Never a row of content: an operator sees
// how a museum uses the deployment, not what it wrote or who visited.
import { spendMonth } from "~/narration/budget.server";
import { estimateCost, type UsageRow as PricedRow } from "~/usage/prices";
import type { UsageKind } from "~/usage/usage.server";

export type UsageRow = PricedRow & { calls: number };
import { dayInTimeZone, dayNumber } from "~/lib/dates";

export interface MuseumFigures {
  id: number;
  slug: string;
  name: string;
  state: "active" | "moving" | "suspended" | "closing";
  shard: number;
  jurisdiction: string;
  createdAt: number;
  members: number;
  articles: number;
  /** Reading languages with at least one scan or view in the last 30 days. */
  languages: number;
  scans30: number;
  views30: number;
  /** Characters sent to speech engines this calendar month (UTC), decision 105's count. */
  narrationChars: number;
  /** Characters sent to translation engines this month (UTC), every engine together (decision 148). */
  translationChars: number;
  /** Characters the LLM rewrote into easy-to-read versions this month, and its calls. */
  easyReadCalls: number;
  /** This month's engine use by kind and engine, and what it is estimated to cost (app/usage/prices.ts). */
  usage: UsageRow[];
  costUsd: number;
  costEur: number;
  /** The order of the cost column (app/usage/prices.ts `order`). */
  cost: number;
  unpriced: string[];
  /** The museum's own monthly bounds (null: the deployment's default). */
  translationBound: number | null;
  narrationBound: number | null;
  /** Answers to visitors' questions a month (decision 151); null: the deployment's default. */
  questionsBound: number | null;
  closedAt: number | null;
  mediaBytes: number;
  /** Its share of its shard's D1 size as the daily cron last measured it (decision 150), or null before. */
  d1Bytes: number | null;
  /** The last time a member of its team was active (ms), or null. */
  lastStaffActivity: number | null;
}

import { FIGURE_COLUMNS, type FigureColumn } from "./columns";
export { FIGURE_COLUMNS, type FigureColumn };

type Row = Record<string, number | string | null>;

/** One batch per shard: a handful of GROUP BY museum_id reads, each through an index or a 30-day range. */
async function shardFigures(db: D1Database, now: number, only: number | null): Promise<Map<number, Partial<MuseumFigures>>> {
  const since = dayNumber(dayInTimeZone(now - 30 * 86_400_000, "UTC"));
  // ?9: one museum (its page) or null (the list): the same reads, through the museum_id prefix of each table's index.
  const one = (column: string) => `(?9 IS NULL OR ${column} = ?9)`;
  const [names, members, articles, stats, media, narration, usage] = await db.batch<Row>([
    db
      .prepare(
        `SELECT id, name, suspended_at AS suspendedAt, closed_at AS closedAt, translation_monthly_chars AS translationBound,
           narration_monthly_chars AS narrationBound, questions_monthly AS questionsBound FROM museums WHERE ${one("id")}`,
      )
      .bind(...params(only)),
    db
      .prepare(`SELECT museum_id AS id, count(*) AS members, max(last_active_at) AS lastStaffActivity FROM users WHERE ${one("museum_id")} GROUP BY museum_id`)
      .bind(...params(only)),
    db
      .prepare(`SELECT museum_id AS id, count(*) AS articles FROM articles WHERE deleted_at IS NULL AND ${one("museum_id")} GROUP BY museum_id`)
      .bind(...params(only)),
    db
      .prepare(
        `SELECT museum_id AS id, sum(scans) AS scans30, sum(views) AS views30, count(DISTINCT lang) AS languages FROM daily_stats
         WHERE day >= ?1 AND ${one("museum_id")} GROUP BY museum_id`,
      )
      .bind(...params(only, since)),
    db.prepare(`SELECT museum_id AS id, sum(bytes) AS mediaBytes FROM media WHERE ${one("museum_id")} GROUP BY museum_id`).bind(...params(only)),
    db
      .prepare(`SELECT museum_id AS id, chars AS narrationChars FROM narration_spend WHERE month = ?1 AND ${one("museum_id")}`)
      .bind(...params(only, spendMonth(now))),
    db
      .prepare(`SELECT museum_id AS id, kind, engine, chars, calls FROM engine_usage WHERE month = ?1 AND ${one("museum_id")}`)
      .bind(...params(only, spendMonth(now))),
  ]);
  const out = new Map<number, Partial<MuseumFigures>>();
  for (const row of usage!.results) {
    const id = Number(row.id);
    const figures = out.get(id) ?? {};
    figures.usage = [...(figures.usage ?? []), { kind: row.kind as UsageKind, engine: String(row.engine), chars: Number(row.chars), calls: Number(row.calls) }];
    out.set(id, figures);
  }
  for (const result of [names, members, articles, stats, media, narration])
    for (const row of result!.results) {
      const id = Number(row.id);
      out.set(id, { ...out.get(id), ...(row as Partial<MuseumFigures>) });
    }
  return out;
}

/** Bound parameters: ?1 (when given) and ?9, the one museum or null; the places between are never read. */
function params(only: number | null, first?: unknown): unknown[] {
  return [first ?? null, null, null, null, null, null, null, null, only];
}

/**
 * Every museum of the deployment with its figures, as the directory lists them; with `only`, that one museum
 * (its page), read from its own shard alone.
 */
export async function museumFigures(
  directory: D1Database,
  shards: ReadonlyMap<number, D1Database>,
  { only = null, now = Date.now() }: { only?: number | null; now?: number } = {},
): Promise<MuseumFigures[]> {
  const { results: rows } = await directory
    .prepare("SELECT id, slug, shard, state, jurisdiction, created_at AS createdAt, d1_bytes AS d1Bytes FROM museums WHERE ?1 IS NULL OR id = ?1 ORDER BY id")
    .bind(only)
    .all<{ id: number; slug: string; shard: number; state: string; jurisdiction: string; createdAt: number; d1Bytes: number | null }>();
  const wanted = only === null ? [...shards.keys()] : rows.map((row) => row.shard).filter((k) => shards.has(k));
  const perShard = await Promise.all(wanted.map((k) => shardFigures(shards.get(k)!, now, only)));
  const byShard = new Map(wanted.map((k, i) => [k, perShard[i]!]));
  return rows.map((row) => {
    const f = byShard.get(row.shard)?.get(row.id) ?? {};
    const usage = (f.usage ?? []).sort((a, b) => a.kind.localeCompare(b.kind) || b.chars - a.chars);
    const cost = estimateCost(usage);
    return {
      id: row.id,
      slug: row.slug,
      name: typeof f.name === "string" ? f.name : row.slug,
      state: museumState(row.state, f as { suspendedAt?: unknown; closedAt?: unknown }),
      shard: row.shard,
      jurisdiction: row.jurisdiction,
      createdAt: row.createdAt,
      members: Number(f.members ?? 0),
      articles: Number(f.articles ?? 0),
      languages: Number(f.languages ?? 0),
      scans30: Number(f.scans30 ?? 0),
      views30: Number(f.views30 ?? 0),
      narrationChars: Number(f.narrationChars ?? 0),
      translationChars: sumOf(usage, "translation", "chars"),
      easyReadCalls: sumOf(usage, "easy_read", "calls"),
      usage,
      costUsd: cost.USD,
      costEur: cost.EUR,
      cost: cost.order,
      unpriced: cost.unpriced,
      translationBound: f.translationBound == null ? null : Number(f.translationBound),
      narrationBound: f.narrationBound == null ? null : Number(f.narrationBound),
      questionsBound: f.questionsBound == null ? null : Number(f.questionsBound),
      closedAt: f.closedAt == null ? null : Number(f.closedAt),
      mediaBytes: Number(f.mediaBytes ?? 0),
      d1Bytes: row.d1Bytes === null ? null : Number(row.d1Bytes),
      lastStaffActivity: f.lastStaffActivity == null ? null : Number(f.lastStaffActivity),
    };
  });
}

function museumState(directoryState: string, own: { suspendedAt?: unknown; closedAt?: unknown }): MuseumFigures["state"] {
  if (typeof own.closedAt === "number") return "closing";
  if (directoryState !== "active") return "moving";
  return typeof own.suspendedAt === "number" ? "suspended" : "active";
}

const sumOf = (usage: readonly UsageRow[], kind: UsageKind, field: "chars" | "calls") =>
  usage.filter((row) => row.kind === kind).reduce((sum, row) => sum + row[field], 0);

/** The list as asked: a text filter on name and slug (case and accents ignored), then one column's order. */
export function sortAndFilter(list: readonly MuseumFigures[], { q, sort, dir }: { q: string; sort: FigureColumn; dir: "asc" | "desc" }): MuseumFigures[] {
  const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const needle = fold(q.trim());
  const kept = needle ? list.filter((m) => fold(m.name).includes(needle) || fold(m.slug).includes(needle)) : [...list];
  const sign = dir === "asc" ? 1 : -1;
  return kept.sort((a, b) => {
    const x = a[sort];
    const y = b[sort];
    const order = typeof x === "string" || typeof y === "string" ? String(x ?? "").localeCompare(String(y ?? ""), "fr") : Number(x ?? -1) - Number(y ?? -1);
    return order * sign || a.id - b.id;
  });
}
