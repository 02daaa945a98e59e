import { exportMuseum } from "~/archive/export.server";
import { actorOf } from "~/audit/log.server";
import { getOnly, readLoader } from "~/utils/api.server";

export const action = getOnly;

/**
 * `GET /api/read/export` (admins: `museum.manage`): the museum as one ZIP, streamed (decision 062): manifest,
 * data files (JSON, statistics as CSV), every media file under `media/`, checksums.
 */
export const loader = readLoader("museum.manage", async ({ user, context }) => {
  const today = new Date().toISOString().slice(0, 10);
  const archive = await exportMuseum(context.db, context.media, user.museumId, actorOf(user));
  return new Response(archive.body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="muselingo-${archive.museumSlug}-${today}.zip"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      // The files' total before compression: lets a client show progress (the ZIP itself is a little larger).
      "X-Archive-Content-Bytes": String(archive.bytes),
    },
  });
});
