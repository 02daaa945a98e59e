import { ArticlePage } from "../pages/article";
import { renderDocument } from "../pages/shell";
import { htmlPage } from "../respond.server";
import type { ArticlePageModel } from "./model";
import type { ShownText } from "./text";
import type { Visit } from "./visit.server";

/** The page rendered from its model with the visitor's display choices. */
export function renderPage(visit: Pick<Visit, "context" | "display">, model: ArticlePageModel): string {
  return visit.context.timing.rendering(() => renderDocument(<ArticlePage model={model} />, visit.display));
}

/**
 * The answer: the rendered page with the cookies of choices made now (language, easy-to-read), and a draft
 * preview kept private and out of search engines.
 */
export function respond(visit: Pick<Visit, "choice" | "draftPreview">, text: Pick<ShownText, "easyChoice">, html: string): Response {
  const privateHeaders = visit.draftPreview ? { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex, nofollow" } : {};
  return htmlPage(html, 200, { "Set-Cookie": [visit.choice.setCookie, text.easyChoice.setCookie], ...privateHeaders });
}
