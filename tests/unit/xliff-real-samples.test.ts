// Real files written by translation tools (memoQ, Trados Studio, Passolo, Swordfish, Rainbow, IWS,
// Typo3, Okapi XLIFF 2.0…), taken from the Okapi framework's test data (Apache 2.0, see
// tests/fixtures/xliff/real/README.md): every one is read, none refused (issue 29 §4).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isDomainError } from "~/errors";
import { parseXliff } from "~/xliff/format";
import { decodeXliffBytes } from "~/xliff/safety";

const dir = join(__dirname, "../fixtures/xliff/real");
const samples = readdirSync(dir).filter((name) => /\.(xlf|xliff|sdlxliff|mqxliff)$/.test(name));

function read(name: string) {
  try {
    return { ok: true as const, file: parseXliff(decodeXliffBytes(new Uint8Array(readFileSync(join(dir, name))))) };
  } catch (error) {
    if (isDomainError(error)) return { ok: false as const, message: error.message };
    throw error;
  }
}

describe("XLIFF written by real tools", () => {
  it("has the samples", () => expect(samples.length).toBeGreaterThanOrEqual(30));
  it.each(samples)("%s is read, with its units", (name) => {
    const outcome = read(name);
    expect(outcome.ok ? "accepted" : outcome.message).toBe("accepted");
    if (outcome.ok) expect(outcome.file.units.length).toBeGreaterThan(0);
  });
});
