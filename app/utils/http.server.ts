import type { ZodError } from "zod";
import { type DomainError, type ErrorBody, type ErrorCode, type ErrorReason, type StaleDetails } from "~/errors";
import { zodToDomainError } from "./zod-error";
import { concatBytes } from "~/lib/bytes";

/** JSON bodies above this answer 413 (article content gets its own limit). */
export const JSON_BODY_LIMIT = 1024 * 1024;

export function apiError(
  status: number,
  code: ErrorCode,
  message: string,
  init: {
    field?: string;
    reason?: ErrorReason;
    headers?: HeadersInit;
    retryAfter?: number;
    current?: StaleDetails;
    archive?: { url: string; until: number };
  } = {},
): Response {
  const body: ErrorBody = {
    error: {
      code,
      message,
      ...(init.field ? { field: init.field } : {}),
      ...(init.reason ? { reason: init.reason } : {}),
      ...(init.retryAfter ? { retryAfter: init.retryAfter } : {}),
      ...(init.current ? { current: init.current } : {}),
      ...(init.archive ? { archive: init.archive } : {}),
    },
  };
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "private, no-store");
  return new Response(JSON.stringify(body), { status, headers });
}

export function domainErrorResponse(error: DomainError, headers?: HeadersInit): Response {
  const { field, reason, retryAfter, current, archive } = error;
  const out = new Headers(headers);
  if (retryAfter) out.set("Retry-After", String(retryAfter));
  return apiError(error.status, error.code, error.message, { field, reason, retryAfter, current, archive, headers: out });
}

/** 400 naming the first invalid field of a zod parse. */
export function invalidInput(error: ZodError): Response {
  return domainErrorResponse(zodToDomainError(error));
}

export function methodNotAllowed(allow: string): Response {
  return apiError(405, "method_not_allowed", `Use ${allow}`, { headers: { Allow: allow } });
}

/** The media type of a request's body, lowercased and without parameters ("" when none). */
export function mediaType(request: Request): string {
  return (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
}

export const isJsonRequest = (request: Request) => mediaType(request) === "application/json";

export const isFormRequest = (request: Request) => ["application/x-www-form-urlencoded", "multipart/form-data"].includes(mediaType(request));

/**
 * How a refusal lets go of a request body (decision 121). A body refused before any of it is read is left
 * as it is: the runtime reads what is left once the answer is sent, and the connection serves the next
 * request. Cancelling it instead made wrangler's dev proxy answer the *next* POST 503 ("Your worker restarted
 * mid-request"). A body refused halfway (past a limit, a bad part) is read on and thrown away before the
 * answer, up to `DRAIN_MAX_BYTES` more: a partly read body, cancelled or merely let go, breaks the next
 * request the same way. Past that bound the rest is cancelled after all, so a refusal never reads a huge or
 * endless body (locally, the next request may then meet the proxy's 503; browsers do not stream uploads
 * without a length, and what they send is refused unread by its Content-Length).
 */
export const DRAIN_MAX_BYTES = 4 * 1024 * 1024;

/** Reads what is left of a body and throws it away; past `limit` bytes the rest is cancelled. Never throws. */
export async function drainRest(reader: ReadableStreamDefaultReader<Uint8Array>, limit = DRAIN_MAX_BYTES): Promise<void> {
  let read = 0;
  try {
    while (read <= limit) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away, or the stream failed: there is nothing left to read.
  }
}

/** A request body handed to a reader that may stop early, and the way to end it without cancelling it. */
export interface DrainingBody {
  /** The body's bytes; cancelling it (a refusal halfway) reads the rest and throws it away instead. */
  stream: ReadableStream<Uint8Array>;
  /** Reads whatever is still unread and throws it away (`drainRest`); at once when all was read. */
  finish(): Promise<void>;
}

/**
 * The request's body for a reader that may stop early (the streamed multipart reader, the ZIP reader): a
 * refusal halfway through cancels `stream` or calls `finish()`, and either reads the rest rather than
 * cancelling the request (decision 121). Null without a body.
 */
export function drainingBody(request: Request): DrainingBody | null {
  if (!request.body) return null;
  const reader = request.body.getReader();
  let finished: Promise<void> | null = null;
  const finish = () => (finished ??= drainRest(reader));
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: finish,
    },
    { highWaterMark: 0 },
  );
  return { stream, finish };
}

/** Reads at most `limit` bytes of the body; null when it is longer (whatever Content-Length claimed). */
export async function readBodyText(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get("Content-Length"));
  // Refused unread: the body is left as it is (see DRAIN_MAX_BYTES).
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await drainRest(reader);
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(concatBytes(chunks));
}

export type BodyResult = { ok: true; value: unknown } | { ok: false; response: Response };

/** Reads a JSON body: 415 for another media type, 413 past the limit, 400 for malformed JSON. */
export async function readJsonBody(request: Request, limit = JSON_BODY_LIMIT): Promise<BodyResult> {
  if (!isJsonRequest(request)) {
    return { ok: false, response: apiError(415, "unsupported_media_type", "Send a JSON body (Content-Type: application/json)") };
  }
  const text = await readBodyText(request, limit);
  if (text === null) {
    return { ok: false, response: apiError(413, "too_large", `The body is larger than ${limit} bytes`) };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, response: apiError(400, "invalid_input", "The body is not valid JSON", { reason: "invalid" }) };
  }
}

/** Reads a form body for a page action: 415 for another media type, 413 past the limit. */
export async function readFormBody(request: Request, limit = JSON_BODY_LIMIT): Promise<{ ok: true; form: FormData } | { ok: false; response: Response }> {
  if (!isFormRequest(request)) {
    return { ok: false, response: apiError(415, "unsupported_media_type", "Send a form (application/x-www-form-urlencoded)") };
  }
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > limit) {
    return { ok: false, response: apiError(413, "too_large", `The body is larger than ${limit} bytes`) };
  }
  try {
    return { ok: true, form: await request.formData() };
  } catch {
    return { ok: false, response: apiError(400, "invalid_input", "The form body is malformed", { reason: "invalid" }) };
  }
}

export function jsonNoStore(data: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "private, no-store");
  return new Response(JSON.stringify(data), { ...init, headers });
}

export function isLocalHost(url: URL): boolean {
  return url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
}

/** The client's address as Cloudflare reports it; locally there is none, so all share one. */
export function clientAddress(request: Request): string {
  return request.headers.get("CF-Connecting-IP") ?? request.headers.get("X-Real-IP") ?? "local";
}
