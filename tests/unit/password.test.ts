import { describe, expect, it } from "vitest";
import { hashPassword, parseIterations, PBKDF2_ITERATIONS, verifyPassword } from "~/lib/password.server";
// The operator scripts hash in plain Node; both must produce and accept the same format.
import { hashPassword as scriptHash, PBKDF2_ITERATIONS as SCRIPT_ITERATIONS } from "../../scripts/lib.mjs";

describe("password hashing", () => {
  it("verifies the right password and rejects a wrong one", async () => {
    const stored = await hashPassword("Le Louvre 1793");
    expect(await verifyPassword("Le Louvre 1793", stored)).toBe(true);
    expect(await verifyPassword("le louvre 1793", stored)).toBe(false);
  });

  it("never accepts anything when there is no stored hash (unknown e-mail)", async () => {
    expect(await verifyPassword("", null)).toBe(false);
    expect(await verifyPassword("anything", null)).toBe(false);
  });

  it("rejects malformed or over-cap hashes without throwing", async () => {
    expect(await verifyPassword("x", "garbage")).toBe(false);
    expect(await verifyPassword("x", "pbkdf2-sha256$999999$AAAA$AAAA")).toBe(false);
  });

  it("agrees with the operator scripts' hashes, at the same iteration count", async () => {
    expect(SCRIPT_ITERATIONS).toBe(PBKDF2_ITERATIONS);
    const stored = scriptHash("from the command line");
    expect(parseIterations(stored)).toBe(PBKDF2_ITERATIONS);
    expect(await verifyPassword("from the command line", stored)).toBe(true);
    expect(await verifyPassword("from the command lin", stored)).toBe(false);
  });
});
