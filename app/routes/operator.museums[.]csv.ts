import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { CSV_BOM, csvRow } from "~/audit/csv";
import { readFiguresQuery } from "~/operator/figures-query";
import { museumFigures, sortAndFilter } from "~/operator/figures.server";
import { requireOperator } from "~/operator/session.server";

/** The console's list as CSV, filtered and sorted as the page (numbers as numbers, times ISO 8601 UTC). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context);
  const query = readFiguresQuery(new URL(request.url).searchParams);
  const list = sortAndFilter(await museumFigures(context.shards.shards.directory, context.shards.shards.byIndex), query);
  const iso = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString());
  let body =
    CSV_BOM +
    csvRow([
      "id",
      "slug",
      "name",
      "state",
      "shard",
      "data_location",
      "members",
      "articles",
      "languages_30d",
      "scans_30d",
      "views_30d",
      "translation_chars_month",
      "narration_chars_month",
      "easy_read_calls_month",
      "estimated_cost_usd_month",
      "estimated_cost_eur_month",
      "engines_not_priced",
      "translation_bound",
      "narration_bound",
      "media_bytes",
      "d1_bytes",
      "last_staff_activity",
      "created_at",
    ]);
  for (const m of list)
    body += csvRow([
      String(m.id),
      m.slug,
      m.name,
      m.state,
      String(m.shard),
      m.jurisdiction || "default",
      String(m.members),
      String(m.articles),
      String(m.languages),
      String(m.scans30),
      String(m.views30),
      String(m.translationChars),
      String(m.narrationChars),
      String(m.easyReadCalls),
      m.costUsd.toFixed(2),
      m.costEur.toFixed(2),
      m.unpriced.join(" "),
      m.translationBound === null ? "default" : String(m.translationBound),
      m.narrationBound === null ? "default" : String(m.narrationBound),
      String(m.mediaBytes),
      m.d1Bytes === null ? "" : String(m.d1Bytes),
      iso(m.lastStaffActivity),
      iso(m.createdAt),
    ]);
  return new Response(body, {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="museums.csv"', "Cache-Control": "private, no-store" },
  });
}
