import type { TFunction } from "i18next";
import { TEXT_MAX_LENGTH } from "~/content/defaults";
import { apiErrorMessage, type ApiFailure } from "~/utils/api-client";

/** A refused translation said for a translation (the shared reasons speak of names). */
export function segmentErrorMessage(t: TFunction, failure: ApiFailure): string {
  if (failure.error.field === "text") {
    const reason = failure.error.reason;
    if (reason === "empty") return t("translations.segment.errors.empty");
    if (reason === "too_long") return t("translations.segment.errors.tooLong", { max: TEXT_MAX_LENGTH });
    if (reason === "forbidden_characters") return t("translations.segment.errors.forbidden");
  }
  if (failure.error.code === "not_found") return t("translations.segment.errors.gone");
  return apiErrorMessage(t, failure);
}

/** A segment is one line: line breaks typed or pasted become spaces, as the server would refuse them. */
export const oneLine = (text: string) => text.replace(/\r\n?|\n/g, " ");
