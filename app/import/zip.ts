// Reading a ZIP as it arrives (fflate's streaming `Unzip`): only the entries asked for are inflated, each up
// to a byte cap, so a ZIP bomb or a 90 MB archive never sits in memory whole.
import { Inflate, Unzip, UnzipInflate, type UnzipFile } from "fflate";
import { DomainError } from "~/errors";
import { concatBytes } from "~/lib/bytes";

/** What the sheet names and what the archive holds meet here: NFC, lowercase, `/` separators, no leading `./`. */
export function zipName(name: string): string {
  return name
    .normalize("NFC")
    .replace(/\\/g, "/")
    .replace(/^(\.\/|\/)+/, "")
    .trim()
    .toLowerCase();
}

export const baseName = (name: string) => name.slice(name.lastIndexOf("/") + 1);

const SKIPPED = /(^|\/)(__macosx\/|\.ds_store$|thumbs\.db$)|\/$/;

/** At most this many entries are looked at (a ZIP of a million empty files is refused). */
export const ZIP_MAX_ENTRIES = 20_000;

/** `size`: bytes inflated (at most cap + 1); `data` is empty when only counting. */
export type ZipEntry = { name: string; data: Uint8Array; size: number; truncated: boolean };

/**
 * Streams `chunks` through the unzipper. `cap(name)` decides per entry: null skips it (never inflated),
 * a number is the most bytes kept (one byte more marks it `truncated`, and the rest is not inflated).
 * `onEntry` runs for each kept entry, awaited before the next chunk is pushed.
 */
export async function readZip(
  chunks: AsyncIterable<Uint8Array>,
  field: string,
  cap: (name: string) => number | null,
  onEntry: (entry: ZipEntry) => Promise<void>,
  options: { countOnly?: boolean } = {},
): Promise<string[]> {
  const names: string[] = [];
  const done: ZipEntry[] = [];
  let problem: unknown = null;
  const unzip = new Unzip((file: UnzipFile) => {
    names.push(file.name);
    if (names.length > ZIP_MAX_ENTRIES) {
      problem ??= new DomainError("too_large", `An archive holds at most ${ZIP_MAX_ENTRIES} files`, field, "too_many");
      return;
    }
    const name = zipName(file.name);
    if (SKIPPED.test(name)) return;
    const limit = cap(name);
    if (limit === null) return;
    const parts: Uint8Array[] = [];
    let size = 0;
    let truncated = false;
    let finished = false;
    file.ondata = (error, data, final) => {
      if (finished) return;
      if (error) {
        problem ??= new DomainError("invalid_input", "The archive is damaged", field, "invalid");
        return;
      }
      if (!truncated) {
        size += data.length;
        if (size > limit) {
          truncated = true;
          parts.push(data.subarray(0, Math.max(0, limit + 1 - (size - data.length))));
          file.terminate();
          final = true;
        } else if (!options.countOnly) parts.push(data);
      }
      if (final) {
        finished = true;
        done.push({ name: file.name, data: options.countOnly ? new Uint8Array(0) : concatBytes(parts), size: Math.min(size, limit + 1), truncated });
      }
    };
    try {
      file.start();
    } catch {
      problem ??= new DomainError("invalid_input", "The archive uses a compression this app cannot read", field, "invalid");
    }
  });
  unzip.register(UnzipInflate);
  const flush = async () => {
    if (problem) throw problem;
    while (done.length > 0) await onEntry(done.shift()!);
  };
  // The end-of-central-directory record closes every complete ZIP (at most 22 + 65,535 bytes from the end):
  // without it the archive was cut short, and the streaming reader alone would not say so.
  let tail: Uint8Array = new Uint8Array(0);
  const unreadable = () => new DomainError("invalid_input", "The archive is not a readable ZIP file", field, "invalid");
  try {
    for await (const chunk of chunks) {
      unzip.push(chunk, false);
      tail = concatBytes([tail, chunk]);
      if (tail.length > EOCD_WINDOW) tail = tail.slice(tail.length - EOCD_WINDOW);
      await flush();
    }
    unzip.push(new Uint8Array(0), true);
    await flush();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw unreadable();
  }
  if (!hasEndRecord(tail)) throw unreadable();
  return names;
}

const EOCD_WINDOW = 22 + 65_535;

function hasEndRecord(tail: Uint8Array): boolean {
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail[i] === 0x50 && tail[i + 1] === 0x4b && tail[i + 2] === 0x05 && tail[i + 3] === 0x06) return true;
  }
  return false;
}

/** A buffer as the chunks `readZip` takes (64 KB at a time, as a network body would come). */
export async function* chunksOf(bytes: Uint8Array, size = 64 * 1024): AsyncIterable<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

// ---------------------------------------------------------------------------------------------------------------
// A ZIP held whole in memory (a workbook: at most 10 MB), read from its central directory. Every entry's declared
// size is counted before anything is inflated, then every entry is inflated once to count its real size (the
// bytes thrown away as they come), and only then are the parts a reader needs inflated again, piece by piece.
// fflate's `unzip` is not used: it hands entries over 512 KB to a Web Worker, which workerd does not have.

export interface ZipDirectoryEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  /** The uncompressed size the central directory declares. */
  size: number;
  localOffset: number;
}

const CENTRAL_SIGNATURE = 0x02014b50;
const END_SIGNATURE = 0x06054b50;
const LOCAL_SIGNATURE = 0x04034b50;
const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

