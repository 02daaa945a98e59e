// `POST /api/manage/import_museum` (decision 063): an archive from `exportMuseum` restored into an empty museum.
// The body is read as it arrives: the manifest first (what it is, which versions; refused before anything is
// written), the data files into memory (checked against their hashes), each media file streamed into R2 under
// a new key of this museum. Then one D1 batch writes every row, guarded so that it runs only while the museum is
// still empty (exactly one of several parallel imports wins). Any refusal deletes the media already written.
import { DomainError } from "~/errors";
import { SNIFF_BYTES, SNIFFERS } from "~/models/media-types";
import { AUDIO_SNIFF_BYTES, sniffGenerated, sniffRecording } from "~/speech/audio-types";
import { corruptArchive, entryContent, ZipReader, type ZipEntry } from "./zip-reader";
import {
  ARCHIVE_FORMAT_VERSION,
  CHECKSUMS_PATH,
  DATA_FILES,
  OPTIONAL_DATA_FILES,
  MANIFEST_PATH,
  MEDIA_DIR,
  NARRATION_DIR,
  manifestHeadSchema,
  manifestSchema,
  parseChecksumLines,
  SCHEMA_VERSION,
  schemaNumber,
  type Manifest,
} from "./format";
import { sha256Bytes as sha256, sha256Stream } from "./hash";
import { concatBytes } from "~/lib/bytes";

/** What one request may carry (Cloudflare's plans cap a request body lower: decision 064). */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024 * 1024;
const MANIFEST_MAX_BYTES = 16 * 1024 * 1024;
/** The data files are held in memory until the batch (a Worker has 128 MB): each, and all together, are capped. */
const DATA_FILE_MAX_BYTES = 48 * 1024 * 1024;
const DATA_TOTAL_MAX_BYTES = 64 * 1024 * 1024;

export const archiveError = (reason: "archive_corrupt" | "archive_tampered" | "archive_not_muselingo" | "archive_newer" | "archive_invalid", message: string) =>
  new DomainError("invalid_input", message, "archive", reason);

export const archiveTooLarge = () => new DomainError("too_large", "The archive is too large to send in one request", "archive", "too_long");

/**
 * What the files of one archive may unpack to in all (decision 111): media are stored as they are in an export,
 * so an archive never unpacks to much more than it weighs, plus its data files and lists.
 */
export const ARCHIVE_INFLATED_MAX = IMPORT_MAX_BYTES + DATA_TOTAL_MAX_BYTES + 2 * MANIFEST_MAX_BYTES;

const mb = (n: number) => `${Math.ceil(n / (1024 * 1024)).toLocaleString("en")} MB`;

/**
 * The archive's size accounting, from the manifest's declared sizes before any other entry is inflated: every
 * file, and the data files (held in memory) each and together. Each entry's real size is then held to what it
 * declared as it is inflated (`readAll`, `storeMedia`), and to its local header's size when it has one.
 */
function accountArchive(manifest: Manifest, dataPaths: ReadonlySet<string>) {
  const tooLarge = (message: string) => new DomainError("too_large", message, "archive", "too_long");
  const total = manifest.files.reduce((n, f) => n + f.bytes, 0);
  if (total > ARCHIVE_INFLATED_MAX) {
    throw tooLarge(
      `The archive's ${manifest.files.length.toLocaleString("en")} files unpack to ${mb(total)}; an import reads at most ${mb(ARCHIVE_INFLATED_MAX)}`,
    );
  }
  const data = manifest.files.filter((f) => dataPaths.has(f.path));
  for (const file of data) {
    if (file.bytes > DATA_FILE_MAX_BYTES) throw tooLarge(`${file.path} unpacks to ${mb(file.bytes)}; an import holds at most ${mb(DATA_FILE_MAX_BYTES)} of it`);
  }
  const dataTotal = data.reduce((n, f) => n + f.bytes, 0);
  if (dataTotal > DATA_TOTAL_MAX_BYTES)
    throw tooLarge(`The data files unpack to ${mb(dataTotal)}; an import holds at most ${mb(DATA_TOTAL_MAX_BYTES)} of them`);
}

