import { z } from "zod";
import { findLanguage } from "../languages";
import { GOOGLE_CODES } from "./codes";
import { EngineError } from "./errors";
import { requestJson, type ErrorClassifier } from "./http";
import type { TranslationEngine } from "./types";

const response = z.object({ data: z.object({ translations: z.array(z.object({ translatedText: z.string() })) }) });

const code = (tag: string) => {
  const lang = findLanguage(tag);
  return lang ? GOOGLE_CODES.get(lang.code) : undefined;
};

/**
 * Google's per-minute quota answers 403, not 429 (https://cloud.google.com/translate/quotas: "If you exceed
 * your quota, Cloud Translation returns a 403 error. The error message states Daily Limit Exceeded if you
 * exceeded a daily quota or User Rate Limit Exceeded if you exceeded a per minute quota"), in Google's JSON
 * error format: `{"error": {"code": 403, "message": "User Rate Limit Exceeded", "errors": [{"domain":
 * "usageLimits", "reason": "userRateLimitExceeded", "message": "User Rate Limit Exceeded"}]}}`.
 */
const RATE_LIMIT_REASONS = new Set(["userRateLimitExceeded", "rateLimitExceeded"]);
const RATE_LIMIT_MESSAGES = /^(user )?rate limit exceeded/i;

const errorBody = z.object({
  error: z.object({
    message: z.string().optional(),
    errors: z.array(z.object({ reason: z.string().optional(), message: z.string().optional() }).passthrough()).optional(),
  }),
});

/** A per-minute rate limit is worth a retry with back-off; the daily quota, a bad key or a 403 of any other kind is not. */
export const classifyGoogleError: ErrorClassifier = (status, body) => {
  if (status !== 403) return undefined;
  const parsed = errorBody.safeParse(body);
  if (!parsed.success) return undefined;
  const { message, errors = [] } = parsed.data.error;
  const reason = errors.map((e) => e.reason).find((r) => r !== undefined && RATE_LIMIT_REASONS.has(r));
  if (reason) return { retryable: true, code: reason };
  if (message && RATE_LIMIT_MESSAGES.test(message)) return { retryable: true, code: "rateLimitExceeded" };
  return undefined;
};

/** Google Cloud Translation v2 (basic), plain-text format so nothing comes back HTML-escaped. */
export function googleEngine({ apiKey, url }: { apiKey: string; url: string }): TranslationEngine {
  const endpoint = `${url}${url.includes("?") ? "&" : "?"}key=${encodeURIComponent(apiKey)}`;
  return {
    id: "google",
    limits: { maxTexts: 100, maxChars: 10_000 },
    supports: (from, to) => code(from) !== undefined && code(to) !== undefined,
    async translate(texts, from, to, signal) {
      const source = code(from);
      const target = code(to);
      if (!source || !target) throw new EngineError("google", `Google does not serve ${from} → ${to}`, { retryable: false });
      const body = await requestJson(
        "google",
        endpoint,
        { body: { q: texts, source, target, format: "text" }, signal, classify: classifyGoogleError },
        response,
      );
      return body.data.translations.map((t) => t.translatedText);
    },
  };
}
