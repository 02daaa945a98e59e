import { z } from "zod";
import { findLanguage } from "../languages";
import { LIBRETRANSLATE_CODES } from "./codes";
import { EngineError } from "./errors";
import { requestJson, trimSlash } from "./http";
import type { TranslationEngine } from "./types";

const languagesResponse = z.array(z.object({ code: z.string(), targets: z.array(z.string()).optional() }));
const translateResponse = z.object({ translatedText: z.array(z.string()) });

type ServerLanguages = Map<string, ReadonlySet<string> | undefined>;

/**
 * A LibreTranslate server (`POST /translate` with a list of texts). Servers name some languages
 * differently and install only some models, so the adapter reads `/languages` once and then knows which
 * code to send, or that the pair is missing (a refusal: the next engine takes over).
 */
export function libreTranslateEngine({ url, apiKey }: { url: string; apiKey?: string }): TranslationEngine {
  const base = trimSlash(url);
  let languages: Promise<ServerLanguages> | undefined;

  const serverLanguages = (signal: AbortSignal) => {
    languages ??= requestJson("libretranslate", `${base}/languages`, { method: "GET", signal }, languagesResponse).then(
      (list) => new Map(list.map((l) => [l.code, l.targets ? new Set(l.targets) : undefined])),
    );
    // A failed look-up is asked again next time rather than remembered.
    languages.catch(() => {
      languages = undefined;
    });
    return languages;
  };

  const pick = (tag: string, offered: ServerLanguages) => {
    const lang = findLanguage(tag);
    return (lang ? LIBRETRANSLATE_CODES.get(lang.code) : undefined)?.find((c) => offered.has(c));
  };

  return {
    id: "libretranslate",
    limits: { maxTexts: 20, maxChars: 5_000 },
    supports(from, to) {
      const source = findLanguage(from);
      const target = findLanguage(to);
      return source !== undefined && target !== undefined && LIBRETRANSLATE_CODES.has(source.code) && LIBRETRANSLATE_CODES.has(target.code);
    },
    async translate(texts, from, to, signal) {
      const offered = await serverLanguages(signal);
      const source = pick(from, offered);
      const target = pick(to, offered);
      if (!source || !target || offered.get(source)?.has(target) === false) {
        throw new EngineError("libretranslate", `this server has no model for ${from} → ${to}`, { retryable: false });
      }
      const body = await requestJson(
        "libretranslate",
        `${base}/translate`,
        { body: { q: texts, source, target, format: "text", ...(apiKey ? { api_key: apiKey } : {}) }, signal },
        translateResponse,
      );
      return body.translatedText;
    },
  };
}
