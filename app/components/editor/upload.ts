// Sends one file to an upload endpoint with XMLHttpRequest, the only browser API that reports upload
// progress. Like callApi, a failure is a result (an ApiFailure the locale strings can say), never a throw.
import type { ApiFailure } from "~/utils/api-client";

export interface UploadAnswer {
  mediaUrl: string;
  videoId: string | null;
  /** The file's name as the server kept it; null when it kept none. */
  originalName: string | null;
  bytes: number | null;
}
export type UploadResult = { ok: true; data: UploadAnswer } | ApiFailure;

export type UploadKind = "image" | "video" | "subtitles";

export interface UploadRequest {
  kind: UploadKind;
  file: Blob;
  fileName: string;
  articleId: number;
  videoId?: string;
  /** Called with 0–1 as bytes leave the browser. */
  onProgress?: (fraction: number) => void;
}

function parseAnswer(status: number, text: string): UploadResult {
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // A proxy's HTML error page: the status alone says what happened.
  }
  if (status >= 200 && status < 300) {
    const answer = body as { mediaUrl?: unknown; videoId?: unknown; originalName?: unknown; bytes?: unknown } | null;
    if (typeof answer?.mediaUrl === "string") {
      return {
        ok: true,
        data: {
          mediaUrl: answer.mediaUrl,
          videoId: typeof answer.videoId === "string" ? answer.videoId : null,
          originalName: typeof answer.originalName === "string" ? answer.originalName : null,
          bytes: typeof answer.bytes === "number" ? answer.bytes : null,
        },
      };
    }
    return { ok: false, status, error: { code: "unknown", message: "Upload answer without mediaUrl" } };
  }
  const error = (body as { error?: ApiFailure["error"] } | null)?.error;
  return { ok: false, status, error: error ?? { code: status === 413 ? "too_large" : "unknown", message: `HTTP ${status}` } };
}

/** Starts the upload; `abort` cancels it and the promise then resolves to a status-0 failure. */
export function upload(request: UploadRequest): { result: Promise<UploadResult>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const form = new FormData();
  form.append(request.kind, request.file, request.fileName);
  form.append("articleId", String(request.articleId));
  if (request.videoId !== undefined) form.append("videoId", request.videoId);
  const result = new Promise<UploadResult>((resolve) => {
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) request.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => resolve(parseAnswer(xhr.status, xhr.responseText));
    const failed = (code: string) => () => resolve({ ok: false, status: 0, error: { code, message: code } });
    xhr.onerror = failed("network");
    xhr.ontimeout = failed("network");
    xhr.onabort = failed("aborted");
    xhr.open("POST", `/api/upload/${request.kind}`);
    xhr.withCredentials = true;
    xhr.send(form);
  });
  return { result, abort: () => xhr.abort() };
}
