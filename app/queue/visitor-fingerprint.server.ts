// Who opened a page, as far as the statistics need to know: a salted, daily hash of the client's network
// and User-Agent (docs/decisions/032-what-a-scan-counts.md). Computed in the app Worker; only the hash
// travels on the queue. The raw address and User-Agent are never stored, queued or logged.

const encoder = new TextEncoder();
const DAY_MS = 86_400_000;

/** Domain separation: the session secret signs other things too. */
const SALT_LABEL = "muselingo/scan-visitor-salt/v1/";

function ipv4(text: string): string | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes.join(".");
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail allowed), or null. */
function ipv6Groups(text: string): number[] | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (half: string): number[] | null => {
    if (half === "") return [];
    const groups: number[] = [];
    const pieces = half.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = ipv4(piece);
        if (!v4) return null;
        const [a, b, c, d] = v4.split(".").map(Number) as [number, number, number, number];
        groups.push((a << 8) | b, (c << 8) | d);
      } else if (/^[0-9a-f]{1,4}$/.test(piece)) {
        groups.push(parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return groups;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  // "::" stands for at least one group of zeros.
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/**
 * The part of a client address that names one client: an IPv4 address whole, an IPv6 address reduced
 * to its /64 (one subscriber's network: a device rotates its interface identifier within it at will),
 * an IPv4-mapped IPv6 address as the IPv4 it maps. Anything else (no address locally) is kept as given.
 */
export function clientNetwork(address: string): string {
  let text = address.trim().toLowerCase();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const v4 = ipv4(text);
  if (v4) return v4;
  if (text.includes(":")) {
    const groups = ipv6Groups(text.replace(/%.*$/, ""));
    if (groups) {
      if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
        return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
      }
      return `${groups
        .slice(0, 4)
        .map((g) => g.toString(16))
        .join(":")}::/64`;
    }
  }
  return text;
}

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
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
