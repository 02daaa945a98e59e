import type { ArticleContent } from "~/content/schema";
import type { VisitorArticle, VisitorTarget } from "~/models/visitor.server";
import { chooseEasyRead, type EasyChoice } from "../easy-read/choice";

/** Which text of the article the page shows, before any translation. */
export interface ShownText {
  /** The visitor's easy-to-read choice (`?easy=`, else the cookie) and the cookie remembering one made now. */
  easyChoice: EasyChoice;
  /** The approved easy-to-read version (decision 096); null when there is none, and always in a draft preview. */
  easyContent: ArticleContent | null;
  /** The easy-to-read version is what shows. */
  easy: boolean;
  /** `?original=1` while reading a language other than the museum's: the text as written. */
  showingOriginal: boolean;
  /** The text to translate (or to show as it is): the article's, or its easy-to-read version. */
  shown: { id: number; museumId: number; content: ArticleContent };
}

/** What the text step reads of the visit. */
export interface TextAsk {
  request: Request;
  url: URL;
  target: Pick<VisitorTarget, "museum" | "easyRead">;
  choice: { lang: string };
  draftPreview: boolean;
}

/**
 * The article's text or its approved easy-to-read version (decision 096) when the visitor chose it, never
 * in a draft preview; and whether the visitor asked for the original rather than the translation.
 */
export function chooseText(visit: TextAsk, article: VisitorArticle): ShownText {
  const { museum } = visit.target;
  const showingOriginal = visit.url.searchParams.get("original") === "1" && visit.choice.lang !== museum.sourceLang;
  const easyChoice = chooseEasyRead(visit.request);
  const easyContent = visit.draftPreview ? null : (visit.target.easyRead ?? null);
  const easy = easyChoice.on && easyContent !== null;
  return { easyChoice, easyContent, easy, showingOriginal, shown: { id: article.id, museumId: museum.id, content: easy ? easyContent : article.content } };
}
