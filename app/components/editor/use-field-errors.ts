import { useMemo } from "react";
import type { ContentElement } from "~/content/schema";
import type { Draft } from "./editor-state";
import type { FieldErrorMap } from "./field-errors";
import { loadedContentCheck } from "./content-check-loader";
import { fieldTarget, type ContentIssue } from "./field-paths";
import type { SaveErrors } from "./use-save-article";

interface Checked {
  /** Set by a save, which loaded the content check first (decision 077). */
  checking: boolean;
  errors: SaveErrors;
  issueMessage: (issue: ContentIssue) => string;
}

/**
 * Errors beside their fields (decision 069): after a refused save, the content is checked live, so a message
 * goes as soon as its field is fixed; a field only the server refused keeps its message until its element
 * changes. A content error no input edits (a damaged element) is said once, on its card.
 */
export function useFieldErrors(content: ContentElement[], draft: Draft, { checking, errors, issueMessage }: Checked) {
  return useMemo(() => {
    const map: Record<string, string> = {};
    let card: { index: number; message: string } | undefined;
    const checker = checking ? loadedContentCheck() : null;
    const issues = checker ? checker.contentIssues(content).filter((issue) => issue.path[0] !== 0) : [];
    if (errors.server) issues.unshift({ path: errors.server.path, reason: "" });
    for (const issue of issues) {
      const message = issue.reason === "" && errors.server ? errors.server.message : issueMessage(issue);
      const inputId = fieldTarget(issue.path, draft)?.inputId;
      if (inputId) map[inputId] ??= message;
      else if (!card && typeof issue.path[0] === "number" && issue.path[0] > 0) card = { index: issue.path[0] - 1, message };
    }
    return { fieldErrors: map as FieldErrorMap, cardError: card };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- issueMessage only reads the language
  }, [content, draft, checking, errors.server]);
}