/** An entry whose local header declares another size than the manifest lists: refused before it is inflated. */
function checkDeclaredSize(entry: ZipEntry, listed: { bytes: number }) {
  if (entry.size !== null && entry.size !== listed.bytes) {
    throw archiveError("archive_tampered", `${entry.name.slice(0, 200)} does not have the size manifest.json lists`);
  }
}

async function readAll(stream: ReadableStream<Uint8Array>, limit: number, path: string): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await readOrCorrupt(reader);
    if (done) break;
    size += value.length;
    if (size > limit) throw archiveError("archive_invalid", `${path} is larger than an archive file may be`);
    chunks.push(value);
  }
  return concatBytes(chunks);
}

/** A read that turns a decompression failure (broken deflate data) into the archive's refusal. */
async function readOrCorrupt(reader: ReadableStreamDefaultReader<Uint8Array>) {
  try {
    return await reader.read();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw corruptArchive("an entry's compressed data is broken");
  }
}

export interface ReadArchive {
  manifest: Manifest;
  data: Map<string, Uint8Array>;
  /** Old R2 key → new R2 key, for every media file written. */
  mediaKeys: Map<string, string>;
  /** Old R2 key → new R2 key, for every narration's audio file written (0010). */
  narrationKeys: Map<string, string>;
}

/** Every R2 key an import wrote (what a refusal deletes). */
export const writtenKeys = (archive: Pick<ReadArchive, "mediaKeys" | "narrationKeys">) => [...archive.mediaKeys.values(), ...archive.narrationKeys.values()];

/** A new key in this museum's space for a file that had `oldKey`, keeping its kind and extension. */
function newMediaKey(museumId: number, oldKey: string, kind: string, space = "m"): string {
  const ext = /\.([a-z0-9]{1,5})$/.exec(oldKey)?.[1] ?? "bin";
  return `${space}/${museumId}/${kind}/${crypto.randomUUID()}.${ext}`;
}

/**
 * Reads the archive and writes its media to R2. On any refusal the media written so far are deleted and the
 * error is thrown; the caller deletes them too if the D1 step refuses later (`written` is returned).
 */
export async function readArchive(body: ReadableStream<Uint8Array>, bucket: R2Bucket, museumId: number, limit = IMPORT_MAX_BYTES): Promise<ReadArchive> {
  const zip = new ZipReader(body.getReader(), limit, archiveTooLarge);
  const keys = { mediaKeys: new Map<string, string>(), narrationKeys: new Map<string, string>() };
  try {
    return await readEntries(zip, bucket, museumId, keys);
  } catch (error) {
    await zip.cancel();
    await deleteKeys(bucket, writtenKeys(keys));
    throw error;
  }
}

export async function deleteKeys(bucket: R2Bucket, keys: string[]) {
  for (let i = 0; i < keys.length; i += 1000) await bucket.delete(keys.slice(i, i + 1000));
}

