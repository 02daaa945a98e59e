import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { DomainError, invalidField } from "~/errors";
import { langSchema } from "~/models/translation-input";
import { run } from "~/utils/api.server";
import { mediaType, methodNotAllowed } from "~/utils/http.server";
import { malformed, MultipartReader, multipartBoundary } from "~/utils/multipart.server";
import { requireApiUser } from "~/utils/session.server";
import { postOnly } from "~/utils/api.server";
import { importXliff } from "~/xliff/import.server";
import { flagSchema } from "~/xliff/input";
import { decodeXliffBytes, XLIFF_LIMITS, xliffTooLarge } from "~/xliff/safety";
import { concatBytes } from "~/lib/bytes";

export const loader = postOnly;

/** Room for the part headers and the small fields around the file. */
const MULTIPART_OVERHEAD = 16 * 1024;
const FIELD_MAX_BYTES = 64;
const FIELDS = ["dryRun", "applyStale", "lang"] as const;

async function readFile(parts: MultipartReader): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let chunk = await parts.readChunk(); chunk; chunk = await parts.readChunk()) {
    total += chunk.length;
    if (total > XLIFF_LIMITS.maxBytes) {
      await parts.cancel();
      throw xliffTooLarge();
    }
    chunks.push(chunk);
  }
  return concatBytes(chunks);
}

/**
 * `POST /api/manage/import_xliff` (multipart: `file`, `dryRun`, `applyStale`, optional `lang`): a
 * translator's XLIFF back in, judged unit by unit; the report lists every unit (decision 059). 413 as
 * soon as Content-Length (or the bytes read) pass 20 MB, before any parsing.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  let user;
  try {
    user = await requireApiUser(request, context, "translations.review");
  } catch (refusal) {
    // Refused before the file is read (401, 403): the body is let go, not left for workerd to complain about.
    await request.body?.cancel().catch(() => undefined);
    throw refusal;
  }
  return run(async () => {
    const cancel = () => request.body?.cancel().catch(() => undefined);
    if (mediaType(request) !== "multipart/form-data") {
      await cancel();
      throw new DomainError("unsupported_media_type", "Send the file as multipart/form-data");
    }
    const boundary = multipartBoundary(request.headers.get("Content-Type") ?? "");
    if (!boundary) {
      await cancel();
      throw malformed("no valid boundary in Content-Type");
    }
    const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
    if (Number.isFinite(declared) && declared > XLIFF_LIMITS.maxBytes + MULTIPART_OVERHEAD) {
      await cancel();
      throw xliffTooLarge();
    }
    if (!request.body) throw malformed("no body");
    const parts = new MultipartReader(request.body.getReader(), boundary, XLIFF_LIMITS.maxBytes + MULTIPART_OVERHEAD, xliffTooLarge);
    let file: Uint8Array | null = null;
    const values = new Map<string, string>();
    try {
      for (let part = await parts.nextPart(); part; part = await parts.nextPart()) {
        if (part.name === "file") {
          if (file) throw invalidField("file", "too_many");
          if (part.filename === null) throw invalidField("file", "wrong_type");
          file = await readFile(parts);
          continue;
        }
        if (part.filename !== null || !(FIELDS as readonly string[]).includes(part.name)) {
          throw new DomainError("invalid_input", `Unexpected field ${JSON.stringify(part.name.slice(0, 40))}`, part.name.slice(0, 40), "invalid");
        }
        if (values.has(part.name)) throw invalidField(part.name, "too_many");
        const text = await parts.readText(FIELD_MAX_BYTES);
        if (text === null) throw invalidField(part.name, "too_long");
        values.set(part.name, text);
      }
    } catch (error) {
      await parts.cancel();
      throw error;
    }
    if (!file) throw invalidField("file", "required");
    const flag = (name: "dryRun" | "applyStale") => {
      const parsed = flagSchema.safeParse(values.get(name) ?? "");
      if (!parsed.success) throw invalidField(name, "invalid");
      return parsed.data;
    };
    const dryRun = flag("dryRun");
    const applyStale = flag("applyStale");
    const rawLang = values.get("lang")?.trim();
    let lang: string | undefined;
    if (rawLang) {
      const parsed = langSchema.safeParse(rawLang);
      if (!parsed.success) throw invalidField("lang", "invalid");
      lang = parsed.data;
    }
    const text = decodeXliffBytes(file);
    return importXliff(context, user, text, { dryRun, applyStale, lang });
  });
}
