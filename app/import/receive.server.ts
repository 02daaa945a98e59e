// The import call's body, read as it streams: `mapping` (optional JSON), `file` (CSV, XLSX, ODS, or a ZIP holding
// one of them and the pictures), then `images` (optional ZIP). `file` must come before `images`, so the
// pictures can be read as they arrive, keeping only those the sheet names (the page sends them in that order).
import { DomainError, invalidField } from "~/errors";
import type { PartSource } from "~/models/media.server";
import { guessMapping, MAPPING_MAX_BYTES, mappingSchema, resolveMapping, type ColumnMapping } from "./columns";
import { ImageSet, readImages, wantedNames, type ImageStore } from "./images.server";
import { parseSheet, SHEET_MAX_BYTES, type Sheet } from "./sheet";
import { chunksOf, readZip, zipName } from "./zip";
import { concatBytes } from "~/lib/bytes";

/** The `images` part: under Cloudflare's 100 MB request body limit with the sheet beside it (decision 055). */
export const IMAGES_MAX_BYTES = 88 * 1024 * 1024;
export const BODY_MAX_BYTES = SHEET_MAX_BYTES + IMAGES_MAX_BYTES + 64 * 1024;

export interface ReceivedImport {
  sheet: Sheet;
  mapping: ColumnMapping;
  /** The mapping was guessed from the headers (no `mapping` field). */
  guessed: boolean;
  images: ImageSet | null;
  fileName: string;
}

const SHEET_IN_ZIP = /\.(csv|tsv|txt|xlsx|ods)$/;

function parseMappingField(text: string) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalidField("mapping", "invalid");
  }
  const parsed = mappingSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const reason = issue.code === "unrecognized_keys" ? "invalid" : issue.message;
    const field = ["mapping", ...issue.path, ...(issue.code === "unrecognized_keys" ? [issue.keys[0]!.slice(0, 40)] : [])].join(".");
    throw new DomainError(
      "invalid_input",
      "The mapping is not valid",
      field,
      (["wrong_type", "out_of_range", "too_long"].includes(reason) ? reason : "invalid") as "invalid",
    );
  }
  return parsed.data;
}

async function readFilePart(parts: PartSource): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await parts.readChunk(); chunk; chunk = await parts.readChunk()) {
    size += chunk.length;
    if (size > SHEET_MAX_BYTES) throw new DomainError("too_large", "The sheet holds at most 10 MB", "file", "too_long");
    chunks.push(chunk);
  }
  return concatBytes(chunks);
}

/** A ZIP that is not itself an XLSX: the sheet inside it, and the archive to read pictures from. */
async function unbundle(bytes: Uint8Array): Promise<{ sheetBytes: Uint8Array; bundle: Uint8Array } | null> {
  const sheets: Uint8Array[] = [];
  const names = await readZip(
    chunksOf(bytes),
    "file",
    (name) => (SHEET_IN_ZIP.test(name) && !name.startsWith("xl/") ? SHEET_MAX_BYTES : null),
    async (entry) => {
      if (entry.truncated) throw new DomainError("too_large", "The sheet holds at most 10 MB", "file", "too_long");
      sheets.push(entry.data);
    },
  );
  // An XLSX or OpenDocument workbook itself (`mimetype` opens every OpenDocument file): read as a sheet.
  if (names.some((n) => zipName(n) === "[content_types].xml" || zipName(n) === "mimetype")) return null;
  if (sheets.length !== 1)
    throw new DomainError("invalid_input", "The ZIP must hold exactly one CSV, XLSX or ODS sheet", "file", sheets.length ? "too_many" : "required");
  return { sheetBytes: sheets[0]!, bundle: bytes };
}

async function* partChunks(parts: PartSource): AsyncIterable<Uint8Array> {
  for (let chunk = await parts.readChunk(); chunk; chunk = await parts.readChunk()) yield chunk;
}

/** Reads the whole body; `store` (an apply) writes the wanted pictures to R2 as they come. */
export async function receiveImport(
  parts: PartSource,
  store: (ImageStore & { prepare?: (sheet: Sheet, mapping: ColumnMapping) => Promise<ImageStore["alreadyShown"]> }) | null,
): Promise<ReceivedImport> {
  let mappingInput: ReturnType<typeof parseMappingField> | null = null;
  let received: { sheet: Sheet; bundle: Uint8Array | null; fileName: string } | null = null;
  let images: ImageSet | null = null;
  const finish = (sheet: Sheet): { mapping: ColumnMapping; guessed: boolean } => {
    if (!mappingInput) return { mapping: guessMapping(sheet.headers), guessed: true };
    const resolved = resolveMapping(mappingInput, sheet.headers);
    if (!resolved.ok) throw invalidField(`mapping.${resolved.field}`, "invalid");
    return { mapping: resolved.mapping, guessed: false };
  };
  let mapping: { mapping: ColumnMapping; guessed: boolean } | null = null;
  const wanted = (sheet: Sheet, m: ColumnMapping) =>
    wantedNames(m.image === undefined ? [] : sheet.rows.map((r) => r.cells[m.image!] ?? "").filter((n) => n !== ""));

  try {
    for (let part = await parts.nextPart(); part; part = await parts.nextPart()) {
      if (part.name === "mapping" && part.filename === null) {
        if (mappingInput || received) throw invalidField("mapping", received ? "invalid" : "too_many");
        const text = await parts.readText(MAPPING_MAX_BYTES);
        if (text === null) throw invalidField("mapping", "too_long");
        mappingInput = parseMappingField(text);
      } else if (part.name === "file") {
        if (received) throw invalidField("file", "too_many");
        if (part.filename === null) throw invalidField("file", "wrong_type");
        const bytes = await readFilePart(parts);
        if (bytes.length === 0) throw invalidField("file", "empty");
        const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b;
        const bundled = isZip ? await unbundle(bytes) : null;
        const sheet = await parseSheet(bundled ? bundled.sheetBytes : bytes);
        received = { sheet, bundle: bundled?.bundle ?? null, fileName: part.filename };
        mapping = finish(sheet);
        if (store?.prepare) store.alreadyShown = await store.prepare(sheet, mapping.mapping);
        if (bundled) {
          images = new ImageSet();
          await readImages(chunksOf(bundled.bundle), "file", wanted(sheet, mapping.mapping), images, store);
        }
      } else if (part.name === "images" && part.filename === "") {
        // An HTML form's file input left empty: no pictures.
        if ((await parts.readText(0)) === null) throw new DomainError("invalid_input", "The images file has no name", "images", "invalid");
      } else if (part.name === "images") {
        if (part.filename === null) throw invalidField("images", "wrong_type");
        if (!received || !mapping) throw new DomainError("invalid_input", "Send `file` before `images`", "images", "invalid");
        if (received.bundle) throw invalidField("images", "too_many");
        if (images) throw invalidField("images", "too_many");
        images = new ImageSet();
        await readImages(partChunks(parts), "images", wanted(received.sheet, mapping.mapping), images, store);
      } else {
        throw new DomainError("invalid_input", `Unexpected field ${JSON.stringify(part.name.slice(0, 40))}`, part.name.slice(0, 40), "invalid");
      }
    }
  } catch (error) {
    await parts.cancel();
    if (images && store) {
      const keys = images.keys();
      for (let i = 0; i < keys.length; i += 1000) await store.bucket.delete(keys.slice(i, i + 1000));
    }
    throw error;
  }
  if (!received || !mapping) throw invalidField("file", "required");
  return { sheet: received.sheet, mapping: mapping.mapping, guessed: mapping.guessed, images, fileName: received.fileName };
}
