import { DEFAULT_QR_LOOK, type QrLook } from "~/qrcode/looks";

/** Pure helpers shared by the QR code pages (list, detail, print sheet) and their tests. */

/** Lower case without accents, so "ceramique" finds "Céramique" and "CÉRAMIQUE" alike. */
export function foldForSearch(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The spec's picker rule: a case-insensitive substring of the private name (accents ignored here too). */
export function filterArticles<T extends { unformatted_name: string }>(articles: readonly T[], query: string): T[] {
  const needle = foldForSearch(query.trim());
  if (!needle) return [...articles];
  return articles.filter((article) => foldForSearch(article.unformatted_name).includes(needle));
}

/** `&look=…` for the spec's white on black; nothing for the default (decision 115). */
function lookParam(look: QrLook): string {
  return look === DEFAULT_QR_LOOK ? "" : `&look=${look}`;
}

/** The image endpoint; the PNG is the spec's default download, the SVG prints sharp at any size. */
export function qrImageUrl(qrcodeId: number, format: "png" | "svg" = "png", look: QrLook = DEFAULT_QR_LOOK): string {
  return `/api/read/qrcode_image?qrcodeId=${qrcodeId}&format=${format}${lookParam(look)}`;
}

/** A tour's own code (`/t/{link}`), served by its own endpoint. */
export function tourQrImageUrl(tourId: number, format: "png" | "svg" = "png", look: QrLook = DEFAULT_QR_LOOK): string {
  return `/api/read/tour_qrcode?id=${tourId}&format=${format}${lookParam(look)}`;
}

/** `/qrcodes/print?ids=1,2,3`; no ids means every code of the museum. */
export function printHref(ids: readonly number[]): string {
  return ids.length ? `/qrcodes/print?ids=${ids.join(",")}` : "/qrcodes/print";
}

/**
 * The ids asked for on the print sheet, from `ids=1,2,3` or repeated `ids=1&ids=2` (a form sent without
 * JavaScript). Anything that is not an id is ignored rather than refused: the sheet shows what it can.
 */
export function parsePrintIds(params: URLSearchParams): number[] {
  const ids = params
    .getAll("ids")
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => /^\d{1,15}$/.test(value))
    .map(Number)
    .filter((id) => id > 0);
  return [...new Set(ids)];
}

/** The address without its scheme, to type from paper when a phone cannot scan. */
export function shortAddress(address: string): string {
  return address.replace(/^https?:\/\//, "");
}

/** Pages of `size` cells for the printed sheet (3 × 4 per A4 page). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const pages: T[][] = [];
  for (let i = 0; i < items.length; i += size) pages.push(items.slice(i, i + size));
  return pages;
}
