// Archives larger than one request may carry (Cloudflare: 100 MB on the Free and Pro plans, decision 064) are
// first put together in R2 from parts, each its own request, under the museum's own staging key; the import then
// reads that object as a stream, exactly as it reads a request body. The staging object never becomes media: it
// is not in the `media` table, so /media/ never serves it, and it is deleted after the import, refused or not.
import { z } from "zod";
import { DomainError, invalidField } from "~/errors";

/** The largest part one request carries (below Cloudflare's 100 MB). */
export const STAGED_PART_MAX_BYTES = 95 * 1024 * 1024;
/** R2 multipart uploads have at most 10,000 parts. */
const MAX_PARTS = 10_000;

const tokenSchema = z
  .string()
  .max(2048)
  .regex(/^[0-9a-f-]{36}:.+$/);

const prefix = (museumId: number) => `imports/${museumId}/`;

/** The token names a staging object of the caller's museum only: the key is built from the session's museum. */
function parseToken(museumId: number, token: unknown) {
  const parsed = tokenSchema.safeParse(token);
  if (!parsed.success) throw invalidField("upload", "invalid");
  const at = parsed.data.indexOf(":");
  return { key: `${prefix(museumId)}${parsed.data.slice(0, at)}.zip`, uploadId: parsed.data.slice(at + 1) };
}

const unknownUpload = () => new DomainError("not_found", "This upload does not exist (or is over)", "upload");

/** Starts a staged upload; staging objects the museum left behind before are deleted. */
export async function startStagedUpload(bucket: R2Bucket, museumId: number) {
  const old = await bucket.list({ prefix: prefix(museumId), limit: 100 });
  if (old.objects.length) await bucket.delete(old.objects.map((o) => o.key));
  const id = crypto.randomUUID();
  const upload = await bucket.createMultipartUpload(`${prefix(museumId)}${id}.zip`, { httpMetadata: { contentType: "application/zip" } });
  return { upload: `${id}:${upload.uploadId}` };
}

export async function uploadStagedPart(
  bucket: R2Bucket,
  museumId: number,
  token: unknown,
  part: unknown,
  body: ReadableStream<Uint8Array> | null,
  length: number,
) {
  const { key, uploadId } = parseToken(museumId, token);
  const partNumber = z.coerce.number().int().min(1).max(MAX_PARTS).safeParse(part);
  if (!partNumber.success) throw invalidField("part", "out_of_range");
  if (!body || !Number.isFinite(length) || length <= 0) throw new DomainError("invalid_input", "Send the part with its Content-Length", "part", "required");
  if (length > STAGED_PART_MAX_BYTES) throw new DomainError("too_large", "A part is at most 95 MB", "part", "too_long");
  try {
    const uploaded = await bucket.resumeMultipartUpload(key, uploadId).uploadPart(partNumber.data, body);
    return { partNumber: uploaded.partNumber, etag: uploaded.etag };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw unknownUpload();
  }
}

const partsSchema = z.object({
  parts: z
    .array(z.object({ partNumber: z.number().int().min(1).max(MAX_PARTS), etag: z.string().min(1).max(200) }))
    .min(1)
    .max(MAX_PARTS),
});

export async function completeStagedUpload(bucket: R2Bucket, museumId: number, token: unknown, input: unknown) {
  const { key, uploadId } = parseToken(museumId, token);
  const parsed = partsSchema.safeParse(input);
  if (!parsed.success) throw invalidField("parts", "invalid");
  try {
    await bucket.resumeMultipartUpload(key, uploadId).complete(parsed.data.parts);
  } catch {
    throw unknownUpload();
  }
  return { ok: true as const };
}

/** The staged archive as a stream, and a way to delete it once the import is over. */
export async function openStagedArchive(bucket: R2Bucket, museumId: number, token: unknown) {
  const { key } = parseToken(museumId, token);
  const object = await bucket.get(key);
  if (!object) throw unknownUpload();
  return { body: object.body, size: object.size, remove: () => bucket.delete(key) };
}
