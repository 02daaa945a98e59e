import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { SessionUser } from "~/models/auth.server";
import { apiError, invalidInput, jsonNoStore, readJsonBody, type ApiErrorCode } from "./http.server";
import { requireApiUser } from "./session.server";

/** A refusal with its HTTP status, thrown by models and turned into the JSON error body by the API. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const notFound = (what: string, field?: string) => new ApiError(404, "not_found", `${what} not found`, field);

interface HandlerArgs<T> {
  input: T;
  user: SessionUser;
  request: Request;
  context: AppLoadContext;
}

async function run(fn: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await fn();
    return result instanceof Response ? result : jsonNoStore(result);
  } catch (error) {
    if (error instanceof ApiError) return apiError(error.status, error.code, error.message, { field: error.field });
    throw error;
  }
}

/** `POST` with a JSON body: 401 without a session, 400 for malformed JSON or a field zod refuses. */
export function jsonAction<S extends z.ZodTypeAny>(schema: S, handler: (args: HandlerArgs<z.infer<S>>) => Promise<unknown>) {
  return async ({ request, context }: ActionFunctionArgs) => {
    if (request.method !== "POST") return apiError(405, "method_not_allowed", "Use POST", { headers: { Allow: "POST" } });
    const user = await requireApiUser(request, context);
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const parsed = schema.safeParse(body.value);
    if (!parsed.success) return invalidInput(parsed.error);
    return run(() => handler({ input: parsed.data, user, request, context }));
  };
}

/** `GET` with query parameters parsed by `schema`. */
export function queryLoader<S extends z.ZodTypeAny>(schema: S, handler: (args: HandlerArgs<z.infer<S>>) => Promise<unknown>) {
  return async ({ request, context }: LoaderFunctionArgs) => {
    const user = await requireApiUser(request, context);
    const parsed = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) return invalidInput(parsed.error);
    return run(() => handler({ input: parsed.data, user, request, context }));
  };
}

/** The loader of a POST-only API route. */
export function postOnly() {
  return apiError(405, "method_not_allowed", "Use POST", { headers: { Allow: "POST" } });
}
