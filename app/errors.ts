// The one error model. No imports on purpose: models, the queue consumer, the API adapter and page
// loaders all use it, and none of them may drag HTTP or Remix code into another.

export type ErrorCode =
  | "invalid_input"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "unsupported_media_type"
  | "rate_limited"
  | "method_not_allowed"
  | "unavailable";

/**
 * Why a field was refused, for the client to say it in the interface language (`errors.reasons.*`).
 * Field rules give a precise reason; anything else falls back to `invalid`.
 */
export type ErrorReason =
  | "required"
  | "wrong_type"
  | "invalid"
  | "empty"
  | "too_long"
  | "too_many"
  | "slash"
  | "dot_name"
  | "forbidden_characters"
  | "into_itself"
  | "name_taken"
  | "stale_version"
  | "too_short"
  | "mismatch"
  | "wrong_password"
  | "too_many_attempts"
  | "out_of_range"
  | "unsafe_url"
  | "external_media"
  | "foreign_media"
  | "source_language"
  | "no_changes"
  | "never_published"
  | "in_the_past"
  // Narrations (decision 092): a recording plays, so nothing is generated.
  | "recorded"
  // Review (decision 051).
  | "not_translated"
  // Teams (decision 040).
  | "already_member"
  | "last_admin"
  | "link_invalid"
  | "link_expired"
  | "link_revoked"
  // Museum archives (decisions 062, 063).
  | "archive_corrupt"
  | "archive_tampered"
  | "archive_not_muselingo"
  | "archive_newer"
  | "archive_invalid"
  | "museum_not_empty"
  // Easy-to-read versions (decision 094).
  | "engine_failed"
  | "no_engine"
  | "not_generated"
  // Moves between shards (decision 143): staff writes wait a minute.
  | "museum_moving"
  // A museum an operator suspended (decision 147): its members cannot sign in.
  | "museum_suspended"
  // A museum an operator closed (decision 148): its admins may only download its archive.
  | "museum_closed"
  // An address already invited into a museum (decision 149): one address, one museum.
  | "already_invited"
  // A visitor's question another member answered or dismissed meanwhile (decision 151).
  | "already_handled";

const STATUS: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
};

export const ERROR_CODES = Object.keys(STATUS) as ErrorCode[];

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    field?: string;
    reason?: ErrorReason;
    retryAfter?: number;
    current?: StaleDetails;
    archive?: { url: string; until: number };
  };
}

/** What a stale-version 409 tells about the version that won (decision 068): to say who saved and when. */
export interface StaleDetails {
  version: number;
  savedAt: number;
  savedBy: { id: number; email: string } | null;
}

/** A refusal that models throw; the API and page adapters turn it into a response. */
export class DomainError extends Error {
  readonly status: number;
  /** Seconds before trying again (a rate limit); sent as `Retry-After` and in the body. */
  retryAfter?: number;
  /** A stale version's current state (decision 068), sent as `error.current`. */
  current?: StaleDetails;
  /** A closed museum's archive, offered to its admin at sign-in (decision 148), sent as `error.archive`. */
  archive?: { url: string; until: number };

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    readonly reason?: ErrorReason,
  ) {
    super(message);
    this.name = "DomainError";
    this.status = STATUS[code];
    (this as unknown as Record<symbol, boolean>)[Symbol.for("muselingo.DomainError")] = true;
  }

  /** The same error, telling the caller when to try again. */
  withRetryAfter(seconds: number): this {
    this.retryAfter = seconds;
    return this;
  }

  /** The same error, saying which version is current now and who saved it. */
  withCurrent(current: StaleDetails): this {
    this.current = current;
    return this;
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.field ? { field: this.field } : {}),
        ...(this.reason ? { reason: this.reason } : {}),
        ...(this.retryAfter ? { retryAfter: this.retryAfter } : {}),
        ...(this.current ? { current: this.current } : {}),
        ...(this.archive ? { archive: this.archive } : {}),
      },
    };
  }
}

export const notFound = (what: string, field?: string) => new DomainError("not_found", `${what} not found`, field);

export const invalid = (field: string, reason: ErrorReason, message: string) => new DomainError("invalid_input", message, field, reason);

export const conflict = (field: string, message: string, reason: ErrorReason = "name_taken") => new DomainError("conflict", message, field, reason);

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/**
 * The domain error a caught error is or carries: drizzle wraps what the database driver throws (a move's refusal
 * of a write, decision 143) in its own DrizzleQueryError, with the original as `cause`. Null for anything else.
 */
