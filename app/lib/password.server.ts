import { constantTimeEqual, toBase64Url } from "./crypto";

/**
 * Workers cap PBKDF2 at 100,000 iterations in production (local workerd does not), so this is
 * both our cost and the most we can ask for. See docs/decisions/002-password-hashing.md.
 */
export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
const PREFIX = "pbkdf2-sha256";

// Verified against when the e-mail is unknown, so both paths cost one PBKDF2 derivation.
const DUMMY_HASH = "pbkdf2-sha256$100000$q3l7nqfq0o3Mld7lCq0m8w$0dFv8s6m3Q2q2gqk3Yk5o0l1mX4oVq8wB6S7rK2x9yE";

function b64decode(text: string): Uint8Array<ArrayBuffer> {
  const normal = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = normal + "=".repeat((4 - (normal.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BYTES * 8);
  return new Uint8Array(bits);
}

/** Returns `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64url), the format scripts/ also write. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return `${PREFIX}$${PBKDF2_ITERATIONS}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

export function parseIterations(stored: string): number | null {
  const [prefix, iterations] = stored.split("$");
  const n = Number(iterations);
  return prefix === PREFIX && Number.isInteger(n) && n > 0 ? n : null;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const target = stored ?? DUMMY_HASH;
  const parts = target.split("$");
  const iterations = parseIterations(target);
  // A hash above the production cap would throw on Workers: treat it as a mismatch, not a crash.
  if (parts.length !== 4 || iterations === null || iterations > PBKDF2_ITERATIONS) {
    await derive(password, new Uint8Array(SALT_BYTES), PBKDF2_ITERATIONS);
    return false;
  }
  const expected = b64decode(parts[3]!);
  const actual = await derive(password, b64decode(parts[2]!), iterations);
  return constantTimeEqual(actual, expected) && stored !== null;
}
