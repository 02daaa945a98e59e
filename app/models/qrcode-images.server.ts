import { type QrLook } from "~/qrcode/looks";
import { qrPng, qrSvg } from "~/qrcode/render";
import { sha256Hex } from "~/lib/crypto";

const CONTENT_TYPES = { png: "image/png", svg: "image/svg+xml; charset=utf-8" } as const;
// Bump when the drawing changes, so cached images of the old drawing are never served.
// 2: a quiet zone of 4 modules and two looks (decision 115).
const DRAWING_VERSION = 2;

/**
 * The image of a code's public address, cached in KV by the address itself: a code's image never
 * changes while its address does not (a new PUBLIC_BASE_URL makes new keys), whatever its article does.
 */
export async function qrcodeImage(kv: KVNamespace, address: string, format: "png" | "svg", look: QrLook): Promise<{ body: ArrayBuffer; contentType: string }> {
  const key = `qrimg:v${DRAWING_VERSION}:${format}:${look}:${await sha256Hex(address)}`;
  const cached = await kv.get(key, "arrayBuffer");
  if (cached) return { body: cached, contentType: CONTENT_TYPES[format] };
  const bytes = format === "png" ? await qrPng(address, look) : new TextEncoder().encode(qrSvg(address, look));
  const body = bytes.slice().buffer as ArrayBuffer;
  await kv.put(key, body);
  return { body, contentType: CONTENT_TYPES[format] };
}
