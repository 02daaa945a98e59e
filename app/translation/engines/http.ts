import type { z } from "zod";
import type { EngineId } from "./codes";
import { EngineError } from "./errors";

/** 408, 425, 429 and 5xx are worth another try; other refusals (401, 403, 400, DeepL's 456) are not. */
function retryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * What an adapter knows about one provider's error answers: given the status and the body (parsed JSON,
 * or the text when it is not JSON), whether it is worth a retry and the provider's name for it.
 * Undefined keeps the status-based rule.
 */
export type ErrorClassifier = (status: number, body: unknown) => { retryable: boolean; code: string } | undefined;

function parsedBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A JSON request to a provider, its answer parsed with `schema`. Every failure is an EngineError that
 * names the engine and the status but never the address (Google's key travels in it).
 */
export async function requestJson<T>(
  engine: EngineId,
  url: string,
  init: { method?: "GET" | "POST"; body?: unknown; headers?: Record<string, string>; signal: AbortSignal; classify?: ErrorClassifier },
  schema: z.ZodType<T>,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "POST",
      headers: {
        accept: "application/json",
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (error) {
    if (init.signal.aborted) throw init.signal.reason;
    throw new EngineError(engine, `could not reach the server (${error instanceof Error ? error.message : "network error"})`, {
      retryable: true,
      cause: error,
    });
  }
  const text = await response.text();
  if (!response.ok) {
    // Providers explain refusals in the body ("Quota exceeded", "gn is not supported"); keep it short.
    const detail = text.replace(/\s+/g, " ").trim().slice(0, 200);
    const known = init.classify?.(response.status, parsedBody(text));
    throw new EngineError(engine, `HTTP ${response.status}${detail ? `: ${detail}` : ""}`, {
      retryable: known?.retryable ?? retryableStatus(response.status),
      status: response.status,
      retryAfterMs: retryAfterMs(response.headers.get("retry-after")),
      code: known?.code,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new EngineError(engine, "answered with something other than JSON", { retryable: true, status: response.status, cause: error });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new EngineError(engine, "answered in an unexpected shape", { retryable: true, status: response.status, cause: parsed.error });
  }
  return parsed.data;
}

/** Without a trailing slash, so `${base}/path` never doubles it. */
export function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
