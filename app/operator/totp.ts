// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), as every authenticator app computes them by
// default: HMAC-SHA-1, 30-second steps from the Unix epoch, 6 digits; the secret travels in Base32 (RFC 4648)
// inside an `otpauth://totp/…` URI (Google Authenticator's "Key Uri Format", the de facto standard the apps read).
// Pure: WebCrypto only, so the Worker and the tests share it.

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now that are still accepted: a phone's clock a little off, a code typed as it changed. */
export const TOTP_DRIFT_STEPS = 1;
/** 20 random bytes (160 bits), RFC 4226's recommended secret length for HMAC-SHA-1. */
export const TOTP_SECRET_BYTES = 20;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/** Base32 without padding, case and spaces ignored (as apps show it in groups); null when not Base32. */
export function base32Decode(text: string): Uint8Array<ArrayBuffer> | null {
  const clean = text.replace(/[\s=-]/g, "").toUpperCase();
  if (!/^[A-Z2-7]*$/.test(clean)) return null;
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    buffer = (buffer << 5) | BASE32.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

export function newTotpSecret(): string {
  return base32Encode(crypto.getRandomValues(new Uint8Array(TOTP_SECRET_BYTES)));
}

/** The step a time falls in. */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS);
}

/** HOTP (RFC 4226 §5.3) of `counter`, `digits` long, zero-padded. */
export async function hotp(secret: Uint8Array<ArrayBuffer>, counter: number, digits = TOTP_DIGITS): Promise<string> {
  const message = new Uint8Array(8);
  // The counter as an 8-byte big-endian integer (steps stay far below 2^53).
  new DataView(message.buffer).setUint32(0, Math.floor(counter / 2 ** 32));
  new DataView(message.buffer).setUint32(4, counter >>> 0);
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  const offset = mac[mac.length - 1]! & 0x0f;
  const code = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(code % 10 ** digits).padStart(digits, "0");
}

/**
 * The step whose code `code` is, within the drift around `nowMs`, and after `lastStep` (a code already used, or
 * an older one, never passes twice: RFC 6238 §5.2); null otherwise. Every candidate is computed, so the time
 * taken does not say which step matched.
 */
export async function verifyTotp(secretBase32: string, code: string, nowMs: number, lastStep = -1): Promise<number | null> {
  const secret = base32Decode(secretBase32);
  const typed = code.replace(/\s/g, "");
  if (!secret || secret.length === 0 || !new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(typed)) return null;
  const now = totpStep(nowMs);
  let found: number | null = null;
  for (let step = now - TOTP_DRIFT_STEPS; step <= now + TOTP_DRIFT_STEPS; step++) {
    const expected = await hotp(secret, step);
    if (expected === typed && step > lastStep && found === null) found = step;
  }
  return found;
}

/** The URI an authenticator app reads from the QR code: issuer and account shown in the app. */
export function totpUri(secretBase32: string, account: string, issuer = "Muselingo"): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({ secret: secretBase32, issuer, algorithm: "SHA1", digits: String(TOTP_DIGITS), period: String(TOTP_STEP_SECONDS) });
  return `otpauth://totp/${label}?${params.toString()}`;
}
