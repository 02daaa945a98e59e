// The download link a closed museum's admin is given at sign-in (decision 148): signed with SESSION_SECRET, valid an
// hour, naming the museum. Kept apart from closing.server.ts so that sign-in imports nothing of the archive.
import { constantTimeEqual, hmacSha256Hex } from "~/lib/crypto";

/** How long a closed museum's archive is kept, and its admins may download it, before everything is purged. */
export const ARCHIVE_KEPT_DAYS = 30;
export const DAY_MS = 86_400_000;

/** When a closed museum is purged (its archive is no longer offered after it). */
export const purgeTime = (closedAt: number) => closedAt + ARCHIVE_KEPT_DAYS * DAY_MS;

// A download link for the closed museum's admins, given at sign-in: signed, valid an hour, naming the museum.
const LINK_TTL_MS = 3_600_000;
const linkText = (museumId: number, expires: number) => `closed-archive:v1:${museumId}:${expires}`;

export async function archiveLink(secret: string, museumId: number, now = Date.now()): Promise<string> {
  const expires = now + LINK_TTL_MS;
  return `/closed-archive/${museumId}.${expires}.${await hmacSha256Hex(secret, linkText(museumId, expires))}`;
}

/** The museum a download link names, or null when it is malformed, forged or expired. */
export async function museumOfArchiveLink(secret: string, token: string, now = Date.now()): Promise<number | null> {
  const match = /^([1-9]\d{0,15})\.(\d{13})\.([0-9a-f]{64})$/.exec(token);
  if (!match) return null;
  const [museumId, expires] = [Number(match[1]), Number(match[2])];
  if (expires < now || expires > now + LINK_TTL_MS) return null;
  const expected = new TextEncoder().encode(await hmacSha256Hex(secret, linkText(museumId, expires)));
  return constantTimeEqual(expected, new TextEncoder().encode(match[3]!)) ? museumId : null;
}
