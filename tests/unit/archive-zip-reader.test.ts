import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Unzip, UnzipInflate, Zip, ZipDeflate, ZipPassThrough, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION, schemaNumber } from "~/archive/format";
import { entryContent, ZipReader } from "~/archive/zip-reader";

/** A ZIP as the export writes it: fflate's streaming Zip, data descriptors after every entry. */
function streamedZip(files: [string, Uint8Array, "store" | "deflate"][]): Uint8Array {
  const out: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    out.push(chunk);
  });
  for (const [name, bytes, how] of files) {
    const entry = how === "store" ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    // In several pushes, as from an R2 body.
    for (let at = 0; at < bytes.length; at += 1000) entry.push(bytes.subarray(at, at + 1000), false);
    entry.push(new Uint8Array(0), true);
  }
  zip.end();
  return concat(out);
}

function concat(chunks: Uint8Array[]) {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

/** The bytes as a stream in uneven chunks (a request body). */
function streamOf(bytes: Uint8Array, chunk = 777) {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
}

async function readAllEntries(bytes: Uint8Array, chunk?: number) {
  const reader = new ZipReader(streamOf(bytes, chunk).getReader(), 1e9, () => new Error("too large"));
  const out: Record<string, Uint8Array> = {};
  for (let entry = await reader.next(); entry; entry = await reader.next()) {
    out[entry.name] = new Uint8Array(await new Response(entryContent(entry)).arrayBuffer());
  }
  await reader.drain();
  return out;
}

// A stored file holding the data-descriptor signature followed by a size that is not its own.
const trap = (() => {
  const bytes = new Uint8Array(20_000).map((_, i) => (i * 31) & 0xff);
  bytes.set([0x50, 0x4b, 0x07, 0x08, 1, 2, 3, 4, 9, 9, 9, 9, 5, 6, 7, 8], 7_000);
  return bytes;
})();

describe("ZipReader", () => {
  it("reads entries written with data descriptors, stored and deflated, whatever the chunking", async () => {
    const json = new TextEncoder().encode(JSON.stringify({ text: "Amphore « attique » 🏺".repeat(200) }));
    const zip = streamedZip([
      ["manifest.json", json, "deflate"],
      ["media/m/1/video/a.mp4", trap, "store"],
      ["empty.txt", new Uint8Array(0), "store"],
    ]);
    for (const chunk of [1, 17, 777, 65536]) {
      const files = await readAllEntries(zip, chunk);
      expect(Object.keys(files)).toEqual(["manifest.json", "media/m/1/video/a.mp4", "empty.txt"]);
      expect(files["manifest.json"]).toEqual(json);
      expect(files["media/m/1/video/a.mp4"]).toEqual(trap);
      expect(files["empty.txt"]!.length).toBe(0);
    }
  });

  it("reads entries with their sizes in the headers (zipSync, other tools)", async () => {
    const files = await readAllEntries(zipSync({ "a.txt": new TextEncoder().encode("bonjour"), "b.bin": [trap, { level: 0 }] }));
    expect(new TextDecoder().decode(files["a.txt"])).toBe("bonjour");
    expect(files["b.bin"]).toEqual(trap);
  });

  it("fflate's Unzip would cut the same entry at the signature (why the import has its own reader)", () => {
    const zip = streamedZip([["a.mp4", trap, "store"]]);
    let got = 0;
    const unzip = new Unzip((file) => {
      file.ondata = (_error, data) => void (got += data?.length ?? 0);
      file.start();
    });
    unzip.register(UnzipInflate);
    try {
      unzip.push(zip, true);
    } catch {
      // A cut entry may also make it throw: either way the file does not come out whole.
    }
    expect(got).not.toBe(trap.length);
  });

  it("refuses every truncation of an archive without hanging", async () => {
    const zip = streamedZip([
      ["manifest.json", new TextEncoder().encode("{}"), "deflate"],
      ["m.bin", trap.subarray(0, 3000), "store"],
    ]);
    for (let cut = 0; cut < zip.length; cut += 97) {
      await expect(readAllEntries(zip.slice(0, cut)), `cut at ${cut}`).rejects.toThrow();
    }
  });

  it("refuses encrypted entries, unknown methods and a size past the limit", async () => {
    const zip = zipSync({ "a.txt": new TextEncoder().encode("x") });
    const encrypted = zip.slice();
    encrypted[6] = encrypted[6]! | 1;
    await expect(readAllEntries(encrypted)).rejects.toThrow(/encrypted/);
    const method = zip.slice();
    method[8] = 12;
    await expect(readAllEntries(method)).rejects.toThrow(/method 12/);
    const reader = new ZipReader(streamOf(zip, 10).getReader(), 20, () => new Error("too large"));
    await expect(reader.next()).rejects.toThrow("too large");
  });
});

describe("archive format", () => {
  it("names the newest migration as its schema version", () => {
    const migrations = readdirSync(join(__dirname, "../../drizzle"))
      .filter((f) => /^\d{4}_.*\.sql$/.test(f))
      .sort();
    expect(`${SCHEMA_VERSION}.sql`).toBe(migrations.at(-1));
    expect(schemaNumber("0009_tours")).toBe(9);
    expect(schemaNumber("tours")).toBeNaN();
  });
});
