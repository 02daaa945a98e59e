import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, hotp, totpStep, totpUri, verifyTotp } from "~/operator/totp";

// RFC 4226 Appendix D and RFC 6238 Appendix B: the published test vectors (secret "12345678901234567890", SHA-1).
const SECRET = new TextEncoder().encode("12345678901234567890");
const SECRET_B32 = base32Encode(SECRET);

describe("TOTP (RFC 6238)", () => {
  it("computes RFC 4226's HOTP values for counters 0 to 9", async () => {
    const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];
    for (let counter = 0; counter < 10; counter++) expect(await hotp(SECRET, counter), `counter ${counter}`).toBe(expected[counter]);
  });

  it("computes RFC 6238's SHA-1 values (8 digits) at its test times", async () => {
    const vectors: [number, string][] = [
      [59, "94287082"],
      [1111111109, "07081804"],
      [1111111111, "14050471"],
      [1234567890, "89005924"],
      [2000000000, "69279037"],
      [20000000000, "65353130"],
    ];
    for (const [seconds, code] of vectors) expect(await hotp(SECRET, totpStep(seconds * 1000), 8), `T = ${seconds}`).toBe(code);
  });

  it("round-trips Base32 (RFC 4648 §10's vectors) and refuses what is not Base32", () => {
    for (const [text, b32] of <[string, string][]>[
      ["f", "MY"],
      ["fo", "MZXQ"],
      ["foo", "MZXW6"],
      ["foob", "MZXW6YQ"],
      ["fooba", "MZXW6YTB"],
      ["foobar", "MZXW6YTBOI"],
    ]) {
      expect(base32Encode(new TextEncoder().encode(text))).toBe(b32);
      expect(new TextDecoder().decode(base32Decode(b32.toLowerCase())!)).toBe(text);
    }
    expect(base32Decode("MZXW 6YTB-OI")).toEqual(new TextEncoder().encode("foobar"));
    for (const bad of ["MZX1", "ÉCOLE", "MZ!W"]) expect(base32Decode(bad)).toBeNull();
  });

  it("accepts the current code and one step either side, once each step, and nothing else", async () => {
    const now = 1_800_000_000_000;
    const step = totpStep(now);
    const code = (s: number) => hotp(SECRET, s);
    expect(await verifyTotp(SECRET_B32, await code(step), now)).toBe(step);
    expect(await verifyTotp(SECRET_B32, await code(step - 1), now)).toBe(step - 1);
    expect(await verifyTotp(SECRET_B32, await code(step + 1), now)).toBe(step + 1);
    expect(await verifyTotp(SECRET_B32, await code(step - 2), now)).toBeNull();
    expect(await verifyTotp(SECRET_B32, await code(step + 2), now)).toBeNull();
    // Replay: a code of a step already used (or older) is refused, the next one passes.
    expect(await verifyTotp(SECRET_B32, await code(step), now, step)).toBeNull();
    expect(await verifyTotp(SECRET_B32, await code(step - 1), now, step)).toBeNull();
    expect(await verifyTotp(SECRET_B32, await code(step + 1), now, step)).toBe(step + 1);
    // Typed with a space, as apps show it; anything not six digits is refused.
    const current = await code(step);
    expect(await verifyTotp(SECRET_B32, `${current.slice(0, 3)} ${current.slice(3)}`, now)).toBe(step);
    for (const bad of ["", "12345", "1234567", "12a456", "１２３４５６", "٣٤٥٦٧٨"]) expect(await verifyTotp(SECRET_B32, bad, now), bad).toBeNull();
    expect(await verifyTotp("not base32!", current, now)).toBeNull();
  });

  it("writes the otpauth URI authenticator apps read", () => {
    expect(totpUri("JBSWY3DPEHPK3PXP", "ops+1@example.org")).toBe(
      "otpauth://totp/Muselingo:ops%2B1%40example.org?secret=JBSWY3DPEHPK3PXP&issuer=Muselingo&algorithm=SHA1&digits=6&period=30",
    );
  });
});
