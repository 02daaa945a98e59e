import { data } from "@remix-run/cloudflare";
import { isDomainError, type DomainError } from "~/errors";

/**
 * The one way a page loader refuses: throw the domain error as a route error response with its status (a
 * 404 shows the not-found page, not a 500) and the same `{ error }` body as the API.
 */
export function refusePage(error: DomainError): never {
  throw data(error.toBody(), { status: error.status, headers: error.retryAfter ? { "Retry-After": String(error.retryAfter) } : undefined });
}

/**
 * A page action's refusal, returned (not thrown) so the form shows it beside its fields: the `{ error }` body
 * with the error's status.
 */
export function actionRefusal(error: DomainError) {
  return data(error.toBody(), { status: error.status, headers: error.retryAfter ? { "Retry-After": String(error.retryAfter) } : undefined });
}

/** For page loaders and actions: a domain error thrown by a model becomes the page's refusal (refusePage). */
export async function orPageError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isDomainError(error)) refusePage(error);
    throw error;
  }
}
