import type { ErrorBody } from "~/errors";

/** What the sign-in page says of a refusal (its own words, or the reason's when it is not about the password). */
export function loginErrorKey(data: ErrorBody): string {
  // Signing in writes a session: while the museum moves between databases it waits, and says so (decision 143).
  if (data.error.reason === "museum_moving") return "errors.reasons.museum_moving";
  if (data.error.reason === "museum_suspended") return "errors.reasons.museum_suspended";
  if (data.error.reason === "museum_closed") return "errors.reasons.museum_closed";
  switch (data.error.code) {
    case "rate_limited":
      return "login.rateLimited";
    case "invalid_input":
      return "login.invalidInput";
    default:
      return "login.invalid";
  }
}
