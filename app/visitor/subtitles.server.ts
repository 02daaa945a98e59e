import type { AppLoadContext } from "@remix-run/cloudflare";
import { glossaryRules } from "~/models/glossary.server";
import { subtitlesMedia } from "~/models/visitor.server";
import { glossaryVersion } from "~/translation/glossary";
import { findLanguage } from "~/translation/languages";
import { mapVtt, vttSegments } from "~/translation/segments";
import { translateSegments } from "~/translation/translate.server";
import { translationDeps } from "~/utils/translation-deps.server";

const CACHE_TTL_SECONDS = 30 * 24 * 3600;
const MAX_VTT_BYTES = 1024 * 1024;

function vttResponse(body: string, cacheable: boolean): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/vtt; charset=utf-8",
      // A failed translation (the original cues) must not stick in a browser cache.
      "Cache-Control": cacheable ? "public, max-age=3600" : "no-store",
    },
  });
}

/** The subtitle file `src` with its cues in `lang`: cached in KV per file and language once complete. */
export async function translatedSubtitles(request: Request, context: AppLoadContext): Promise<Response> {
  const url = new URL(request.url);
  const src = url.searchParams.get("src") ?? "";
  const lang = findLanguage(url.searchParams.get("lang") ?? "");
  const file = await subtitlesMedia(context.db, src);
  if (!file || !lang) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  // A glossary change for this language gives the translated file a new key (decision 026).
  const rules = await glossaryRules(context.db, file.museumId, lang.code);
  const version = await glossaryVersion(rules);
  const key = `vtt:v1:${file.key}:${lang.code}${version ? `:g${version}` : ""}`;
  const cached = await context.kv.get(key);
  if (cached !== null) return vttResponse(cached, true);
  const object = await context.media.get(file.key);
  if (!object || object.size > MAX_VTT_BYTES) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const source = await object.text();
  if (lang.code === file.sourceLang) return vttResponse(source, true);
  const deps = translationDeps(context);
  const outcome = await translateSegments(deps, { museumId: file.museumId, from: file.sourceLang, to: lang.code }, vttSegments(source), { glossary: rules });
  if (!outcome.complete) return vttResponse(source, false);
  const translated = mapVtt(source, (segment) => outcome.texts.get(segment) ?? segment);
  deps.waitUntil(context.kv.put(key, translated, { expirationTtl: CACHE_TTL_SECONDS }));
  return vttResponse(translated, true);
}
