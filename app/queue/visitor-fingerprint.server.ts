// Who opened a page, as far as the statistics need to know: a salted, daily hash of the client's network
// and User-Agent (docs/decisions/032-what-a-scan-counts.md). Computed in the app Worker; only the hash
// travels on the queue. The raw address and User-Agent are never stored, queued or logged.

import { toHex } from "~/lib/crypto";
import { clientNetwork } from "~/lib/network";

const encoder = new TextEncoder();
const DAY_MS = 86_400_000;

/** Domain separation: the session secret signs other things too. */
const SALT_LABEL = "muselingo/scan-visitor-salt/v1/";

/** The UTC calendar day ("YYYY-MM-DD") of an instant: the salt's lifetime. */
export function saltDay(at: number): string {
  return new Date(Math.floor(at / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

let cachedSalt: { secret: string; day: string; key: Promise<CryptoKey> } | undefined;

/**
 * The day's salt: HMAC-SHA-256(secret, label + UTC day), used as the HMAC key of the fingerprints. It is
 * never stored; it exists in an isolate's memory for the day, and tomorrow's says nothing about today's.
 */
function daySaltKey(secret: string, day: string): Promise<CryptoKey> {
  if (cachedSalt?.secret === secret && cachedSalt.day === day) return cachedSalt.key;
  const key = (async () => {
    const secretKey = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const salt = await crypto.subtle.sign("HMAC", secretKey, encoder.encode(`${SALT_LABEL}${day}`));
    return crypto.subtle.importKey("raw", salt, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  })();
  cachedSalt = { secret, day, key };
  return key;
}

/** The User-Agent a visit is counted under, or null when there is none (such a request is not counted). */
export function countedUserAgent(userAgent: string | null | undefined): string | null {
  const trimmed = (userAgent ?? "").trim();
  return trimmed === "" ? null : trimmed;
}

/**
 * The visitor's fingerprint on the UTC day of `at`: 64 hex digits of
 * HMAC-SHA-256(day salt, client network + "\n" + User-Agent). Same client, same day: same value;
 * another day, another secret or another client: unrelated values. Null without a User-Agent.
 */
export async function visitorFingerprint(secret: string, address: string, userAgent: string | null | undefined, at: number): Promise<string | null> {
  const agent = countedUserAgent(userAgent);
  if (agent === null) return null;
  const key = await daySaltKey(secret, saltDay(at));
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${clientNetwork(address)}\n${agent}`));
  return toHex(mac);
}
