import type { ZodError } from "zod";

export type ApiErrorCode =
  | "invalid_input"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "unsupported_media_type"
  | "rate_limited"
  | "method_not_allowed";

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; field?: string; retryAfter?: number };
}

export function apiError(
  status: number,
  code: ApiErrorCode,
  message: string,
  init: { field?: string; headers?: HeadersInit; retryAfter?: number } = {},
): Response {
  const body: ApiErrorBody = {
    error: {
      code,
      message,
      ...(init.field ? { field: init.field } : {}),
      ...(init.retryAfter ? { retryAfter: init.retryAfter } : {}),
    },
  };
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body), { status, headers });
}

/** 400 naming the first invalid field of a zod parse. */
export function invalidInput(error: ZodError): Response {
  const issue = error.issues[0];
  const field = issue?.path.join(".") || undefined;
  const message = issue ? `${field ? `${field}: ` : ""}${issue.message}` : "Invalid input";
  return apiError(400, "invalid_input", message, { field });
}

/** Reads a JSON body; malformed JSON becomes a 400 rather than an exception. */
export async function readJsonBody(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().includes("application/json")) {
    return { ok: false, response: apiError(415, "unsupported_media_type", "Send a JSON body (Content-Type: application/json)") };
  }
  try {
    return { ok: true, value: await request.json() };
  } catch {
    return { ok: false, response: apiError(400, "invalid_input", "The body is not valid JSON") };
  }
}

export function jsonNoStore(data: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(data), { ...init, headers });
}

export function isLocalHost(url: URL): boolean {
  return url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
}

/** The client's address as Cloudflare reports it; locally there is none, so all share one. */
export function clientAddress(request: Request): string {
  return request.headers.get("CF-Connecting-IP") ?? request.headers.get("X-Real-IP") ?? "local";
}
