import type { AppLoadContext } from "@remix-run/cloudflare";
import type { VisitorTarget } from "~/models/visitor.server";
import type { TranslationDeps } from "~/translation/translate.server";
import { translationDeps } from "~/utils/translation-deps.server";
import { readThrough, stillServed } from "~/visitor-cache/snapshot.server";
import { displayFromRequest, type DisplayChoices } from "../display/choices";
import { chooseLanguage, type LanguageChoice } from "../language.server";
import type { Located, TourStopPlace, VisitorPlace } from "../place.server";
import { keptQuery } from "../respond.server";
import { questionsMonthlyOr } from "~/questions/store.server";

/** One view of a visitor page that leads somewhere, as every step reads it: settled before the first step. */
export interface Visit {
  request: Request;
  url: URL;
  context: AppLoadContext;
  target: VisitorTarget;
  place: VisitorPlace;
  /** A staff member of the museum previews the draft (decision 041): never cached, never counted. */
  draftPreview: boolean;
  tourStop?: TourStopPlace;
  /** The reading language (decision 019) and the cookie remembering a choice made now. */
  choice: LanguageChoice;
  /** What translation needs; KV's JSON reads go through the snapshot's memo in this isolate (decision 039). */
  deps: TranslationDeps;
  /** Display choices apply to the whole document, never to the cached rendering of the content (decision 097). */
  display: DisplayChoices;
  /** The query every link of the page keeps (`ignoreStats=true`, `preview=draft`), or "". */
  keep: string;
  /** Whether the snapshot the target came from still holds in this isolate (false without one). */
  holds: () => boolean;
  /** The deployment's monthly bound on answers to visitors' questions (decision 151): 0 hides the form. */
  questionsMonthly?: number;
}

/** The first step: what the request and the address say, read once for all the steps. */
export function visitOf(
  request: Request,
  context: AppLoadContext,
  { target, place, memo, draftPreview, tourStop }: Located & { target: VisitorTarget },
): Visit {
  const url = new URL(request.url);
  const choice = chooseLanguage(request, target.museum.sourceLang);
  const fresh = translationDeps(context);
  return {
    request,
    url,
    context,
    target,
    place,
    draftPreview: draftPreview === true,
    tourStop,
    choice,
    // The rendered translation is read from KV once per snapshot in this isolate (decision 039).
    deps: memo ? { ...fresh, kv: readThrough(fresh.kv, memo) } : fresh,
    display: displayFromRequest(request),
    keep: keptQuery(url),
    holds: () => stillServed(target),
    questionsMonthly: questionsMonthlyOr(context.cloudflare.env as unknown as Record<string, unknown>),
  };
}
