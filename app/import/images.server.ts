// The pictures an import names, read from its ZIP. Each follows the upload rules of a single image (decision
// 015): type from the magic bytes, at most UPLOAD_LIMITS.image; the page resizes larger ones in the browser
// first (decision 055). A dry run only checks and hashes them; an apply stores them in R2 under random keys
// with their SHA-256 as metadata, which is how a re-import recognises a picture it already stored.
import { UPLOAD_LIMITS } from "~/models/media.server";
import { imageSize } from "~/models/image-size";
import { sniffImage, type SniffedType } from "~/models/media-types";
import type { ImportReason } from "./row";
import { baseName, readZip, zipName } from "./zip";

export type StoredImage = {
  sha256: string;
  type: SniffedType;
  bytes: number;
  width: number | null;
  height: number | null;
  /** The R2 key once stored (apply), null in a dry run. */
  key: string | null;
};

export type ImageLookup = { ok: true; image: StoredImage } | { ok: false; reason: ImportReason };

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export class ImageSet {
  private readonly byPath = new Map<string, ImageLookup>();
  private readonly byBase = new Map<string, ImageLookup>();

  add(name: string, lookup: ImageLookup) {
    const path = zipName(name);
    if (!this.byPath.has(path)) this.byPath.set(path, lookup);
    const base = baseName(path);
    if (!this.byBase.has(base)) this.byBase.set(base, lookup);
  }

  /** The sheet's file name, as a path in the archive or else as a bare file name anywhere in it. */
  find(sheetName: string): ImageLookup {
    const path = zipName(sheetName);
    return this.byPath.get(path) ?? this.byBase.get(baseName(path)) ?? { ok: false, reason: "image_missing" };
  }

  /** Every stored key (to delete the ones no row ended up using). */
  keys(): string[] {
    const keys: string[] = [];
    for (const lookup of this.byPath.values()) if (lookup.ok && lookup.image.key) keys.push(lookup.image.key);
    return keys;
  }
}

/** Both ways a sheet cell can name an entry, for the streaming filter. */
export function wantedNames(sheetNames: Iterable<string>): Set<string> {
  const wanted = new Set<string>();
  for (const name of sheetNames) {
    const path = zipName(name);
    wanted.add(path);
    wanted.add(baseName(path));
  }
  return wanted;
}

export interface ImageStore {
  bucket: R2Bucket;
  museumId: number;
  /** True when every row naming this entry updates an article that already shows these bytes: not stored again. */
  alreadyShown?: (entryName: string, sha256: string) => boolean;
}

/**
 * Reads the archive's wanted pictures into `set`; with `store`, each valid one is written to R2 as it comes
 * (a failed import deletes them again: `ImageSet.keys`).
 */
export async function readImages(
  chunks: AsyncIterable<Uint8Array>,
  field: string,
  wanted: ReadonlySet<string>,
  set: ImageSet,
  store: ImageStore | null,
): Promise<void> {
  const limit = UPLOAD_LIMITS.image;
  await readZip(
    chunks,
    field,
    (name) => (wanted.has(name) || wanted.has(baseName(name)) ? limit : null),
    async ({ name, data, truncated }) => {
      if (data.length === 0) return set.add(name, { ok: false, reason: "image_empty" });
      const type = sniffImage(data);
      if (!type) return set.add(name, { ok: false, reason: "image_type" });
      if (truncated) return set.add(name, { ok: false, reason: "image_too_large" });
      const size = imageSize(data);
      const sha256 = await sha256Hex(data);
      let key: string | null = null;
      if (store && !store.alreadyShown?.(name, sha256)) {
        key = `m/${store.museumId}/image/${crypto.randomUUID()}.${type.ext}`;
        await store.bucket.put(key, data, { httpMetadata: { contentType: type.contentType }, customMetadata: { sha256 } });
      }
      set.add(name, { ok: true, image: { sha256, type, bytes: data.length, width: size?.width ?? null, height: size?.height ?? null, key } });
    },
  );
}

/** The SHA-256 of a stored picture: from its metadata when the import stored it, else read and hashed. */
export async function storedSha256(bucket: R2Bucket, key: string, cache?: Map<string, string | null>): Promise<string | null> {
  const known = cache?.get(key);
  if (known !== undefined) return known;
  const sha = await readSha256(bucket, key);
  cache?.set(key, sha);
  return sha;
}

async function readSha256(bucket: R2Bucket, key: string): Promise<string | null> {
  const head = await bucket.head(key);
  if (!head) return null;
  if (head.customMetadata?.sha256) return head.customMetadata.sha256;
  if (head.size > UPLOAD_LIMITS.image * 4) return null;
  const object = await bucket.get(key);
  return object ? sha256Hex(new Uint8Array(await object.arrayBuffer())) : null;
}
