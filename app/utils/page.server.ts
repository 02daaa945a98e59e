import { data } from "@remix-run/cloudflare";
import { isDomainError } from "~/errors";

/**
 * For page loaders and actions: a domain error thrown by a model becomes a route error response with
 * its status (a 404 shows the not-found page, not a 500), carrying the same `{ error }` body as the API.
 */
export async function orPageError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isDomainError(error)) throw data(error.toBody(), { status: error.status });
    throw error;
  }
}
