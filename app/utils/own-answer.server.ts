import type { AppLoadContext } from "@remix-run/cloudflare";
import { isFormRequest } from "./http.server";

/**
 * A page's path that is also a JSON call of the API (`POST /login`, `/invite/{token}`, `/reset/{token}`;
 * decision 136): the page's action answers the call itself. Remix renders the page after any document action,
 * whatever the action returned, so the action keeps its answer here and throws a copy of it:
 *
 * - the thrown copy ends the action as an error for the root's boundary, so no loader runs after it (the login
 *   page's loader would redirect a caller already logged in; a link page's would count one more lookup of a
 *   used link against the client's guesses) and nothing renders: `app/entry.server.tsx` sends the kept answer,
 *   byte for byte, instead of the page;
 * - a single-fetch `POST /login.data` never reaches the entry: Remix sends the copy, encoded as single fetch
 *   does (the same status, cookies and body).
 *
 * Keyed by the request's load context, which Remix hands unchanged to the action and to the entry.
 */
const answers = new WeakMap<AppLoadContext, Response>();

/** Whether a POST to a page with a form is the API call rather than the form: a JSON body, or anything not a form. */
export const isApiCall = (request: Request) => request.method === "POST" && !isFormRequest(request);

/** Ends the action with `response` as the whole answer to the request (see above). */
export function answerItself(context: AppLoadContext, response: Response): never {
  answers.set(context, response);
  throw response.clone();
}

/** The answer an action kept for this request, once (app/entry.server.tsx). */
export function takeOwnAnswer(context: AppLoadContext): Response | undefined {
  const response = answers.get(context);
  answers.delete(context);
  return response;
}
