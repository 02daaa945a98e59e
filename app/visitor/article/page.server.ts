// An article's visitor page as a short sequence of named steps (issue 31 §2, decision 133), each in its own
// module of this folder with its own tests: the text shown, the interface's words, the translation, the
// narration, the count, the page model, the rendering, the answer, and the answer kept for the identical
// requests of the next moment (decision 141). The steps read one `Visit` (settled by `visitOf`) and
// what the steps before them returned; a new capability is a new step and a new part of the model.
import type { VisitorArticle } from "~/models/visitor.server";
import { countVisit } from "./count.server";
import { pageModel } from "./model";
import { narrate } from "./narration.server";
import { keepForReplay } from "../replay/replay.server";
import { renderPage, respond } from "./respond.server";
import { chooseText } from "./text";
import { interfaceWords, translateText } from "./translation.server";
import type { Visit } from "./visit.server";

/** The visitor page of a live, published article (or a staff preview of its draft). */
export async function articlePage(visit: Visit, article: VisitorArticle): Promise<Response> {
  const text = chooseText(visit, article);
  const words = interfaceWords(visit);
  const translated = await translateText(visit, text, words);
  const [ui, narration] = await Promise.all([words, narrate(visit, article, translated)]);
  // A replayed view is counted with its own request and context, and only what the page decided (decision 141).
  const { target, place, choice, tourStop, draftPreview } = visit;
  const count = (request: Request, context: Visit["context"]) => countVisit({ request, context, target, place, choice, tourStop, draftPreview }, article, text);
  count(visit.request, visit.context);
  const html = renderPage(visit, pageModel(visit, article, text, ui, translated, narration));
  const response = respond(visit, text, html);
  keepForReplay(visit, { html, response, draftPreview: visit.draftPreview }, visit.holds, count);
  return response;
}
