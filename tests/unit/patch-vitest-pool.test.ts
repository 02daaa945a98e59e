// scripts/patch-vitest-pool.mjs: the workers-sdk #14713 fix applied to the installed vitest-pool-workers
// (docs/decisions/028-non-ascii-checkout-path.md). The suite itself proves it in a path with accents (.ci/run
// in such a clone); these tests pin the patcher's contract: reversible encoding, idempotent, loud on a dist
// it does not know, and never writing through a hard link.
import { spawnSync } from "node:child_process";
import { cpSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  EDITS,
  MARKER,
  PatchError,
  decodeEncodedSpecifier,
  defaultPackageDir,
  encodeHeaderValue,
  encodeRedirectLocation,
  patchVitestPoolWorkers,
} from "../../scripts/patch-vitest-pool.mjs";

const FILES = ["dist/pool/index.mjs", "dist/worker/index.mjs"];

/** The installed 0.12.21 dist as npm ships it: the patch undone if the integration config already applied it. */
function pristine(file: string) {
  let text = readFileSync(join(defaultPackageDir(), file), "utf8");
  for (const edit of [...EDITS].reverse()) if (edit.file === file) text = text.split(edit.replace).join(edit.find);
  return text;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pool dé€😀-"));
  for (const file of FILES) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), pristine(file));
  }
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (file: string) => readFileSync(join(dir, file), "utf8");

describe("the encoding", () => {
  const paths = [
    "/tmp/x/le musée dépôt/muselingo/node_modules/a.mjs",
    "/home/he\u0301le\u0300ne/m/a.mjs", // decomposed accents (NFD, as macOS stores names)
    "/srv/開発/😀/a.mjs",
    "/tmp/dé/50%off/%C3%A9/a.mjs", // literal percent signs, one looking like an escape
    "/tmp/tab\there/a.mjs",
  ];

  it.each(paths)("round-trips %j through a Location header in printable ASCII", (path) => {
    const location = encodeRedirectLocation(path);
    expect(location).toMatch(/^[\x20-\x7E]+$/);
    // What failed before: a header carries bytes, "é" went out as Latin-1 0xE9.
    const response = new Response(null, { status: 301, headers: { Location: location } });
    expect(decodeEncodedSpecifier(response.headers.get("Location")!)).toBe(path);
  });

  it("leaves printable-ASCII paths, percent signs included, and bare specifiers untouched", () => {
    for (const value of ["/tmp/x/a b/c.mjs", "/tmp/50%off/%C3%A9.mjs", "cloudflare:test-internal", "node:buffer"]) {
      expect(encodeRedirectLocation(value)).toBe(value);
      expect(decodeEncodedSpecifier(value)).toBe(value);
    }
  });

  it("round-trips the runner's data header, and keeps an ASCII one byte for byte", () => {
    const data = JSON.stringify({ cwd: "/tmp/x/le musée dépôt/m", filePath: "file:///tmp/x/le%20mus%C3%A9e", name: "run 100% ✓" });
    const encoded = encodeHeaderValue(data);
    expect(encoded).toMatch(/^[\x20-\x7E]+$/);
    expect(decodeURIComponent(new Headers({ "MF-Vitest-Worker-Data": encoded }).get("MF-Vitest-Worker-Data")!)).toBe(data);
    const ascii = JSON.stringify({ cwd: "/tmp/plain path", name: "run" });
    expect(encodeHeaderValue(ascii)).toBe(ascii);
  });
});

describe("patchVitestPoolWorkers", () => {
  it("applies every edit once to the 0.12.21 dist, leaving valid modules", () => {
    expect(read("dist/pool/index.mjs")).not.toContain(MARKER);
    expect(patchVitestPoolWorkers(dir)).toBe("patched");
    const pool = read("dist/pool/index.mjs");
    expect(pool).toContain("Location: encodeRedirectLocation(filePath)");
    expect(pool).toContain("encodeHeaderValue(structuredSerializableStringify(");
    expect(pool).not.toContain("return buildModuleResponse(target, ");
    expect(read("dist/worker/index.mjs")).toContain("structuredSerializableParse(decodeURIComponent(workerDataHeader))");
    for (const file of FILES) {
      const check = spawnSync(process.execPath, ["--check", join(dir, file)], { encoding: "utf8" });
      expect(check.stderr).toBe("");
      expect(check.status).toBe(0);
    }
  });

  it("is idempotent", () => {
    patchVitestPoolWorkers(dir);
    const once = FILES.map(read);
    expect(patchVitestPoolWorkers(dir)).toBe("already-patched");
    expect(FILES.map(read)).toEqual(once);
  });

  it("replaces the files instead of writing through a hard link to another checkout's copy", () => {
    const other = join(dir, "other-checkout.mjs");
    linkSync(join(dir, "dist/pool/index.mjs"), other);
    const before = readFileSync(other, "utf8");
    patchVitestPoolWorkers(dir);
    expect(readFileSync(other, "utf8")).toBe(before);
    expect(read("dist/pool/index.mjs")).not.toBe(before);
  });

  it("stops, naming the edit and writing nothing, when the dist changed shape", () => {
    const worker = read("dist/worker/index.mjs");
    writeFileSync(join(dir, "dist/worker/index.mjs"), worker.replace("structuredSerializableParse(workerDataHeader)", "parse(workerDataHeader)"));
    const poolBefore = read("dist/pool/index.mjs");
    expect(() => patchVitestPoolWorkers(dir)).toThrow(PatchError);
    expect(() => patchVitestPoolWorkers(dir)).toThrow(/MF-Vitest-Worker-Data decoded.*found 0/s);
    expect(read("dist/pool/index.mjs")).toBe(poolBefore);
  });

  it("stops on a half-patched dist rather than patching twice", () => {
    const pool = read("dist/pool/index.mjs");
    const edit = EDITS.find((e) => e.name === "redirect Location percent-encoded")!;
    writeFileSync(join(dir, "dist/pool/index.mjs"), `${pool.replace(edit.find, edit.replace)}\n${edit.find}\n`);
    expect(() => patchVitestPoolWorkers(dir)).toThrow(/redirect Location percent-encoded/);
  });

  it("leaves a release that carries the upstream fix alone", () => {
    const fixed = `${read("dist/pool/index.mjs")}\nexport const ENCODED_PATH_PREFIX = "/__mf_vitest_encoded__";\n`;
    writeFileSync(join(dir, "dist/pool/index.mjs"), fixed);
    expect(patchVitestPoolWorkers(dir)).toBe("upstream-fixed");
    expect(read("dist/pool/index.mjs")).toBe(fixed);
  });

  it("says what is missing when the package is not installed", () => {
    expect(() => patchVitestPoolWorkers(join(dir, "nowhere"))).toThrow(/missing.*npm ci/);
  });

  it("patches a copy of the installed package itself (the shape it must match today)", () => {
    const copy = join(dir, "copy");
    cpSync(defaultPackageDir(), copy, { recursive: true });
    expect(["patched", "already-patched"]).toContain(patchVitestPoolWorkers(copy));
    expect(readFileSync(join(copy, "dist/pool/index.mjs"), "utf8")).toContain(MARKER);
  });
});
