import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultMiniflareIndex, LOOPBACK_MARKER, LoopbackPatchError, patchMiniflareLoopback } from "../../scripts/patch-miniflare-loopback.mjs";

const dir = mkdtempSync(join(tmpdir(), "muselingo-loopback-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ORIGINAL = [
  "  #startLoopbackServer(hostname) {",
  "    return new Promise((resolve6) => {",
  "      const server = (0, import_stoppable.default)(import_node_http2.default.createServer(this.#handleLoopback), 0);",
  '      server.on("upgrade", this.#handleLoopbackUpgrade);',
  "      server.listen(0, hostname, () => resolve6(server));",
  "    });",
  "  }",
].join("\n");

describe("the miniflare loopback keep-alive patch", () => {
  it("sets a 10-minute keep-alive on the loopback server once, and recognises its own work", () => {
    const file = join(dir, "index.js");
    writeFileSync(file, ORIGINAL);
    expect(patchMiniflareLoopback(file)).toBe("patched");
    const patched = readFileSync(file, "utf8");
    expect(patched).toContain(`server.keepAliveTimeout = 600000; /* ${LOOPBACK_MARKER} */`);
    expect(patched.indexOf("keepAliveTimeout")).toBeLessThan(patched.indexOf("server.listen"));
    expect(patchMiniflareLoopback(file)).toBe("already-patched");
    expect(readFileSync(file, "utf8")).toBe(patched);
  });

  it("refuses a miniflare whose loopback server changed shape, writing nothing", () => {
    const file = join(dir, "other.js");
    const changed = ORIGINAL.replace("server.listen(0, hostname", "server.listen(port, hostname");
    writeFileSync(file, changed);
    expect(() => patchMiniflareLoopback(file)).toThrow(LoopbackPatchError);
    expect(readFileSync(file, "utf8")).toBe(changed);
    expect(() => patchMiniflareLoopback(join(dir, "missing.js"))).toThrow(/missing/);
  });

  it("fits the miniflare the installed pool loads (patched or still patchable)", () => {
    const text = readFileSync(defaultMiniflareIndex(), "utf8");
    expect(text.includes(LOOPBACK_MARKER) || text.includes('server.on("upgrade", this.#handleLoopbackUpgrade);\n      server.listen(0, hostname')).toBe(true);
  });
});
