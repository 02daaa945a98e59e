// What an uploaded file is, decided from its first bytes: never from the name or the type the browser
// declared, which anyone can set. No SVG: it is a document that can carry script.

export type MediaKind = "image" | "video" | "subtitles";

export interface SniffedType {
  contentType: string;
  ext: string;
}

/** Bytes to look at before deciding. */
export const SNIFF_BYTES = 64;

const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));
const startsWith = (bytes: Uint8Array, magic: number[], at = 0) => magic.every((b, i) => bytes[at + i] === b);

/** The brands of an ISO-BMFF `ftyp` box at offset 0 (major first), or null without one. */
function ftypBrands(bytes: Uint8Array): string[] | null {
  if (bytes.length < 12 || ascii(bytes, 4, 4) !== "ftyp") return null;
  const size = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  const end = Math.min(size >= 16 ? size : 16, bytes.length);
  const brands = [ascii(bytes, 8, 4)];
  // After the major brand comes a 4-byte minor version, then the compatible brands.
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, 4));
  return brands;
}

const AVIF_BRANDS = new Set(["avif", "avis"]);
// Still-image brands of the same container family: never played as a video.
const IMAGE_BRANDS = new Set(["avif", "avis", "heic", "heix", "heim", "heis", "mif1", "msf1"]);

export function sniffImage(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { contentType: "image/png", ext: "png" };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { contentType: "image/jpeg", ext: "jpg" };
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return { contentType: "image/gif", ext: "gif" };
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return { contentType: "image/webp", ext: "webp" };
  const brands = ftypBrands(bytes);
  if (brands?.some((b) => AVIF_BRANDS.has(b))) return { contentType: "image/avif", ext: "avif" };
  return null;
}

export function sniffVideo(bytes: Uint8Array): SniffedType | null {
  const brands = ftypBrands(bytes);
  if (brands && !IMAGE_BRANDS.has(brands[0]!)) return { contentType: "video/mp4", ext: "mp4" };
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return { contentType: "video/webm", ext: "webm" };
  return null;
}

/** WebVTT: an optional UTF-8 BOM, "WEBVTT", then the end, a space, a tab or a line break. */
export function sniffSubtitles(bytes: Uint8Array): SniffedType | null {
  const at = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  if (ascii(bytes, at, 6) !== "WEBVTT") return null;
  const next = bytes[at + 6];
  if (next !== undefined && ![0x20, 0x09, 0x0a, 0x0d].includes(next)) return null;
  return { contentType: "text/vtt", ext: "vtt" };
}

export const SNIFFERS: Record<MediaKind, (bytes: Uint8Array) => SniffedType | null> = {
  image: sniffImage,
  video: sniffVideo,
  subtitles: sniffSubtitles,
};
