import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { z } from "zod";
import { asDomainError } from "~/errors";
import type { SessionUser } from "~/models/auth.server";
import type { Permission } from "~/teams/roles";
import { domainErrorResponse, invalidInput, jsonNoStore, methodNotAllowed, readJsonBody } from "./http.server";
import { requireApiUser } from "./session.server";

interface HandlerArgs<T> {
  input: T;
  user: SessionUser;
  request: Request;
  context: AppLoadContext;
}

/** Runs a handler; a domain error thrown by a model becomes its JSON error response. */
export async function run(fn: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await fn();
    return result instanceof Response ? result : jsonNoStore(result);
  } catch (error) {
    const domain = asDomainError(error);
    if (domain) return domainErrorResponse(domain);
    throw error;
  }
}

/**
 * `POST` with a JSON body: 401 without a session, 403 when the member's role lacks `permission` (decision 040), 415/413/400 for a body it cannot read, 400 naming the
 * field zod refuses. `emptyBody: true` lets a call with no payload (the spec's `add_qrcode`) come without one.
 */
export function jsonAction<S extends z.ZodTypeAny>(
  permission: Permission,
  schema: S,
  handler: (args: HandlerArgs<z.infer<S>>) => Promise<unknown>,
  options: { emptyBody?: boolean } = {},
) {
  return async ({ request, context }: ActionFunctionArgs) => {
    if (request.method !== "POST") return methodNotAllowed("POST");
    // Refused before the body is read (401, 403): the body is left unread, never cancelled (decision 121).
    const user = await requireApiUser(request, context, permission);
    const body = options.emptyBody && hasNoBody(request) ? { ok: true as const, value: {} } : await readJsonBody(request);
    if (!body.ok) return body.response;
    const parsed = schema.safeParse(body.value);
    if (!parsed.success) return invalidInput(parsed.error);
    return run(() => handler({ input: parsed.data, user, request, context }));
  };
}

const hasNoBody = (request: Request) => !request.headers.get("Content-Type") && (request.body === null || request.headers.get("Content-Length") === "0");

/** `GET` with query parameters parsed by `schema` (the last value wins for a repeated parameter). */
export function queryLoader<S extends z.ZodTypeAny>(permission: Permission, schema: S, handler: (args: HandlerArgs<z.infer<S>>) => Promise<unknown>) {
  return async ({ request, context }: LoaderFunctionArgs) => {
    const user = await requireApiUser(request, context, permission);
    const parsed = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) return invalidInput(parsed.error);
    return run(() => handler({ input: parsed.data, user, request, context }));
  };
}

/** A `GET` call without parameters. */
export function readLoader(permission: Permission, handler: (args: Omit<HandlerArgs<unknown>, "input">) => Promise<unknown>) {
  return async ({ request, context }: LoaderFunctionArgs) => {
    const user = await requireApiUser(request, context, permission);
    return run(() => handler({ user, request, context }));
  };
}

/** The loader of a POST-only API route. */
export const postOnly = () => methodNotAllowed("POST");

/** The action of a GET-only API route. */
export const getOnly = () => methodNotAllowed("GET");
