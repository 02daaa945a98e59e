/**
 * Which catalogue languages each provider serves, and under which code. Plain data with no imports, so
 * the catalogue (`../languages.ts`, also bundled for the browser) can list the engines of each language
 * without pulling in any adapter. Keys are catalogue codes; a value is the provider's code.
 *
 * Sources: the m2m100 model card, DeepL's "Languages supported" page (the generally available languages,
 * not the beta ones that need `enable_beta_languages`), Google Cloud Translation's language list, and
 * the languages LibreTranslate's Argos models have shipped. A provider that turns out not to serve a
 * pair answers with an error and the next engine takes over, so these tables only decide the order.
 */

export const ENGINE_IDS = ["pseudo", "workers-ai", "workers-ai-llm", "deepl", "google", "libretranslate", "openai-compatible"] as const;

export type EngineId = (typeof ENGINE_IDS)[number];

const same = (codes: string): Array<[string, string]> => codes.split(" ").map((c) => [c, c]);

/** `@cf/meta/m2m100-1.2b`'s codes. */
export const M2M100_CODES: ReadonlyMap<string, string> = new Map([
  ...same(
    "af am ar ast az ba be bg bn br bs ca ceb cs cy da de el en es et fa ff fi fr fy ga gd gl gu ha he hi " +
      "hr ht hu hy id ig ilo is it ja jv ka kk km kn ko lb lg ln lo lt lv mg mk ml mn mr ms my ne nl oc or " +
      "pa pl ps pt ro ru sd si sk sl so sq sr ss su sv sw ta th tn tr uk ur uz vi wo xh yi yo zh zu",
  ),
  // Its training data for "no" is overwhelmingly Bokmål; Nynorsk is left to other engines.
  ["nb", "no"],
  // m2m100 spells Northern Sotho "ns" (not an ISO 639 code) and Filipino "tl".
  ["nso", "ns"],
  ["fil", "tl"],
]);

const DEEPL_LANGUAGES = "ar bg cs da de el en es et fi fr he hu id it ja ko lt lv nb nl pl pt ro ru sk sl sv th tr uk vi zh".split(" ");

/** DeepL source codes (`source_lang`): one per language, variants merged. */
export const DEEPL_SOURCE_CODES: ReadonlyMap<string, string> = new Map([
  ...DEEPL_LANGUAGES.map((c): [string, string] => [c, c.toUpperCase()]),
  ["zh-Hant", "ZH"],
]);

/** DeepL target codes (`target_lang`): some languages must name a variant. */
export const DEEPL_TARGET_CODES: ReadonlyMap<string, string> = new Map([
  ...DEEPL_LANGUAGES.filter((c) => !["en", "pt", "zh"].includes(c)).map((c): [string, string] => [c, c.toUpperCase()]),
  // Visitors of a European museum: British spelling and European Portuguese (decision 018).
  ["en", "EN-GB"],
  ["pt", "PT-PT"],
  ["zh", "ZH-HANS"],
  ["zh-Hant", "ZH-HANT"],
]);

/** Google Cloud Translation v2 codes. Left out: languages it does not list (ast, frp, gsw, kab, kw, rm, sc, zgh). */
export const GOOGLE_CODES: ReadonlyMap<string, string> = new Map([
  ...same(
    "af ak am ar as ay az ba be bg bm bn bo br bs ca ceb ckb co cs cy da de dv ee el en eo es et eu fa ff " +
      "fi fj fo fr fy ga gd gl gn gu ha haw he hi hmn hr ht hu hy id ig ilo is it ja jv ka kk kl km kn ko ku " +
      "ky la lb lg ln lo lt lv mg mi mk ml mn mr ms mt my ne nl nso ny oc om or pa pap pl ps pt qu rn ro ru " +
      "rw sa sd se si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tn to tr ts tt ty ug uk ur uz vi " +
      "wo xh yi yo yue zu",
  ),
  ["nb", "no"],
  ["fil", "tl"],
  ["zh", "zh-CN"],
  ["zh-Hant", "zh-TW"],
]);

/**
 * LibreTranslate: the codes a server may use for each language, best first. Servers differ (older ones
 * say "zh"/"zt", newer ones "zh-Hans"/"zh-Hant"), so the adapter asks the server's `/languages` once and
 * picks the first code it offers.
 */
export const LIBRETRANSLATE_CODES: ReadonlyMap<string, readonly string[]> = new Map([
  ..."ar az be bg bn ca cs da de el en eo es et eu fa fi fr ga gl he hi hu id it ja ko ky lt lv ms nb nl pl pt ro ru sk sl sq sv th tr uk ur vi"
    .split(" ")
    .map((c): [string, string[]] => [c, [c]]),
  ["fil", ["tl"]],
  ["zh", ["zh-Hans", "zh"]],
  ["zh-Hant", ["zh-Hant", "zt"]],
]);

/** The engines that can translate into (and out of) a catalogue language; LLM-backed ones take any. */
export function enginesServing(code: string): EngineId[] {
  return ENGINE_IDS.filter((id) => {
    switch (id) {
      case "workers-ai":
        return M2M100_CODES.has(code);
      case "deepl":
        return DEEPL_TARGET_CODES.has(code);
      case "google":
        return GOOGLE_CODES.has(code);
      case "libretranslate":
        return LIBRETRANSLATE_CODES.has(code);
      default:
        return true;
    }
  });
}