async function readEntries(zip: ZipReader, bucket: R2Bucket, museumId: number, keys: Pick<ReadArchive, "mediaKeys" | "narrationKeys">): Promise<ReadArchive> {
  const { mediaKeys, narrationKeys } = keys;
  const first = await zip.next().catch((error: unknown) => {
    // Not even a ZIP header: another kind of file.
    if (error instanceof DomainError && error.reason === "archive_corrupt" && zip.bytesRead > 0) {
      throw archiveError("archive_not_muselingo", "This file is not a Muselingo museum archive (a ZIP file made by “Export the museum”)");
    }
    throw error;
  });
  if (!first || first.name !== MANIFEST_PATH)
    throw archiveError("archive_not_muselingo", "This ZIP file is not a Muselingo museum archive: it does not begin with manifest.json");
  const manifestBytes = await readAll(entryContent(first), MANIFEST_MAX_BYTES, MANIFEST_PATH);
  let manifestJson: unknown;
  try {
    manifestJson = JSON.parse(new TextDecoder().decode(manifestBytes));
  } catch {
    throw archiveError("archive_not_muselingo", "manifest.json is not JSON");
  }
  const head = manifestHeadSchema.safeParse(manifestJson);
  if (!head.success) throw archiveError("archive_not_muselingo", "manifest.json does not describe a Muselingo museum archive");
  const archiveSchema = schemaNumber(head.data.schemaVersion);
  if (head.data.formatVersion > ARCHIVE_FORMAT_VERSION || !(archiveSchema <= schemaNumber(SCHEMA_VERSION))) {
    throw archiveError(
      "archive_newer",
      `This archive was made by a newer version of Muselingo (archive format ${head.data.formatVersion}, database ${head.data.schemaVersion}); this installation reads format ${ARCHIVE_FORMAT_VERSION} and database ${SCHEMA_VERSION} or older. Update this installation first.`,
    );
  }
  const parsed = manifestSchema.safeParse(manifestJson);
  if (!parsed.success) throw archiveError("archive_invalid", "manifest.json is incomplete");
  const manifest = parsed.data;
  const expected = new Map(manifest.files.map((f) => [f.path, f]));
  if (expected.size !== manifest.files.length) throw archiveError("archive_invalid", "manifest.json lists a file twice");
  const hashes = new Map<string, string>([[MANIFEST_PATH, await sha256(manifestBytes)]]);
  const data = new Map<string, Uint8Array>();
  // The optional data files (tours, 0009) are read when the manifest lists them: older archives have none.
  const dataPaths = new Set<string>([...Object.values(DATA_FILES), ...Object.values(OPTIONAL_DATA_FILES).filter((path) => expected.has(path))]);
  accountArchive(manifest, dataPaths);
  const mediaKinds = await mediaKindsFrom(manifest, zip, data, hashes, dataPaths, expected);
  const narrationTypes = narrationTypesFrom(data);

  for (let entry = await zip.next(); entry; entry = await zip.next()) {
    const path = entry.name;
    if (path === CHECKSUMS_PATH) {
      const text = new TextDecoder().decode(await readAll(entryContent(entry), MANIFEST_MAX_BYTES, path));
      const listed = parseChecksumLines(text);
      if (!listed) throw archiveError("archive_invalid", `${CHECKSUMS_PATH} is not a list of SHA-256 sums`);
      if (listed.size !== hashes.size) throw archiveError("archive_tampered", `${CHECKSUMS_PATH} does not list the files the archive holds`);
      for (const [file, hash] of hashes) {
        if (listed.get(file) !== hash) throw archiveError("archive_tampered", `${file} does not match its checksum: the archive was changed or damaged`);
      }
      for (const file of expected.keys()) if (!hashes.has(file)) throw archiveError("archive_tampered", `${file} is missing from the archive`);
      await zip.drain();
      return { manifest, data, mediaKeys, narrationKeys };
    }
    const listed = expected.get(path);
    if (!listed || hashes.has(path)) throw archiveError("archive_tampered", `${path.slice(0, 200)} is not listed in manifest.json`);
    checkDeclaredSize(entry, listed);
    if (path.startsWith(NARRATION_DIR)) {
      // A narration's audio (decision 100): its row says recorded or generated and the type; new key in `n/`.
      const oldKey = path.slice(NARRATION_DIR.length);
      const narration = narrationTypes.get(oldKey);
      if (!narration || narrationKeys.has(oldKey))
        throw archiveError("archive_invalid", `${path.slice(0, 200)} has no row in ${OPTIONAL_DATA_FILES.narrations}`);
      const newKey = newMediaKey(museumId, oldKey, narration.kind === "recorded" ? "rec" : "gen", "n");
      narrationKeys.set(oldKey, newKey);
      hashes.set(path, await storeMedia(bucket, entryContent(entry), newKey, listed.bytes, narration, path));
      if (listed.sha256 && listed.sha256 !== hashes.get(path)) throw archiveError("archive_tampered", `${path} does not match its checksum`);
      continue;
    }
    if (!path.startsWith(MEDIA_DIR)) throw archiveError("archive_invalid", `${path.slice(0, 200)} is not a media file`);
    const oldKey = path.slice(MEDIA_DIR.length);
    const media = mediaKinds.get(oldKey);
    if (!media) throw archiveError("archive_invalid", `${path.slice(0, 200)} has no row in ${DATA_FILES.media}`);
    const newKey = newMediaKey(museumId, oldKey, media.kind);
    mediaKeys.set(oldKey, newKey);
    hashes.set(path, await storeMedia(bucket, entryContent(entry), newKey, listed.bytes, media, path));
    if (listed.sha256 && listed.sha256 !== hashes.get(path)) throw archiveError("archive_tampered", `${path} does not match its checksum`);
  }
  throw archiveError("archive_tampered", `${CHECKSUMS_PATH} is missing: the archive is incomplete`);
}

