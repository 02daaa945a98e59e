import { methodNotAllowed } from "~/utils/http.server";

/** A visitor page: HTML, personal to the visitor's language choice, always revalidated so an edit shows at once. */
export function htmlPage(body: string, status: number, headers: Record<string, string | readonly (string | undefined)[] | undefined> = {}): Response {
  const out = new Headers({
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "private, no-cache",
    Vary: "Accept-Language, Cookie",
  });
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === "string") out.set(name, value);
    else if (value) for (const one of value) if (one) out.append(name, one);
  }
  return new Response(body, { status, headers: out });
}

/** The `action` of the visitor pages that only read: 405, `Allow: GET, HEAD` (docs/api.md). */
export const readOnlyPage = () => methodNotAllowed("GET, HEAD");

/** 405 for a method a reading page does not take (Remix hands `OPTIONS` to the loader); null for GET and HEAD. */
export function refusedMethod(request: Request): Response | null {
  return request.method === "GET" || request.method === "HEAD" ? null : readOnlyPage();
}

/** Staff previews carry `ignoreStats=true` on every link of the page, so browsing them is never counted. */
export function ignoresStats(url: URL): boolean {
  return url.searchParams.get("ignoreStats") === "true";
}

/** A staff preview of the draft asks for it with `?preview=draft` (decision 041; the session decides). */
export function asksDraftPreview(url: URL): boolean {
  return url.searchParams.get("preview") === "draft";
}

/** The query every link of the page keeps (`ignoreStats=true` on a staff preview, `preview=draft`), or "". */
export function keptQuery(url: URL): string {
  const kept = new URLSearchParams();
  if (ignoresStats(url)) kept.set("ignoreStats", "true");
  if (asksDraftPreview(url)) kept.set("preview", "draft");
  return kept.toString();
}
