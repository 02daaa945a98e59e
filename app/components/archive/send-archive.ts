// Sends an archive from the browser (decision 064): in one request up to DIRECT_MAX_BYTES, which every Cloudflare
// plan accepts; a larger one goes to R2 in parts first (each its own request), then is imported from there.
import type { ImportReport } from "~/archive/restore.server";
import type { ApiFailure, ApiResult } from "~/utils/api-client";

/** Below Cloudflare's 100 MB request body limit on the Free and Pro plans, with room to spare. */
export const DIRECT_MAX_BYTES = 90 * 1024 * 1024;
/** Each part of a staged upload (R2 wants parts of one size, at least 5 MiB, but for the last). */
export const PART_BYTES = 50 * 1024 * 1024;

async function answer<T>(response: Response): Promise<ApiResult<T>> {
  const data = (await response.json().catch(() => null)) as unknown;
  if (response.ok) return { ok: true, data: data as T };
  const error = (data as { error?: ApiFailure["error"] } | null)?.error;
  return { ok: false, status: response.status, error: error ?? { code: "unknown", message: response.statusText } };
}

async function post<T>(path: string, body: BodyInit | null, type: string): Promise<ApiResult<T>> {
  try {
    return answer<T>(await fetch(path, { method: "POST", credentials: "same-origin", headers: { "Content-Type": type }, body }));
  } catch (error) {
    return { ok: false, status: 0, error: { code: "network", message: String(error) } };
  }
}

export async function sendArchive(
  file: File,
  progress: (step: "upload" | "restore", percent: number | null) => void,
  limits = { direct: DIRECT_MAX_BYTES, part: PART_BYTES },
): Promise<ApiResult<ImportReport>> {
  if (file.size <= limits.direct) {
    progress("restore", null);
    return post<ImportReport>("/api/manage/import_museum", file, "application/zip");
  }
  const started = await post<{ upload: string }>("/api/manage/import_museum_upload?step=start", "{}", "application/json");
  if (!started.ok) return started;
  const { upload } = started.data;
  const parts: { partNumber: number; etag: string }[] = [];
  for (let at = 0, partNumber = 1; at < file.size; at += limits.part, partNumber++) {
    progress("upload", Math.round((at / file.size) * 100));
    const sent = await post<{ partNumber: number; etag: string }>(
      `/api/manage/import_museum_upload?step=part&upload=${encodeURIComponent(upload)}&part=${partNumber}`,
      file.slice(at, at + limits.part),
      "application/octet-stream",
    );
    if (!sent.ok) return sent;
    parts.push(sent.data);
  }
  progress("restore", null);
  const done = await post<{ ok: true }>(
    `/api/manage/import_museum_upload?step=complete&upload=${encodeURIComponent(upload)}`,
    JSON.stringify({ parts }),
    "application/json",
  );
  if (!done.ok) return done;
  return post<ImportReport>(`/api/manage/import_museum?upload=${encodeURIComponent(upload)}`, null, "application/zip");
}