/** Reads the data files that come right after the manifest; returns the media rows by key. */
async function mediaKindsFrom(
  manifest: Manifest,
  zip: ZipReader,
  data: Map<string, Uint8Array>,
  hashes: Map<string, string>,
  dataPaths: Set<string>,
  expected: Map<string, { bytes: number; sha256?: string }>,
) {
  let total = 0;
  while (data.size < dataPaths.size) {
    const entry = await zip.next();
    if (!entry) throw archiveError("archive_tampered", "The archive ends before its data files");
    if (!dataPaths.has(entry.name) || data.has(entry.name))
      throw archiveError("archive_invalid", `${entry.name.slice(0, 200)} is not where a data file was expected`);
    const listed = expected.get(entry.name);
    if (!listed) throw archiveError("archive_tampered", `${entry.name} is not listed in manifest.json`);
    checkDeclaredSize(entry, listed);
    // Inflated never past what the manifest lists (a deflate bomb stops there, however much it holds).
    const bytes = await readAll(entryContent(entry), Math.min(listed.bytes, DATA_FILE_MAX_BYTES), entry.name);
    total += bytes.length;
    if (total > DATA_TOTAL_MAX_BYTES) throw archiveError("archive_invalid", "The data files are larger than an import can hold");
    const hash = await sha256(bytes);
    if (bytes.length !== listed.bytes || (listed.sha256 && listed.sha256 !== hash))
      throw archiveError("archive_tampered", `${entry.name} does not match its checksum: the archive was changed or damaged`);
    data.set(entry.name, bytes);
    hashes.set(entry.name, hash);
  }
  let rows: unknown;
  try {
    rows = JSON.parse(new TextDecoder().decode(data.get(DATA_FILES.media)));
  } catch {
    throw archiveError("archive_invalid", `${DATA_FILES.media} is not JSON`);
  }
  const out = new Map<string, { kind: "image" | "video" | "subtitles"; contentType: string }>();
  if (!Array.isArray(rows)) throw archiveError("archive_invalid", `${DATA_FILES.media} is not a list`);
  for (const row of rows as { key?: unknown; kind?: unknown; contentType?: unknown }[]) {
    if (typeof row?.key === "string" && (row.kind === "image" || row.kind === "video" || row.kind === "subtitles") && typeof row.contentType === "string") {
      out.set(row.key, { kind: row.kind, contentType: row.contentType });
    }
  }
  void manifest;
  return out;
}

