import type { TFunction } from "i18next";
import { isErrorReason } from "~/errors";
import { NAME_MAX_LENGTH } from "~/lib/names";

export interface ApiFailure {
  ok: false;
  status: number;
  error: { code: string; message: string; field?: string; reason?: string };
}
export type ApiResult<T> = { ok: true; data: T } | ApiFailure;

type UnauthorizedListener = (path: string) => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/**
 * Called with the path of any call answered 401 (the session ended: expired, logged out elsewhere), except
 * the login call itself; the editor opens its login dialog (decision 071). Returns the unsubscribe.
 */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Calls the JSON API from the browser; network failures become a result, never an exception. */
export async function callApi<T = unknown>(path: string, body?: unknown): Promise<ApiResult<T>> {
  try {
    const response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = (await response.json().catch(() => null)) as unknown;
    if (response.ok) return { ok: true, data: data as T };
    if (response.status === 401 && path !== "/login") for (const listener of unauthorizedListeners) listener(path);
    const error = (data as { error?: ApiFailure["error"] } | null)?.error;
    return { ok: false, status: response.status, error: error ?? { code: "unknown", message: response.statusText } };
  } catch (error) {
    console.error(error);
    return { ok: false, status: 0, error: { code: "network", message: String(error) } };
  }
}

const KNOWN_CODES = new Set([
  "invalid_input",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "too_large",
  "unsupported_media_type",
  "rate_limited",
  "method_not_allowed",
  "network",
]);

/**
 * A failed call said in the interface language: from the reason code when the server gave one (a
 * field rule), else from the error code. The server's English message is never shown.
 */
export function apiErrorMessage(t: TFunction, failure: ApiFailure): string {
  const { code, reason, field } = failure.error;
  // A missing destination is not the item itself going missing.
  if (code === "not_found" && field === "toFolderId") return t("errors.destinationGone");
  if (reason && isErrorReason(reason)) return t(`errors.reasons.${reason}`, { max: NAME_MAX_LENGTH });
  return t(`errors.codes.${KNOWN_CODES.has(code) ? code : "unknown"}`);
}

/** A message for a failed tree call (folders and articles), in the interface language. */
export const treeErrorMessage = apiErrorMessage;
