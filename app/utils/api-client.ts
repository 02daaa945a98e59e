import type { TFunction } from "i18next";

export interface ApiFailure {
  ok: false;
  status: number;
  error: { code: string; message: string; field?: string };
}
export type ApiResult<T> = { ok: true; data: T } | ApiFailure;

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
    const error = (data as { error?: ApiFailure["error"] } | null)?.error;
    return { ok: false, status: response.status, error: error ?? { code: "unknown", message: response.statusText } };
  } catch (error) {
    console.error(error);
    return { ok: false, status: 0, error: { code: "network", message: String(error) } };
  }
}

/** A message for a failed tree call, in the interface language. */
export function treeErrorMessage(t: TFunction, failure: ApiFailure): string {
  switch (failure.error.code) {
    case "conflict":
      return t("articles.errors.conflict");
    case "not_found":
      return t("articles.errors.notFound");
    case "invalid_input":
      return failure.error.field === "toFolderId"
        ? t("articles.errors.moveIntoItself")
        : t("articles.errors.invalid", { message: failure.error.message });
    default:
      return t("toast.genericError");
  }
}