/** The entries the central directory lists, in its order; null when `bytes` is not a readable ZIP. */
export function zipDirectory(bytes: Uint8Array): ZipDirectoryEntry[] | null {
  let end = -1;
  for (let i = bytes.length - 22; i >= 0 && i >= bytes.length - EOCD_WINDOW; i--) {
    if (u32(bytes, i) === END_SIGNATURE) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = u16(bytes, end + 10);
  const directorySize = u32(bytes, end + 12);
  const directoryOffset = u32(bytes, end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff || directoryOffset + directorySize > end) return null; // ZIP64: not a workbook
  const entries: ZipDirectoryEntry[] = [];
  let at = directoryOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || u32(bytes, at) !== CENTRAL_SIGNATURE) return null;
    const nameLength = u16(bytes, at + 28);
    const extraLength = u16(bytes, at + 30);
    const commentLength = u16(bytes, at + 32);
    if (at + 46 + nameLength > end) return null;
    const flags = u16(bytes, at + 8);
    const utf8 = (flags & 0x800) !== 0;
    const rawName = bytes.subarray(at + 46, at + 46 + nameLength);
    const name = utf8 ? new TextDecoder("utf-8").decode(rawName) : String.fromCharCode(...rawName);
    entries.push({
      name,
      flags,
      method: u16(bytes, at + 10),
      compressedSize: u32(bytes, at + 20),
      size: u32(bytes, at + 24),
      localOffset: u32(bytes, at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The entry's stored bytes (compressed for method 8), found through its local header. */
function storedBytes(bytes: Uint8Array, entry: ZipDirectoryEntry): Uint8Array | null {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || u32(bytes, at) !== LOCAL_SIGNATURE) return null;
  const start = at + 30 + u16(bytes, at + 26) + u16(bytes, at + 28);
  if (start + entry.compressedSize > bytes.length) return null;
  return bytes.subarray(start, start + entry.compressedSize);
}

/** Input given to the inflater at a time: DEFLATE expands at most ~1,032 times, so one step yields ≤ 4 MB. */
const INFLATE_STEP = 4 * 1024;

/**
 * Inflates one entry piece by piece into `onData`, never past its declared size; the entry must end exactly
 * there (an entry larger or smaller than it says is a damaged or hostile file). Returns the bytes inflated.
 */
export function inflateEntry(bytes: Uint8Array, entry: ZipDirectoryEntry, field: string, onData: (chunk: Uint8Array) => void): number {
  const damaged = () => new DomainError("invalid_input", "The archive is damaged", field, "invalid");
  if (entry.flags & 1) throw new DomainError("invalid_input", "The archive is encrypted", field, "invalid");
  const stored = storedBytes(bytes, entry);
  if (!stored) throw damaged();
  let size = 0;
  const take = (chunk: Uint8Array) => {
    size += chunk.length;
    if (size > entry.size) throw damaged();
    if (chunk.length) onData(chunk);
  };
  if (entry.method === 0) {
    for (let at = 0; at < stored.length; at += 64 * 1024) take(stored.subarray(at, at + 64 * 1024));
  } else if (entry.method === 8) {
    let ended = false;
    const inflater = new Inflate((chunk, final) => {
      take(chunk);
      if (final) ended = true;
    });
    try {
      for (let at = 0; at < stored.length; at += INFLATE_STEP) inflater.push(stored.subarray(at, at + INFLATE_STEP), at + INFLATE_STEP >= stored.length);
      if (stored.length === 0) inflater.push(new Uint8Array(0), true);
    } catch (error) {
      // fflate's errors carry a numeric code; anything else is the consumer's (a refusal, or a reader done early).
      if (typeof (error as { code?: unknown } | null)?.code === "number") throw damaged();
      throw error;
    }
    if (!ended) throw damaged();
  } else {
    throw new DomainError("invalid_input", "The archive uses a compression this app cannot read", field, "invalid");
  }
  if (size !== entry.size) throw damaged();
  return size;
}

/**
 * Counts what an archive unpacks to before a reader keeps anything: first every entry's declared size (nothing
 * inflated), then every entry's real size (inflated and thrown away, each never past what it declared). Any
 * entry counts, `__MACOSX/` copies and parts no reader wants included: they are inflated all the same by
 * readers that take every `.xml`. Over `maxBytes` (or `ZIP_MAX_ENTRIES` entries) is refused with 413.
 */
export function accountZip(bytes: Uint8Array, entries: readonly ZipDirectoryEntry[], field: string, maxBytes: number, what: string): void {
  const mb = (n: number) => `${Math.ceil(n / (1024 * 1024)).toLocaleString("en")} MB`;
  if (entries.length > ZIP_MAX_ENTRIES) {
    throw new DomainError(
      "too_large",
      `${what} holds ${entries.length.toLocaleString("en")} files; this app reads at most ${ZIP_MAX_ENTRIES.toLocaleString("en")}`,
      field,
      "too_many",
    );
  }
  const declared = entries.reduce((n, e) => n + e.size, 0);
  const macos = entries.filter((e) => SKIPPED.test(zipName(e.name))).length;
  const tooLarge = (total: number) =>
    new DomainError(
      "too_large",
      `${what} unpacks to ${mb(total)} or more in ${entries.length.toLocaleString("en")} files${macos ? ` (${macos.toLocaleString("en")} of them __MACOSX or system copies)` : ""}; this app reads at most ${mb(maxBytes)}`,
      field,
      "too_long",
    );
  if (declared > maxBytes) throw tooLarge(declared);
  let real = 0;
  for (const entry of entries) {
    if (entry.method !== 0 && entry.method !== 8) continue; // never inflated by anyone: a reader that needs it refuses
    if (entry.flags & 1) continue;
    real += inflateEntry(bytes, entry, field, () => undefined);
    if (real > maxBytes) throw tooLarge(real);
  }
}
