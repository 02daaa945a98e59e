import type { VisitorArticle } from "~/models/visitor.server";
import { countOpen, scanEventFor } from "../scan.server";
import type { ShownText } from "./text";
import type { Visit } from "./visit.server";

/** What counting reads of a visit: its request and context, and what the page decided. */
export type Counted = Pick<Visit, "request" | "context" | "target" | "place" | "choice" | "tourStop" | "draftPreview">;

/**
 * Counts the open (decision 032): a scan or a view, sent on the queue after the answer; nothing for a draft
 * preview, a bot, a staff preview, a `HEAD`. An easy-to-read view says so (decision 096).
 */
export function countVisit(visit: Counted, article: VisitorArticle, text: Pick<ShownText, "easy">): void {
  if (visit.draftPreview) return;
  const event = scanEventFor(visit.request, { ...visit.target, article }, visit.place, visit.choice.lang, visit.tourStop);
  countOpen(visit.context, visit.request, event && text.easy ? { ...event, easyRead: true } : event);
}