export function asDomainError(error: unknown): DomainError | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) if (e instanceof DomainError || isBranded(e)) return e as DomainError;
  return null;
}

/**
 * workers/app.ts and the Remix server build each bundle their own copy of this module: a refusal thrown by the
 * Worker's code (the routed database of `context.db`) is the other copy's DomainError, known by its brand.
 */
const BRAND = Symbol.for("muselingo.DomainError");
const isBranded = (error: Error) => (error as unknown as Record<symbol, unknown>)[BRAND] === true;

/** Error messages quote user input shortened, so a 1 MB bad value never comes back whole. */
export function quote(value: string, max = 60): string {
  const chars = [...value];
  return JSON.stringify(chars.length > max ? `${chars.slice(0, max).join("")}…` : value);
}

/** True when D1 refused a write because of a UNIQUE index (a lost race on a name or slug). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const message = (e as { message?: unknown }).message;
    if (typeof message === "string" && message.includes("UNIQUE constraint failed")) return true;
  }
  return false;
}

/** English wording of each reason, for API clients; the app's own pages say it through the locales. */
export const REASON_TEXT: Record<ErrorReason, string> = {
  required: "is required",
  wrong_type: "has the wrong type",
  invalid: "is not valid",
  empty: "cannot be empty",
  too_long: "is too long",
  too_many: "has too many items",
  slash: "cannot contain /",
  dot_name: "cannot be . or ..",
  forbidden_characters: "contains control, invisible or malformed characters",
  into_itself: "cannot be the folder itself or one of its folders",
  name_taken: "is already taken here",
  stale_version: "was changed by someone else meanwhile",
  too_short: "is too short",
  mismatch: "does not match",
  wrong_password: "is not the right password",
  too_many_attempts: "was tried too many times; wait before trying again",
  out_of_range: "is out of range",
  unsafe_url: "is not an allowed address",
  external_media: "must be a file uploaded to Muselingo (/media/…), not an address on another site",
  foreign_media: "is a file of another museum: upload the file to this museum",
  source_language: "is the article's own language",
  no_changes: "has no changes since the last publication",
  never_published: "was never published: there is no published version to go back to",
  in_the_past: "is in the past",
  recorded: "has a recorded narration: remove it first",
  not_translated: "has no translation yet: there is nothing to mark as reviewed",
  already_member: "already has an account (an address belongs to one museum)",
  last_admin: "is the museum's last admin: make someone else admin first",
  link_invalid: "was already used or is not a valid link",
  link_expired: "has expired: ask an admin for a new link",
  link_revoked: "was withdrawn by an admin: ask for a new link",
  archive_corrupt: "is not a readable ZIP file",
  archive_tampered: "was changed or damaged: a file does not match its checksum",
  archive_not_muselingo: "is not a Muselingo museum archive",
  archive_newer: "was made by a newer version of Muselingo",
  archive_invalid: "holds data this version cannot restore",
  museum_not_empty: "is not empty: import into a new, empty museum",
  engine_failed: "could not be written: the text engine failed; nothing was changed, try again later",
  no_engine: "cannot be generated: no LLM engine (workers-ai-llm, openai-compatible) is configured",
  not_generated: "has no easy-to-read version yet",
  museum_moving: "is moving to another database: try again in a minute",
  museum_suspended: "is suspended by the operator of this service",
  museum_closed: "is closed by the operator of this service",
  already_invited: "already has a pending invitation to a museum",
  already_handled: "was answered or dismissed by another member meanwhile",
};

/** A member of a suspended museum signing in (decision 147): 403, said in the interface language. */
export const museumSuspended = () =>
  new DomainError("forbidden", "This museum is suspended by the operator of this service: contact them", undefined, "museum_suspended");

/**
 * A member of a closed museum signing in (decision 148): 403; an admin's answer carries a download link of the
 * museum's archive, valid an hour, and when the archive goes.
 */
export const museumClosed = (archive?: { url: string; until: number }) => {
  const error = new DomainError("forbidden", "This museum was closed by the operator of this service", undefined, "museum_closed");
  if (archive) error.archive = archive;
  return error;
};

export function isErrorReason(value: unknown): value is ErrorReason {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(REASON_TEXT, value);
}

/** 400 naming the field and the reason; never repeats the refused value. */
export function invalidField(field: string | undefined, reason: ErrorReason): DomainError {
  const message = field ? `${field} ${REASON_TEXT[reason]}` : `The input ${REASON_TEXT[reason]}`;
  return new DomainError("invalid_input", message, field, reason);
}
