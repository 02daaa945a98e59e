import type { AppLoadContext } from "@remix-run/cloudflare";
import { articlePage } from "./article/page.server";
import { visitOf, type Visit } from "./article/visit.server";
import { visitorNotFound } from "./not-found.server";
import { NotAvailablePage } from "./pages/not-available";
import { NotLinkedPage } from "./pages/not-linked";
import { renderDocument } from "./pages/shell";
import type { Located } from "./place.server";
import { htmlPage, refusedMethod } from "./respond.server";
import { visitorStrings } from "./strings.server";

/**
 * The visitor page of an address: the article's (its steps in ./article/page.server.ts, decision 133), a code
 * that leads nowhere yet, an article not available yet, or the 404 page.
 */
export async function visitorPage(request: Request, context: AppLoadContext, located: Located): Promise<Response> {
  const refused = refusedMethod(request);
  if (refused) return refused;
  const { target } = located;
  if (!target) return visitorNotFound(request, context, located.place);
  const visit = visitOf(request, context, { ...located, target });
  // A snapshot cached before 0015 has no such field: not suspended.
  if (typeof target.museum.suspendedAt === "number" || typeof target.museum.closedAt === "number") return suspendedPage(visit);
  return target.article ? articlePage(visit, target.article) : placeholderPage(visit);
}

/** How long a visitor is told to wait before trying a suspended museum's page again (decision 147). */
export const SUSPENDED_RETRY_SECONDS = 3600;

/**
 * The museum's guide is suspended by an operator (decision 147): a polite page in the visitor's language, 503 with
 * `Retry-After`, nothing counted, nothing of the article shown, kept out of search engines.
 */
export async function suspendedPage(visit: Pick<Visit, "deps" | "choice" | "target" | "place" | "context" | "display">): Promise<Response> {
  const { strings, lang } = await visitorStrings(visit.deps, visit.choice.lang);
  // Closed by an operator (decision 148): gone for good, 410, no invitation to come back.
  const closed = typeof visit.target.museum.closedAt === "number";
  const page = (
    <NotAvailablePage
      suspended
      closed={closed}
      museumName={visit.target.museum.name}
      strings={strings}
      lang={visit.choice.lang}
      stringsLang={lang}
      base={visit.place.base}
      nonce={visit.context.cspNonce}
    />
  );
  return htmlPage(
    visit.context.timing.rendering(() => renderDocument(page, visit.display)),
    closed ? 410 : 503,
    {
      "Set-Cookie": visit.choice.setCookie,
      "X-Robots-Tag": "noindex",
      ...(closed ? {} : { "Retry-After": String(SUSPENDED_RETRY_SECONDS) }),
    },
  );
}

/**
 * No article to show. Never published (decision 041): "not available yet", 404, nothing counted, kept out of
 * search engines. A code linked to nothing (or to an article in the trash): "leads nowhere yet", 200.
 */
async function placeholderPage(visit: Visit): Promise<Response> {
  const { museum, unpublished } = visit.target;
  const { strings, lang } = await visitorStrings(visit.deps, visit.choice.lang);
  const props = { museumName: museum.name, strings, lang: visit.choice.lang, stringsLang: lang, base: visit.place.base, nonce: visit.context.cspNonce };
  const page = unpublished ? <NotAvailablePage {...props} /> : <NotLinkedPage {...props} />;
  return htmlPage(
    visit.context.timing.rendering(() => renderDocument(page, visit.display)),
    unpublished ? 404 : 200,
    unpublished ? { "Set-Cookie": visit.choice.setCookie, "X-Robots-Tag": "noindex" } : { "Set-Cookie": visit.choice.setCookie },
  );
}
