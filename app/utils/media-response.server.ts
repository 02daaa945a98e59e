import type { AppLoadContext } from "@remix-run/cloudflare";
import { findMedia } from "~/models/media.server";

export type ByteRange = { offset: number; length: number } | "unsatisfiable" | null;

/**
 * One range of `bytes=a-b`, `bytes=a-` or `bytes=-n` against a size. null (serve everything) for
 * anything else, as RFC 9110 allows: several ranges, another unit, a malformed or reversed one.
 */
export function parseRange(header: string | null, size: number): ByteRange {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return null;
  const [, first, last] = match as unknown as [string, string, string];
  if (first === "") {
    if (last === "") return null;
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Number(last);
  if (last !== "" && end < start) return null;
  if (start >= size) return "unsatisfiable";
  return { offset: start, length: Math.min(end, size - 1) - start + 1 };
}

const notFoundResponse = () =>
  new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * Serves a recorded media file from R2 with its stored type: whole, one byte range (206) or 416, for
 * GET and HEAD, 304 for a matching If-None-Match. Keys hold a random UUID, so a file never changes under
 * its address: public and immutable for a year.
 */
export async function serveMedia(request: Request, context: AppLoadContext, key: string): Promise<Response> {
  const row = key ? await findMedia(context.db, key) : undefined;
  if (!row) return notFoundResponse();
  return serveStored(request, context, row);
}

/** Serves one R2 object that a table row records (its key, type and size), with the same rules. */
export async function serveStored(request: Request, context: AppLoadContext, row: { r2Key: string; contentType: string; bytes: number }): Promise<Response> {
  const key = row.r2Key;
  const headers = new Headers({
    "Content-Type": row.contentType,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "public, max-age=31536000, immutable",
    "Accept-Ranges": "bytes",
  });
  const range = parseRange(request.headers.get("Range"), row.bytes);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${row.bytes}`);
    return new Response(null, { status: 416, headers });
  }
  const onlyIf = new Headers();
  const ifNoneMatch = request.headers.get("If-None-Match");
  if (ifNoneMatch) onlyIf.set("If-None-Match", ifNoneMatch);
  const head = request.method === "HEAD";
  const object = head ? await context.media.head(key) : await context.media.get(key, { onlyIf, ...(range ? { range } : {}) });
  if (!object) return notFoundResponse();
  headers.set("ETag", object.httpEtag);
  if (ifNoneMatch && (!("body" in object) || ifNoneMatch.split(",").some((t) => t.trim() === object.httpEtag || t.trim() === "*"))) {
    return new Response(null, { status: 304, headers });
  }
  const body = "body" in object ? (object as R2ObjectBody).body : null;
  if (range) {
    headers.set("Content-Range", `bytes ${range.offset}-${range.offset + range.length - 1}/${object.size}`);
    headers.set("Content-Length", String(range.length));
    return new Response(body, { status: 206, headers });
  }
  headers.set("Content-Length", String(object.size));
  return new Response(body, { status: 200, headers });
}
