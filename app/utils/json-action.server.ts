import type { EntryContext } from "@remix-run/cloudflare";

/**
 * The spec's `POST /login` is a JSON call on the same path as the login page. Remix renders a page
 * after a document POST; when the caller sent JSON we answer with the action's JSON instead, so the
 * public API contract holds while the page keeps working without JavaScript.
 */
const JSON_ACTION_ROUTES = new Set(["routes/login"]);

export function jsonApiActionResponse(
  request: Request,
  status: number,
  headers: Headers,
  remixContext: EntryContext,
): Response | null {
  if (request.method !== "POST") return null;
  if (!(request.headers.get("Content-Type") ?? "").toLowerCase().includes("application/json")) return null;
  const actionData = remixContext.staticHandlerContext.actionData;
  if (!actionData) return null;
  const routeId = Object.keys(actionData).find((id) => JSON_ACTION_ROUTES.has(id));
  if (!routeId) return null;
  const out = new Headers(headers);
  out.set("Content-Type", "application/json; charset=utf-8");
  out.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(actionData[routeId]), { status, headers: out });
}
