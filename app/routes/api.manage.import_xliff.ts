import { DomainError, invalidField } from "~/errors";
import { langSchema } from "~/models/translation-input";
import { postOnly } from "~/utils/api.server";
import type { MultipartReader } from "~/utils/multipart.server";
import { MULTIPART_OVERHEAD, multipartAction } from "~/utils/upload.server";
import { importXliff } from "~/xliff/import.server";
import { flagSchema } from "~/xliff/input";
import { decodeXliffBytes, XLIFF_LIMITS, xliffTooLarge } from "~/xliff/safety";
import { concatBytes } from "~/lib/bytes";

export const loader = postOnly;

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
export const action = multipartAction(
  "translations.review",
  { maxBytes: XLIFF_LIMITS.maxBytes + MULTIPART_OVERHEAD, tooLarge: xliffTooLarge },
  async ({ user, parts, context }) => {
    let file: Uint8Array | null = null;
    const values = new Map<string, string>();
    // A refusal halfway through the parts: multipartAction lets the rest of the body go.
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
    // Awaited, not returned: importXliff refuses most files before its first await, and a promise returned already
    // rejected gets its handler a microtask later, after workerd has reported it unhandled (decision 129).
    return await importXliff(context, user, text, { dryRun, applyStale, lang });
  },
);
