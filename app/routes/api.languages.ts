import { LANGUAGES } from "~/translation/languages";
import { getOnly } from "~/utils/api.server";

export const action = getOnly;

const BODY = JSON.stringify({
  languages: LANGUAGES.map(({ code, endonym, fr, en, dir, engines }) => ({ code, endonym, fr, en, dir, engines })),
});

/**
 * `GET /api/languages`: the public language catalogue (BCP 47 code, endonym, French and English names,
 * direction, engines that serve it). The same for everyone and every deployment's version: cacheable.
 */
export function loader() {
  return new Response(BODY, { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
