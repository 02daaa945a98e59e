// Pure rules of the shards (decision 142): which binding is which shard, the ids each shard hands out, and
// what a request names of its museum before any database is read.

/** Shard k is the D1 binding `DB` (k = 0, the deployment's first database) or `DB_k`. */
const SHARD_BINDING = /^DB(?:_([1-9]\d{0,3}))?$/;

/** The shard a binding name is, or null for any other binding. */
export function shardOfBinding(name: string): number | null {
  const match = SHARD_BINDING.exec(name);
  if (!match) return null;
  return match[1] === undefined ? 0 : Number(match[1]);
}

/** The binding name of shard `k`. */
export function bindingOfShard(k: number): string {
  return k === 0 ? "DB" : `DB_${k}`;
}

/**
 * Ids stay unique across shards: shard k's AUTOINCREMENT counters start at k × 2⁴⁰, so a museum moves with
 * its ids and QR codes, KV keys and archive files stay valid. 2⁴⁰ ids per table per shard. Shards are numbered
 * below 512; blocks 512 to 908 go to shards that receive a moved museum (app/shards/move.ts `idsAboveMuseum`), and
 * ids stay below 10¹⁵, the 15 digits the app's id fields accept.
 */
export const SHARD_ID_SPAN = 2 ** 40;

/** The KV key of a museum's directory row, as the app caches it and a move rewrites it (decision 143). */
export const museumKvKey = (id: number) => `dir:v1:museum:${id}`;

/** A token that names its museum (`{museumId}.{random}`): the prefix routes, the whole token authenticates. */
export function museumToken(museumId: number, random: string): string {
  return `${museumId}.${random}`;
}

/** The museum a token names, or null for a token without the prefix (made before shards) or a malformed one. */
export function museumOfToken(token: string): number | null {
  const match = /^([1-9]\d{0,15})\./.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : null;
}

/** What a request names of its museum before any database is read. */
export type MuseumHint = { kind: "museum"; museumId: number } | { kind: "link"; link: string } | { kind: "slug"; slug: string } | { kind: "none" };

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * The museum a path names: a scanned code or a tour (`/r/{link}…`, `/t/{link}…`), a museum's public pages
 * (`/v/{slug}/…`), a file of its own (`/media/m/{id}/…`), an invitation or reset link (`/invite/{id}.…`).
 * Any other path names none; a staff request then goes by its session cookie.
 */
export function pathHint(pathname: string): MuseumHint {
  const [, first, second] = pathname.split("/");
  if (second === undefined || second === "") return { kind: "none" };
  const value = decoded(second);
  if (value === null) return { kind: "none" };
  switch (first) {
    case "r":
    case "t":
      return { kind: "link", link: value };
    case "v":
      return { kind: "slug", slug: value };
    case "media":
      return fileHint(pathname.slice("/media/".length), "m");
    case "narration":
      return fileHint(pathname.slice("/narration/".length), "n");
    case "invite":
    case "reset": {
      const id = museumOfToken(value);
      return id === null ? { kind: "none" } : { kind: "museum", museumId: id };
    }
    default:
      return { kind: "none" };
  }
}

/** A stored file's key names its museum: `m/{id}/…` (media), `n/{id}/…` (narrations). */
function fileHint(key: string, prefix: "m" | "n"): MuseumHint {
  const id = new RegExp(`^${prefix}/([1-9]\\d{0,15})/`).exec(key);
  return id ? { kind: "museum", museumId: Number(id[1]) } : { kind: "none" };
}

/**
 * The request's hint: its path's (for `/vtt`, its subtitle file's, `?src=/media/m/{id}/…`; for `/offline`, its
 * tour's, `?tour={link}`), else its session token's museum.
 */
export function requestHint(url: URL, sessionToken: string | null): MuseumHint {
  // A saved tour's offline page (`/offline?tour={link}`) names its tour.
  const tour = url.pathname === "/offline" ? url.searchParams.get("tour") : null;
  if (tour) return { kind: "link", link: tour };
  const src = url.pathname === "/vtt" ? url.searchParams.get("src") : null;
  const byPath = pathHint(src?.startsWith("/media/") ? src : url.pathname);
  if (byPath.kind !== "none") return byPath;
  const id = sessionToken === null ? null : museumOfToken(sessionToken);
  return id === null ? { kind: "none" } : { kind: "museum", museumId: id };
}
