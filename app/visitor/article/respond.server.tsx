import { ArticlePage } from "../pages/article";
import { renderDocument } from "../pages/shell";
import { htmlPage } from "../respond.server";
import type { ArticlePageModel } from "./model";
import type { ShownText } from "./text";
import type { Visit } from "./visit.server";

/**
 * The answer: the page rendered from its model with the visitor's display choices, the cookies of choices
 * made now (language, easy-to-read), and a draft preview kept private and out of search engines.
 */
export function respond(
  visit: Pick<Visit, "context" | "display" | "choice" | "draftPreview">,
  text: Pick<ShownText, "easyChoice">,
  model: ArticlePageModel,
): Response {
  const privateHeaders = visit.draftPreview ? { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex, nofollow" } : {};
  return htmlPage(
    visit.context.timing.rendering(() => renderDocument(<ArticlePage model={model} />, visit.display)),
    200,
    { "Set-Cookie": [visit.choice.setCookie, text.easyChoice.setCookie], ...privateHeaders },
  );
}
