import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { IMPORT_MAX_BYTES, archiveTooLarge } from "~/archive/import.server";
import { importMuseum } from "~/archive/museum-import.server";
import { assertMuseumEmpty } from "~/archive/restore.server";
import { openStagedArchive } from "~/archive/staging.server";
import { actorOf } from "~/audit/log.server";
import { DomainError } from "~/errors";
import { postOnly, run } from "~/utils/api.server";
import { drainingBody, mediaType, methodNotAllowed } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

export const loader = postOnly;

const ZIP_TYPES = new Set(["application/zip", "application/x-zip-compressed", "application/octet-stream"]);

/**
 * `POST /api/manage/import_museum` (admins: `museum.manage`), body: the archive itself (`Content-Type:
 * application/zip`), or `?upload=` naming an archive sent in parts (`import_museum_upload`). Restores it into this museum if it is empty (else 409 `museum_not_empty`); answers the
 * report (counts, QR links kept and changed). Decision 063.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  // A refusal leaves the body unread, and one halfway through the archive reads it to its end (decision 121).
  const user = await requireApiUser(request, context, "museum.manage");
  return run(async () => {
    // The museum's state first: an archive for a museum with content is refused whatever is sent.
    await assertMuseumEmpty(context.db.$client, user.museumId);
    const upload = new URL(request.url).searchParams.get("upload");
    if (upload !== null) {
      // An archive sent in parts first (decision 064): read from R2, deleted whatever the outcome.
      const staged = await openStagedArchive(context.media, user.museumId, upload);
      try {
        return await importMuseum(context.db, context.directory, context.media, user.museumId, staged.body, actorOf(user));
      } finally {
        await staged.remove();
      }
    }
    if (!ZIP_TYPES.has(mediaType(request)))
      throw new DomainError("unsupported_media_type", "Send the archive as the request body with Content-Type: application/zip", "archive", "wrong_type");
    const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
    if (Number.isFinite(declared) && declared > IMPORT_MAX_BYTES) throw archiveTooLarge();
    const body = drainingBody(request);
    if (!body) throw new DomainError("invalid_input", "The archive is missing", "archive", "required");
    try {
      return await importMuseum(context.db, context.directory, context.media, user.museumId, body.stream, actorOf(user));
    } finally {
      await body.finish();
    }
  });
}
