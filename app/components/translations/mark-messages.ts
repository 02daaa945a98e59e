import type { TFunction } from "i18next";
import { apiErrorMessage, type ApiFailure } from "~/utils/api-client";

export interface MarkResult {
  marked: number;
  alreadyReviewed: number;
}

/** A refused "mark as reviewed" said for the review page: a conflict names how many translations changed. */
export function markFailureMessage(t: TFunction, failure: ApiFailure): string {
  if (failure.status === 409) {
    const ids = (failure.error as { segments?: unknown }).segments;
    return t("review.mark.conflict", { count: Array.isArray(ids) ? ids.length : 1 });
  }
  return apiErrorMessage(t, failure);
}
