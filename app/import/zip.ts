// Reading a ZIP as it arrives (fflate's streaming `Unzip`): only the entries asked for are inflated, each up
// to a byte cap, so a ZIP bomb or a 90 MB archive never sits in memory whole.
import { Unzip, UnzipInflate, type UnzipFile } from "fflate";
import { DomainError } from "~/errors";
import { concatBytes } from "~/lib/bytes";

/** What the sheet names and what the archive holds meet here: NFC, lowercase, `/` separators, no leading `./`. */
export function zipName(name: string): string {
  return name.normalize("NFC").replace(/\\/g, "/").replace(/^(\.\/|\/)+/, "").trim().toLowerCase();
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
