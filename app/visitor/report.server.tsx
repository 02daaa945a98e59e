import type { AppLoadContext } from "@remix-run/cloudflare";
import { reserveAttempt } from "~/models/rate-limit.server";
import { clientNetwork } from "~/lib/network";
import { reportFormSchema } from "~/models/translation-input";
import { addReport } from "~/models/translation-review.server";
import { translationDeps } from "~/utils/translation-deps.server";
import { findLanguage } from "~/translation/languages";
import { hmacSha256Hex } from "~/lib/crypto";
import { apiError, clientAddress, mediaType, methodNotAllowed, readFormBody } from "~/utils/http.server";
import { chooseLanguage } from "./language.server";
import { visitorNotFound } from "./not-found.server";
import { ReportPage, type ReportState } from "./pages/report";
import { renderDocument } from "./pages/shell";
import type { Located } from "./place.server";
import { htmlPage, keptQuery } from "./respond.server";
import { visitorStrings } from "./strings.server";

/** Reports per museum and client network in 15 minutes (decision 034). */
export const REPORTS_PER_WINDOW = 5;
const MAX_BODY_BYTES = 8 * 1024;
const METHODS = ["GET", "HEAD", "POST"];

/** The rate-limit key: the museum, and the client's network (IPv6 /64) kept only as a keyed hash. */
async function reportKey(context: AppLoadContext, museumId: number, request: Request): Promise<string> {
  return `report:${museumId}:${await hmacSha256Hex(context.config.SESSION_SECRET, `net:${clientNetwork(clientAddress(request))}`)}`;
}

/**
 * `GET|POST {page}/report`: a visitor's report on a translation, without login. The form posts here as
 * `application/x-www-form-urlencoded`; a refused message comes back in the form with its reason, a sent
 * one gets a thank-you, both in the visitor's language. A report in the museum's own language is refused:
 * it could never be resolved, there being no translation to review (decision 034).
 */
export async function visitorReportPage(request: Request, context: AppLoadContext, { target, place }: Located): Promise<Response> {
  if (!METHODS.includes(request.method)) {
    return methodNotAllowed(METHODS.join(", "));
  }
  if (!target?.article) {
    return visitorNotFound(request, context, place);
  }
  const { museum, article } = target;
  const sourceLang = findLanguage(museum.sourceLang)?.code ?? museum.sourceLang;
  let lang = chooseLanguage(request, museum.sourceLang).lang;
  const page = async (state: ReportState, status = 200, headers: Record<string, string> = {}) => {
    const { strings, lang: stringsLang } = await visitorStrings(translationDeps(context), lang);
    const keep = keptQuery(new URL(request.url));
    return htmlPage(
      renderDocument(
        <ReportPage museumName={museum.name} strings={strings} stringsLang={stringsLang} lang={lang} base={place.base} keep={keep} state={state} />,
      ),
      status,
      headers,
    );
  };
  if (request.method !== "POST") return page(lang === sourceLang ? { kind: "sourceLanguage", alert: false } : { kind: "form" });

  // The page's own form sends this type; multipart is for uploads, and anything else is not this form.
  if (mediaType(request) !== "application/x-www-form-urlencoded") {
    return apiError(415, "unsupported_media_type", "Send the form as application/x-www-form-urlencoded");
  }
  const body = await readFormBody(request, MAX_BODY_BYTES);
  if (!body.ok) return body.response;
  const asked = body.form.get("lang");
  lang = findLanguage(typeof asked === "string" ? asked : "")?.code ?? lang;
  if (lang === sourceLang) return page({ kind: "sourceLanguage", alert: true }, 400);

  const sent = body.form.get("message");
  const parsed = reportFormSchema.safeParse({ message: typeof sent === "string" ? sent : undefined });
  if (!parsed.success) {
    const { strings } = await visitorStrings(translationDeps(context), lang);
    const error = parsed.error.issues[0]?.message === "too_long" ? strings.reportTooLong : strings.reportEmpty;
    return page({ kind: "form", message: typeof sent === "string" ? sent.slice(0, 1000) : "", error }, 400);
  }
  const reservation = await reserveAttempt(context.db, [await reportKey(context, museum.id, request)], Date.now(), REPORTS_PER_WINDOW);
  if (!reservation.allowed) {
    const { strings } = await visitorStrings(translationDeps(context), lang);
    return page({ kind: "form", message: parsed.data.message, error: strings.reportTooMany }, 429, { "Retry-After": String(reservation.retryAfter) });
  }
  await addReport(context.db, { museumId: museum.id, articleId: article.id, lang, message: parsed.data.message });
  return page({ kind: "thanks" });
}
