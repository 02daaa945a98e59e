import type { AppLoadContext } from "@remix-run/cloudflare";
import { findLanguage } from "~/translation/languages";
import { mediaType, methodNotAllowed, readFormBody } from "~/utils/http.server";
import { translationDeps } from "~/utils/translation-deps.server";
import { chooseLanguageWithoutMuseum } from "../language.server";
import { renderDocument } from "../pages/shell";
import { htmlPage } from "../respond.server";
import { visitorStrings } from "../strings.server";
import { displayCookie, displayFromForm, displayFromRequest } from "./choices";
import { DisplayPage } from "./page";

const METHODS = ["GET", "HEAD", "POST"];
const MAX_BODY_BYTES = 1024;
const BACK_MAX = 2048;

/**
 * Where "Apply" and "Back" lead: a visitor page of this site (`/r/…`, `/v/…`, `/t/…`), else the home page.
 * Never another site: `//evil.example`, `/\evil`, a scheme or control characters give "/".
 */
export function safeBack(raw: string | null): string {
  if (!raw || raw.length > BACK_MAX || !/^\/[rvt]\//.test(raw) || /[\\\s]|^\/\/|%2f%2f/i.test(raw)) return "/";
  try {
    const url = new URL(raw, "https://muselingo.invalid");
    // Dot segments are resolved first: `/r/../dashboard` is not a visitor page.
    return url.origin === "https://muselingo.invalid" && /^\/[rvt]\//.test(url.pathname) ? `${url.pathname}${url.search}` : "/";
  } catch {
    return "/";
  }
}

/**
 * `GET /display?back=`: the display choices (larger text, contrast, spacing) in the visitor's language;
 * `POST` (the form) keeps them in a cookie and goes back (303). No script anywhere (decision 097).
 */
export async function displayPage(request: Request, context: AppLoadContext): Promise<Response> {
  if (!METHODS.includes(request.method)) {
    return methodNotAllowed(METHODS.join(", "));
  }
  const url = new URL(request.url);
  const back = safeBack(url.searchParams.get("back"));
  if (request.method === "POST") {
    if (mediaType(request) !== "application/x-www-form-urlencoded") {
      return new Response("Send the form as application/x-www-form-urlencoded", { status: 415 });
    }
    const body = await readFormBody(request, MAX_BODY_BYTES);
    if (!body.ok) return body.response;
    const choices = displayFromForm(body.form);
    return new Response(null, {
      status: 303,
      headers: { Location: back, "Set-Cookie": displayCookie(choices, url.protocol === "https:"), "Cache-Control": "no-store" },
    });
  }
  // The page the visitor comes from names its language (`?lang=`); else the remembered one or the browser's.
  const choice = chooseLanguageWithoutMuseum(request);
  const pageLang = findLanguage(new URL(back, url.origin).searchParams.get("lang") ?? "")?.code ?? choice.lang;
  const { strings, lang } = await visitorStrings(translationDeps(context), pageLang);
  const choices = displayFromRequest(request);
  const page = <DisplayPage strings={strings} stringsLang={lang} lang={pageLang} back={back} choices={choices} />;
  return htmlPage(renderDocument(page, choices), 200, { "Set-Cookie": choice.setCookie });
}