/** The narrations' rows by key (absent from archives made before 0010: none then). */
function narrationTypesFrom(data: Map<string, Uint8Array>) {
  const out = new Map<string, { kind: "recorded" | "generated"; contentType: string }>();
  const bytes = data.get(OPTIONAL_DATA_FILES.narrations);
  if (!bytes) return out;
  let rows: unknown;
  try {
    rows = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw archiveError("archive_invalid", `${OPTIONAL_DATA_FILES.narrations} is not JSON`);
  }
  if (!Array.isArray(rows)) throw archiveError("archive_invalid", `${OPTIONAL_DATA_FILES.narrations} is not a list`);
  for (const row of rows as { key?: unknown; kind?: unknown; contentType?: unknown }[]) {
    if (typeof row?.key === "string" && (row.kind === "recorded" || row.kind === "generated") && typeof row.contentType === "string") {
      out.set(row.key, { kind: row.kind, contentType: row.contentType });
    }
  }
  return out;
}

/** What a file's first bytes are, as an upload (media) or a narration (recorded: the recording types; generated: WAV too) would sniff them. */
function sniffed(media: StoredKind, head: Uint8Array): string | undefined {
  if (media.kind === "recorded") return sniffRecording(head)?.contentType;
  if (media.kind === "generated") return sniffGenerated(head)?.contentType;
  return SNIFFERS[media.kind](head)?.contentType;
}

type StoredKind = { kind: "image" | "video" | "subtitles" | "recorded" | "generated"; contentType: string };

/**
 * Streams one media file into R2 under its new key: its first bytes must be the type its row says (as for an
 * upload), its length the manifest's (R2 needs a known length for a stream: `FixedLengthStream`).
 */
async function storeMedia(bucket: R2Bucket, content: ReadableStream<Uint8Array>, key: string, bytes: number, media: StoredKind, path: string): Promise<string> {
  const reader = content.getReader();
  let head: Uint8Array = new Uint8Array(0);
  let done = false;
  const sniffBytes = media.kind === "recorded" || media.kind === "generated" ? AUDIO_SNIFF_BYTES : SNIFF_BYTES;
  while (head.length < sniffBytes && !done) {
    const next = await readOrCorrupt(reader);
    if (next.done) done = true;
    else head = concatBytes([head, next.value]);
  }
  if (head.length > 0 && sniffed(media, head) !== media.contentType) {
    await reader.cancel().catch(() => undefined);
    throw archiveError("archive_invalid", `${path} is not the ${media.contentType} file its row says`);
  }
  const fixed = new FixedLengthStream(bytes);
  const put = bucket.put(key, fixed.readable, { httpMetadata: { contentType: media.contentType } });
  const writer = fixed.writable.getWriter();
  const digest = sha256Stream();
  let written = 0;
  // Chunks are gathered to about 1 MiB before each write to R2: one round trip per chunk of a request body
  // (often 16-64 KiB) made a 300 MB import twice as slow; waiting for each write keeps memory bounded.
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const block = concatBytes(pending);
    pending = [];
    pendingBytes = 0;
    await writer.write(block);
  };
  try {
    const write = async (chunk: Uint8Array) => {
      written += chunk.length;
      if (written > bytes) throw archiveError("archive_tampered", `${path} is longer than manifest.json says`);
      await digest.write(chunk);
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= WRITE_BLOCK_BYTES) await flush();
    };
    if (head.length) await write(head);
    while (!done) {
      const next = await readOrCorrupt(reader);
      if (next.done) break;
      await write(next.value);
    }
    await flush();
    if (written !== bytes) throw archiveError("archive_tampered", `${path} is shorter than manifest.json says`);
    await writer.close();
    await put;
  } catch (error) {
    await writer.abort(error).catch(() => undefined);
    await put.catch(() => undefined);
    await bucket.delete(key).catch(() => undefined);
    await reader.cancel().catch(() => undefined);
    throw error;
  }
  return digest.hex();
}

const WRITE_BLOCK_BYTES = 1024 * 1024;
