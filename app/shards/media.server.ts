// A museum's files live in the R2 bucket of its jurisdiction (decision 144): `MEDIA` for most, `MEDIA_EU` (created in
// the EU jurisdiction) for a museum placed in the EU. Every key of a museum names it (`m/{id}/…` media,
// `n/{id}/…` narration audio, `imports/{id}/…` archive staging), so one R2Bucket that picks the bucket from the key
// serves every route, the crons and the narration queue, and none of them names a bucket.
import { museumEntry, shardsOf } from "./route.server";

/** The museum a key belongs to, from its first two segments; null for a key of no museum. */
export function museumOfMediaKey(key: string): number | null {
  const match = /^(?:m|n|imports|archives)\/([1-9]\d{0,15})\//.exec(key);
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : null;
}

/** The deployment's media buckets by jurisdiction: "" is `MEDIA`; "eu" is `MEDIA_EU` when bound. */
export function mediaBuckets(env: object): ReadonlyMap<string, R2Bucket> {
  let out = bucketSets.get(env);
  if (!out) {
    const bindings = env as unknown as Record<string, R2Bucket | undefined>;
    if (!bindings.MEDIA) throw new Error("no media bucket: the R2 binding MEDIA is missing");
    out = new Map([["", bindings.MEDIA]]);
    if (bindings.MEDIA_EU) out.set("eu", bindings.MEDIA_EU);
    bucketSets.set(env, out);
  }
  return out;
}

/** Read once per env (every request makes a routed bucket, a cached visitor view included). */
const bucketSets = new WeakMap<object, Map<string, R2Bucket>>();

/**
 * An R2Bucket whose operations go to the bucket of the museum each key names (the directory's `jurisdiction`,
 * cached as the shard is). A key of no museum, or of a museum the directory does not know, goes to `MEDIA`. A
 * museum placed in the EU whose deployment has no `MEDIA_EU` is an error, never a silent write elsewhere.
 */
export function routedMedia(env: object, kv: KVNamespace | undefined): R2Bucket {
  const buckets = mediaBuckets(env);
  const fallback = buckets.get("")!;
  const bucketOf = async (key: string): Promise<R2Bucket> => {
    const id = museumOfMediaKey(key);
    if (id === null) return fallback;
    const entry = await museumEntry(shardsOf(env), kv, id);
    const jurisdiction = entry?.jurisdiction ?? "";
    const bucket = buckets.get(jurisdiction);
    if (!bucket) throw new Error(`museum ${id}'s files belong in the ${jurisdiction.toUpperCase()} jurisdiction, and this Worker has no bucket there`);
    return bucket;
  };
  const routed = {
    head: async (key: string) => (await bucketOf(key)).head(key),
    get: async (key: string, options?: R2GetOptions) => (await bucketOf(key)).get(key, options),
    put: async (key: string, value: Parameters<R2Bucket["put"]>[1], options?: R2PutOptions) => (await bucketOf(key)).put(key, value, options),
    delete: async (keys: string | string[]) => {
      const list = typeof keys === "string" ? [keys] : keys;
      const groups = new Map<R2Bucket, string[]>();
      for (const key of list) {
        const bucket = await bucketOf(key);
        groups.set(bucket, [...(groups.get(bucket) ?? []), key]);
      }
      for (const [bucket, group] of groups) await bucket.delete(group);
    },
    // A listing names its museum by its prefix; one that names none lists `MEDIA` (the sweep walks each bucket).
    list: async (options?: R2ListOptions) => (await bucketOf(options?.prefix ?? "")).list(options),
    createMultipartUpload: async (key: string, options?: R2MultipartOptions) => (await bucketOf(key)).createMultipartUpload(key, options),
    resumeMultipartUpload: (key: string, uploadId: string): R2MultipartUpload => {
      const upload = async () => (await bucketOf(key)).resumeMultipartUpload(key, uploadId);
      return {
        key,
        uploadId,
        uploadPart: async (...args: Parameters<R2MultipartUpload["uploadPart"]>) => (await upload()).uploadPart(...args),
        abort: async () => (await upload()).abort(),
        complete: async (parts: R2UploadedPart[]) => (await upload()).complete(parts),
      };
    },
  };
  return routed as unknown as R2Bucket;
}
