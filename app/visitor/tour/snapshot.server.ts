// A tour's snapshot `t/{link}` (decisions 039 and 101), and translation through the KV reads remembered with it
// in this isolate: what the tour page and its stops read before anything else.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { linkSchema } from "~/models/qrcode-input";
import { glossaryFor } from "~/translation/glossary";
import type { TranslationDeps } from "~/translation/translate.server";
import { translationDeps } from "~/utils/translation-deps.server";
import { memoOf, readThrough } from "~/visitor-cache/snapshot.server";
import { snapshotted } from "../place.server";
import { loadTourSnapshot, validTourSnapshot, type TourSnapshot } from "./load.server";

/**
 * The tour at `/t/{link}` through its snapshot `t/{link}` (decisions 039 and 101): a cached view reads no
 * D1. A malformed link leads nowhere without asking KV either.
 */
export async function tourSnapshot(context: AppLoadContext, link: string): Promise<TourSnapshot | null> {
  if (!linkSchema.safeParse(link).success) return null;
  return (await snapshotted(context, `t/${link}`, () => loadTourSnapshot(context.db, link), validTourSnapshot)).target;
}

/**
 * Translation through the museum's glossary as the snapshot keeps it: a cached view reads no D1 (decision 101),
 * and the tour's translation is read from KV once per snapshot in this isolate, as an article's is (decision 039).
 */
export function snapshotDeps(context: AppLoadContext, snapshot: TourSnapshot): TranslationDeps {
  const deps = translationDeps(context);
  const memo = memoOf(snapshot);
  return { ...deps, kv: memo ? readThrough(deps.kv, memo) : deps.kv, glossary: async (_museumId, to) => glossaryFor(snapshot.glossary, to) };
}
