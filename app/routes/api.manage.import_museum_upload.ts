import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { assertMuseumEmpty } from "~/archive/restore.server";
import { completeStagedUpload, startStagedUpload, uploadStagedPart } from "~/archive/staging.server";
import { invalidField } from "~/errors";
import { postOnly, run } from "~/utils/api.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

export const loader = postOnly;

/**
 * An archive too large for one request, sent in parts to R2 first (decision 064), admins only:
 * `?step=start` → `{upload}`; `?step=part&upload=&part=N` (body: the bytes, ≤ 95 MB) → `{partNumber, etag}`;
 * `?step=complete&upload=` `{parts}`; then `POST /api/manage/import_museum?upload=` imports it.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  // A refusal leaves the body unread, never cancelled (decision 121).
  const user = await requireApiUser(request, context, "museum.manage");
  const search = new URL(request.url).searchParams;
  return run(async () => {
    const step = search.get("step");
    if (step === "start") {
      await assertMuseumEmpty(context.db.$client, user.museumId);
      return await startStagedUpload(context.media, user.museumId);
    }
    if (step === "part") {
      const length = Number(request.headers.get("Content-Length") ?? Number.NaN);
      return await uploadStagedPart(context.media, user.museumId, search.get("upload"), search.get("part"), request.body, length);
    }
    if (step === "complete") {
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      return await completeStagedUpload(context.media, user.museumId, search.get("upload"), body.value);
    }
    throw invalidField("step", "invalid");
  });
}
