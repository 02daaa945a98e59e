import { constantTimeEqual, hmacSha256Hex, randomToken } from "~/lib/crypto";

// The pass of a saved copy of a tour (decision 118): what the server says, when a phone saves a tour, about
// that copy: which tour, and when it was saved (the server's clock), under a random copy id, signed. Offline
// views are counted per copy and from the save on, so what a copy can add to the statistics is bounded by
// what it can really produce, whatever client id, User-Agent or times a batch claims.

const LABEL = "muselingo/offline-pass/v1\n";
/** `{tourId}.{savedAt}.{copy}.{mac}`: the service worker keeps it as it is and sends it with each view. */
export const OFFLINE_PASS_PATTERN = /^[1-9][0-9]{0,15}\.[0-9]{1,15}\.[A-Za-z0-9_-]{22}\.[0-9a-f]{64}$/;

export interface OfflinePass {
  tourId: number;
  /** When the copy was saved, by the server's clock (ms since the epoch). */
  savedAt: number;
  /** A random id of the copy (16 bytes, base64url). */
  copy: string;
}

const payload = (pass: OfflinePass) => `${pass.tourId}.${pass.savedAt}.${pass.copy}`;

/** A new pass for a copy of `tourId` saved now. */
export async function issueOfflinePass(secret: string, tourId: number, now: number): Promise<string> {
  const pass = { tourId, savedAt: now, copy: randomToken(16) };
  return `${payload(pass)}.${await hmacSha256Hex(secret, LABEL + payload(pass))}`;
}

/** The pass this server signed, or null (malformed, forged, or signed under another secret). */
export async function readOfflinePass(secret: string, token: string): Promise<OfflinePass | null> {
  if (!OFFLINE_PASS_PATTERN.test(token)) return null;
  const [tourId = "", savedAt = "", copy = "", mac = ""] = token.split(".");
  const pass = { tourId: Number(tourId), savedAt: Number(savedAt), copy };
  if (!Number.isSafeInteger(pass.tourId) || !Number.isSafeInteger(pass.savedAt)) return null;
  const expected = await hmacSha256Hex(secret, LABEL + payload(pass));
  const encoder = new TextEncoder();
  return constantTimeEqual(encoder.encode(expected), encoder.encode(mac)) ? pass : null;
}
