import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { DomainError } from "~/errors";
import { fileTooLarge, receiveUpload, UPLOAD_LIMITS, type MediaKind } from "~/models/media.server";
import { run } from "./api.server";
import { mediaType, methodNotAllowed } from "./http.server";
import { malformed, MultipartReader, multipartBoundary } from "./multipart.server";
import { requireApiUser } from "./session.server";

/** Room for the part headers and the small fields around the file. */
const MULTIPART_OVERHEAD = 16 * 1024;

/**
 * `POST` of one file as multipart/form-data: 401 without a session, 415 for another body type, 413 as
 * soon as Content-Length (or, without it, the bytes read) pass the kind's limit, 400 for a malformed body.
 */
export function uploadAction(kind: MediaKind) {
  return async ({ request, context }: ActionFunctionArgs) => {
    if (request.method !== "POST") return methodNotAllowed("POST");
    let user;
    try {
      user = await requireApiUser(request, context, "content.edit");
    } catch (refusal) {
      // Refused before the file is read (401, 403): the body is let go, not left for workerd to complain about.
      await request.body?.cancel().catch(() => undefined);
      throw refusal;
    }
    return run(async () => {
      const limit = UPLOAD_LIMITS[kind];
      if (mediaType(request) !== "multipart/form-data") {
        throw new DomainError("unsupported_media_type", "Send the file as multipart/form-data");
      }
      const boundary = multipartBoundary(request.headers.get("Content-Type") ?? "");
      if (!boundary) throw malformed("no valid boundary in Content-Type");
      const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
      if (Number.isFinite(declared) && declared > limit + MULTIPART_OVERHEAD) throw fileTooLarge(kind);
      if (!request.body) throw malformed("no body");
      const parts = new MultipartReader(request.body.getReader(), boundary, limit + MULTIPART_OVERHEAD, () => fileTooLarge(kind));
      return receiveUpload(context.db, context.media, user.museumId, kind, parts);
    });
  };
}
