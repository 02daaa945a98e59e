import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { notFound } from "~/errors";
import { assertCanReviewLanguage } from "~/teams/roles";
import { orResourceError, refuseResource } from "~/utils/page.server";
import { requireUser } from "~/utils/session.server";
import { exportXliff, xliffDownload } from "~/xliff/export.server";
import { xliffExportSchema } from "~/xliff/input";
import type { ExportScope } from "~/xliff/units.server";

/** The export form's one choice of what to export: `museum`, `f{folderId}` or `a{articleId}`. */
function scopeOf(what: string | null): ExportScope | null {
  if (what === "museum") return { museum: true };
  const match = /^([af])([1-9]\d{0,14})$/.exec(what ?? "");
  if (!match) return null;
  return match[1] === "a" ? { articleId: Number(match[2]) } : { folderId: Number(match[2]) };
}

/**
 * `/translations/files/download?what=museum|f{folderId}|a{articleId}&lang=&version=`: the page form's
 * download (decision 058), the same file as `GET /api/read/xliff`, behind the staff page's login. A refusal
 * is the API's JSON error with its status (a resource route: `refuseResource`).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "translations.review", refuseResource);
  const search = new URL(request.url).searchParams;
  const scope = scopeOf(search.get("what"));
  if (!scope) refuseResource(notFound("Article", "what"));
  const parsed = xliffExportSchema.safeParse({ lang: search.get("lang") ?? undefined, version: search.get("version") ?? undefined });
  if (!parsed.success) refuseResource(notFound("Language", "lang"));
  const input = parsed.data;
  await orResourceError(Promise.resolve().then(() => assertCanReviewLanguage(user, input.lang)));
  const file = await orResourceError(exportXliff(context.db, context.media, user.museumId, { scope, lang: input.lang, version: input.version }));
  return xliffDownload(file, input.version);
}
