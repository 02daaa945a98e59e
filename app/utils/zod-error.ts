import type { ZodError, ZodIssue } from "zod";
import { invalidField, isErrorReason, type DomainError, type ErrorReason } from "~/errors";

/**
 * Field rules put their reason code in the issue's message; zod's own checks map by issue code. zod's
 * messages are never passed on, since some quote the refused value.
 */
export function issueReason(issue: ZodIssue): ErrorReason {
  if (isErrorReason(issue.message)) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      return issue.received === "undefined" ? "required" : "wrong_type";
    case "too_small":
      if (issue.type === "array") return "invalid";
      return Number(issue.minimum) > 1 ? "too_short" : "empty";
    case "too_big":
      return issue.type === "array" ? "too_many" : "too_long";
    default:
      return "invalid";
  }
}

/** The first issue of a failed parse, as the 400 the API and the forms answer. */
export function zodToDomainError(error: ZodError): DomainError {
  const issue = error.issues[0];
  if (!issue) return invalidField(undefined, "invalid");
  // A member the call does not take: name it, so the client knows which one to drop.
  // The key is the caller's text: cut, so a huge key never comes back whole.
  const path = issue.code === "unrecognized_keys" ? [...issue.path, (issue.keys[0] ?? "").slice(0, 64)] : issue.path;
  return invalidField(path.join(".") || undefined, issueReason(issue));
}
