import { data } from "@remix-run/cloudflare";
import { asDomainError, type DomainError } from "~/errors";
import { domainErrorResponse } from "./http.server";

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
    const domain = asDomainError(error);
    if (domain) refusePage(domain);
    throw error;
  }
}

/**
 * The one way a resource route (a module without a page: a download, a file) refuses: the API's JSON error
 * response, thrown. Remix answers a thrown Response as it is; `refusePage`'s `data()` thrown from a resource
 * route keeps its status but loses its body to `{"message":"Unexpected Server Error"}`.
 */
export function refuseResource(error: DomainError): never {
  throw domainErrorResponse(error);
}

/** `orPageError` for resource routes: a domain error thrown by a model becomes `refuseResource`. */
export async function orResourceError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const domain = asDomainError(error);
    if (domain) refuseResource(domain);
    throw error;
  }
}
