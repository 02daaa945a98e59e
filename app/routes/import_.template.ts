import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { isLocale } from "~/i18n/config";
import { templateCsv, templateXlsx } from "~/import/template";
import { refuseResource } from "~/utils/page.server";
import { requireUser } from "~/utils/session.server";

/** `GET /import/template?lang=fr|en&format=csv|xlsx`: the import template in that language (the page links both). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context, "content.edit", refuseResource);
  const params = new URL(request.url).searchParams;
  const lang = params.get("lang");
  const locale = isLocale(lang) ? lang : "fr";
  const xlsx = params.get("format") === "xlsx";
  const name = locale === "fr" ? "modele-import-articles" : "article-import-template";
  return new Response(xlsx ? (templateXlsx(locale) as Uint8Array<ArrayBuffer>) : templateCsv(locale), {
    headers: {
      "Content-Type": xlsx ? "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" : "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}.${xlsx ? "xlsx" : "csv"}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
