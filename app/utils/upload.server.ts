import type { ActionFunctionArgs, AppLoadContext } from "@remix-run/cloudflare";
import { DomainError } from "~/errors";
import type { SessionUser } from "~/models/auth.server";
import { fileTooLarge, receiveUpload, UPLOAD_LIMITS, type MediaKind } from "~/models/media.server";
import type { Permission } from "~/teams/roles";
import { run } from "./api.server";
import { drainingBody, mediaType, methodNotAllowed } from "./http.server";
import { malformed, MultipartReader, multipartBoundary } from "./multipart.server";
import { requireApiUser } from "./session.server";

/** Room for the part headers and the small fields around the file. */
export const MULTIPART_OVERHEAD = 16 * 1024;

export interface MultipartHandlerArgs {
  user: SessionUser;
  /** The body's parts, read as a stream; reading past `maxBytes` throws `tooLarge()`. */
  parts: MultipartReader;
  request: Request;
  context: AppLoadContext;
}

/**
 * The streamed-upload preamble of every multipart route, once: `POST` only; 401/403 before the body is
 * read; then, answered like any API call: 415 for another body type, 400 without a boundary or a body, 413
 * as soon as Content-Length (or, without it, the bytes read) passes `maxBytes`. A body refused unread is
 * left unread; one refused halfway is read to its end and thrown away (decision 121): neither is cancelled.
 */
export function multipartAction(
  permission: Permission,
  { maxBytes, tooLarge }: { maxBytes: number; tooLarge: () => DomainError },
  handler: (args: MultipartHandlerArgs) => Promise<unknown>,
) {
  return async ({ request, context }: ActionFunctionArgs) => {
    if (request.method !== "POST") return methodNotAllowed("POST");
    const user = await requireApiUser(request, context, permission);
    return run(async () => {
      if (mediaType(request) !== "multipart/form-data") throw new DomainError("unsupported_media_type", "Send the file as multipart/form-data");
      const boundary = multipartBoundary(request.headers.get("Content-Type") ?? "");
      if (!boundary) throw malformed("no valid boundary in Content-Type");
      const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
      if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
      const body = drainingBody(request);
      if (!body) throw malformed("no body");
      const parts = new MultipartReader(body.stream.getReader(), boundary, maxBytes, tooLarge);
      try {
        return await handler({ user, parts, request, context });
      } finally {
        // Whatever the handler left unread (a refusal halfway through the parts) is read and thrown away.
        await parts.cancel();
        await body.finish();
      }
    });
  };
}

/** `POST` of one media file (image, video, subtitles) within its kind's limit: the file goes to R2 as it arrives. */
export function uploadAction(kind: MediaKind) {
  const limits = { maxBytes: UPLOAD_LIMITS[kind] + MULTIPART_OVERHEAD, tooLarge: () => fileTooLarge(kind) };
  return multipartAction("content.edit", limits, ({ user, parts, context }) => receiveUpload(context.db, context.media, user.museumId, kind, parts));
}
