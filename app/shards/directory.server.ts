// The directory database (decision 142): museums' thin rows (shard, state), e-mail → museum, printed link →
// museum. Plain statements on the DIRECTORY binding; nothing here reads a shard.

export type MuseumState = "active" | "copying" | "frozen";

export interface DirectoryMuseum {
  id: number;
  slug: string;
  shard: number;
  state: MuseumState;
  jurisdiction: string;
}

const MUSEUM_COLUMNS = "id, slug, shard, state, jurisdiction";

export function directoryMuseum(directory: D1Database, id: number): Promise<DirectoryMuseum | null> {
  return directory.prepare(`SELECT ${MUSEUM_COLUMNS} FROM museums WHERE id = ?`).bind(id).first<DirectoryMuseum>();
}

export function directoryMuseumBySlug(directory: D1Database, slug: string): Promise<DirectoryMuseum | null> {
  return directory.prepare(`SELECT ${MUSEUM_COLUMNS} FROM museums WHERE slug = ?`).bind(slug).first<DirectoryMuseum>();
}

export async function museumOfLink(directory: D1Database, link: string): Promise<number | null> {
  const row = await directory.prepare("SELECT museum_id FROM links WHERE link = ?").bind(link).first<{ museum_id: number }>();
  return row?.museum_id ?? null;
}

export async function museumOfAccount(directory: D1Database, email: string): Promise<number | null> {
  const row = await directory.prepare("SELECT museum_id FROM accounts WHERE email = ?").bind(email).first<{ museum_id: number }>();
  return row?.museum_id ?? null;
}

/**
 * Claims values for a museum before its shard writes them: true when every one is now the museum's (newly or
 * already), false when any is another museum's (then none of this call's new claims is kept).
 */
async function claim(directory: D1Database, table: "links" | "accounts", key: "link" | "email", rows: { value: string; kind?: string }[], museumId: number) {
  if (rows.length === 0) return true;
  const inserts = rows.map((r) =>
    table === "links"
      ? directory
          .prepare("INSERT INTO links (link, museum_id, kind) VALUES (?1, ?2, ?3) ON CONFLICT (link) DO NOTHING")
          .bind(r.value, museumId, r.kind ?? "qrcode")
      : directory.prepare("INSERT INTO accounts (email, museum_id) VALUES (?1, ?2) ON CONFLICT (email) DO NOTHING").bind(r.value, museumId),
  );
  const results = await directory.batch(inserts);
  const fresh = rows.filter((_, i) => (results[i]?.meta.changes ?? 0) > 0).map((r) => r.value);
  const others = rows.filter((_, i) => (results[i]?.meta.changes ?? 0) === 0).map((r) => r.value);
  if (others.length === 0) return true;
  const placeholders = others.map((_, i) => `?${i + 2}`).join(", ");
  const { results: owned } = await directory
    .prepare(`SELECT ${key} AS value FROM ${table} WHERE museum_id = ?1 AND ${key} IN (${placeholders})`)
    .bind(museumId, ...others)
    .all<{ value: string }>();
  if (owned.length === others.length) return true;
  await release(directory, table, key, fresh, museumId);
  return false;
}

async function release(directory: D1Database, table: "links" | "accounts", key: "link" | "email", values: string[], museumId: number) {
  if (values.length === 0) return;
  await directory.batch(values.map((v) => directory.prepare(`DELETE FROM ${table} WHERE ${key} = ?1 AND museum_id = ?2`).bind(v, museumId)));
}

/** Claims printed links (a QR code's or a tour's) for the museum: see `claim`. */
export function claimLinks(directory: D1Database, museumId: number, links: readonly string[], kind: "qrcode" | "tour"): Promise<boolean> {
  return claim(
    directory,
    "links",
    "link",
    links.map((value) => ({ value, kind })),
    museumId,
  );
}

/** Claims an e-mail address for a member of the museum: see `claim`. */
export function claimAccount(directory: D1Database, museumId: number, email: string): Promise<boolean> {
  return claim(directory, "accounts", "email", [{ value: email }], museumId);
}

/** Frees an address whose member left (or whose joining failed), so it may join a museum again. */
export function releaseAccount(directory: D1Database, museumId: number, email: string): Promise<void> {
  return release(directory, "accounts", "email", [email], museumId);
}

/**
 * A new printed link, claimed for the museum in the directory before its shard row is written: a collision
 * with any museum's link, on any shard, draws another. A shard write that fails afterwards leaves a claim that
 * leads nowhere, as an unlinked code does.
 */
export async function claimNewLink(directory: D1Database, museumId: number, kind: "qrcode" | "tour", draw: () => string): Promise<string> {
  for (let attempt = 1; attempt <= 5; attempt++) {
    const link = draw();
    const claimed = await directory
      .prepare("INSERT INTO links (link, museum_id, kind) VALUES (?1, ?2, ?3) ON CONFLICT (link) DO NOTHING")
      .bind(link, museumId, kind)
      .run();
    if (claimed.meta.changes > 0) return link;
  }
  throw new Error("five printed links drawn in a row were all taken");
}

/** Records a shard's size as D1 reported it (`meta.size_after` of a statement on it): placement reads it. */
export async function recordShardSize(directory: D1Database, shard: number, db: D1Database, now = Date.now()): Promise<number> {
  const probe = await db.prepare("SELECT 1").run();
  const bytes = Number(probe.meta.size_after ?? 0);
  await directory
    .prepare("INSERT INTO shards (shard, bytes, measured_at) VALUES (?1, ?2, ?3) ON CONFLICT (shard) DO UPDATE SET bytes = ?2, measured_at = ?3")
    .bind(shard, bytes, now)
    .run();
  return bytes;
}
