// Which database a request, a queue message or a cron run talks to (decision 142): the directory, and the
// museum's shard found from the directory, cached per isolate and in KV. A request's `context.db` is a D1
// that picks its shard on each statement from what the request named (its path, its session cookie) or what
// the route bound since (`bindMuseum`): no route module names a shard.
import { perIsolate } from "../lib/per-isolate";
import { directoryMuseum, directoryMuseumBySlug, museumOfLink, type DirectoryMuseum } from "./directory.server";
import { DomainError } from "../errors";
import { museumKvKey, shardOfBinding, type MuseumHint } from "./keys";

export interface Shards {
  directory: D1Database;
  /** Shard k's database, by k. */
  byIndex: ReadonlyMap<number, D1Database>;
}

const sets = new WeakMap<object, Shards>();

/** The deployment's directory and shards, read from the bindings (`DIRECTORY`, `DB`, `DB_1`, …). */
export function shardsOf(env: object): Shards {
  let set = sets.get(env);
  if (!set) {
    const byIndex = new Map<number, D1Database>();
    for (const [name, value] of Object.entries(env as unknown as Record<string, unknown>)) {
      const k = shardOfBinding(name);
      if (k !== null && value) byIndex.set(k, value as D1Database);
    }
    if (!byIndex.has(0)) throw new Error("no shard 0: the D1 binding DB is missing");
    const directory = (env as unknown as Record<string, unknown>).DIRECTORY as D1Database | undefined;
    if (!directory) throw new Error("no directory: the D1 binding DIRECTORY is missing");
    set = { directory, byIndex: new Map([...byIndex].sort((a, b) => a[0] - b[0])) };
    sets.set(env, set);
  }
  return set;
}

/** How long an isolate trusts what it learnt of a museum's shard (a move rewrites KV and the directory). */
export const SHARD_CACHE_MS = 60_000;
const CACHE_MAX = 5_000;

interface Cached<T> {
  value: T;
  until: number;
}

const cache = perIsolate("shards.cache", () => ({
  museums: new Map<number, Cached<DirectoryMuseum | null>>(),
  links: new Map<string, Cached<number | null>>(),
  slugs: new Map<string, Cached<number | null>>(),
}));

/**
 * Forgets what this isolate learnt of museums' shards, as SHARD_CACHE_MS passing would: a move waits that long
 * (app/shards/move.ts); the tests, whose moves run in the app's own isolate, call this instead of waiting.
 */
export function forgetDirectoryRows(): void {
  cache.museums.clear();
}

function remember<K, T>(map: Map<K, Cached<T>>, key: K, value: T, now: number) {
  if (map.size >= CACHE_MAX) map.clear();
  map.set(key, { value, until: now + SHARD_CACHE_MS });
}

async function cached<K, T>(map: Map<K, Cached<T>>, key: K, load: () => Promise<T>, trust: (value: T) => boolean = () => true): Promise<T> {
  const now = Date.now();
  const hit = map.get(key);
  if (hit && hit.until > now && trust(hit.value)) return hit.value;
  const value = await load();
  remember(map, key, value, now);
  return value;
}

const linkKey = (link: string) => `dir:v1:link:${link}`;
const KV_SAFE_LINK = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The museum a printed link leads to: from this isolate's memory, else KV, else the directory (then written to KV
 * for a day: a link never changes museum, so the entry cannot go stale). A link nobody claimed is not written to
 * KV, and this isolate forgets it after SHARD_CACHE_MS, so a code claimed since is found within a minute.
 */
function museumOfLinkCached(shards: Shards, kv: KVNamespace | undefined, link: string): Promise<number | null> {
  return cached(cache.links, link, async () => {
    // Only a link of the printed alphabet names a KV key: any other text (an odd code, a malformed address)
    // could be a key KV refuses ("Could not URL-decode key name"), so it goes to the directory alone.
    const store = kv && KV_SAFE_LINK.test(link) ? kv : undefined;
    const stored = store ? await store.get(linkKey(link), { cacheTtl: 3600 }) : null;
    if (stored !== null && /^[1-9]\d{0,15}$/.test(stored)) return Number(stored);
    const id = await museumOfLink(shards.directory, link);
    if (id !== null && store) await store.put(linkKey(link), String(id), { expirationTtl: 24 * 3600 });
    return id;
  });
}

/** A row worth keeping: an active museum's. A museum being moved is read from the directory every time (decision 143). */
const settled = (row: DirectoryMuseum | null) => row === null || row.state === "active";

/**
 * A museum's directory row: from this isolate's memory, else KV, else the directory (then written to KV).
 * Null for a museum the directory does not know. The row of a museum being moved ('copying', 'frozen') is read
 * from the directory each time, so its freeze and its switch take effect at once in every isolate that knew
 * it was moving; a move waits until every isolate has had time to learn it (app/shards/move.ts).
 */
export function museumEntry(shards: Shards, kv: KVNamespace | undefined, id: number): Promise<DirectoryMuseum | null> {
  return cached(
    cache.museums,
    id,
    async () => {
      const stored = kv ? await kv.get<DirectoryMuseum>(museumKvKey(id), { type: "json", cacheTtl: 60 }) : null;
      if (stored && settled(stored)) return stored;
      const row = await directoryMuseum(shards.directory, id);
      if (row && kv && JSON.stringify(stored) !== JSON.stringify(row)) await kv.put(museumKvKey(id), JSON.stringify(row), { expirationTtl: 24 * 3600 });
      return row;
    },
    settled,
  );
}

/** A staff write to a museum being frozen for its move (decision 143): 503, try again in a minute. */
export const museumMoving = () =>
  new DomainError("unavailable", "This museum is moving to another database; try again in a minute", undefined, "museum_moving").withRetryAfter(60);

/** The museum's shard's database, or null for a museum the directory does not know or a shard not bound here. */
export async function museumShard(shards: Shards, kv: KVNamespace | undefined, id: number): Promise<{ shard: number; db: D1Database } | null> {
  const entry = await museumEntry(shards, kv, id);
  if (!entry) return null;
  const db = shards.byIndex.get(entry.shard);
  if (!db) throw new Error(`museum ${id} lives on shard ${entry.shard}, which this Worker has no binding for`);
  return { shard: entry.shard, db };
}

/** The museum a hint names, or null when it names none the directory knows. */
export async function museumOfHint(shards: Shards, hint: MuseumHint, kv?: KVNamespace): Promise<number | null> {
  switch (hint.kind) {
    case "museum":
      return hint.museumId;
    case "link":
      return museumOfLinkCached(shards, kv, hint.link);
    case "slug":
      return cached(cache.slugs, hint.slug, async () => (await directoryMuseumBySlug(shards.directory, hint.slug))?.id ?? null);
    case "none":
      return null;
  }
}

/**
 * A request's databases. Statements go to the bound museum's shard (`bind`), else to the shard of the museum
 * the request named. A request that names none, or a museum the directory does not know, reads shard 0, the
 * deployment's first database: a code or link nobody claimed finds nothing there, and a session from before
 * shards (a token without its museum) is still found there. A route that forgot to name its museum would read
 * shard 0 too: the tests plant museums on the other shards to find such a route (tests/integration/shards.test.ts).
 */
/** A museum id no museum has: its statements go to shard 0, where what they look for is not either. */
const UNKNOWN_MUSEUM = 0;

export class RequestShards {
  private bound: number | null = null;
  private named: Promise<number | null> | undefined;
  /** The directory rows this request read, by museum: one read per request, not per statement. */
  private readonly entries = new Map<number, Promise<DirectoryMuseum | null>>();

  constructor(
    readonly shards: Shards,
    private readonly kv: KVNamespace | undefined,
    private readonly hint: MuseumHint,
  ) {}

  /** From now on, this request's `context.db` is museum `id`'s shard. */
  bind(id: number): void {
    this.bound = id;
  }

  /** From now on, this request's `context.db` is the shard of the museum `link` leads to (shard 0 if none). */
  async bindLink(link: string): Promise<void> {
    this.bound = (await museumOfHint(this.shards, { kind: "link", link }, this.kv)) ?? UNKNOWN_MUSEUM;
  }

  /** The museum this request's statements go to: the bound one, else the one it named (null: none). */
  async museumId(): Promise<number | null> {
    if (this.bound !== null) return this.bound;
    this.named ??= museumOfHint(this.shards, this.hint, this.kv);
    return this.named;
  }

  /**
   * The database this request's next statement goes to. A write to a museum being moved reads its directory row
   * again first: once the move has frozen it, the write is refused (503, `museumMoving`), and once it has switched,
   * the write goes to the new shard (decision 143).
   */
  readonly target = async (write = false): Promise<D1Database> => {
    const id = await this.museumId();
    const first = this.shards.byIndex.get(0)!;
    if (id === null) return first;
    let entry = this.entries.get(id);
    if (!entry) this.entries.set(id, (entry = museumEntry(this.shards, this.kv, id)));
    let row = await entry;
    if (write && row && row.state !== "active") {
      const fresh = directoryMuseum(this.shards.directory, id);
      this.entries.set(id, fresh);
      row = await fresh;
      if (row?.state === "frozen") throw museumMoving();
    }
    if (!row) return first;
    const db = this.shards.byIndex.get(row.shard);
    if (!db) throw new Error(`museum ${id} lives on shard ${row.shard}, which this Worker has no binding for`);
    return db;
  };
}

/** Whether a statement writes (drizzle's and the app's SQL: INSERT, UPDATE, DELETE, REPLACE, or a WITH ending in one). */
export const isWrite = (query: string) =>
  /^\s*(insert|update|delete|replace)\b/i.test(query) || (/^\s*with\b/i.test(query) && /\b(insert|update|delete)\b/i.test(query));

/**
 * A D1 whose statements run on `target()`'s database, resolved when each statement runs: `prepare` and `bind`
 * only record, so a route can bind its museum after preparing. Statements of one `batch` run on one database.
 */
export function routedD1(target: (write: boolean) => Promise<D1Database>): D1Database {
  class Statement {
    constructor(
      readonly query: string,
      readonly values: unknown[],
    ) {}
    bind(...values: unknown[]) {
      return new Statement(this.query, values);
    }
    async on(db?: D1Database): Promise<D1PreparedStatement> {
      const real = (db ?? (await target(isWrite(this.query)))).prepare(this.query);
      return this.values.length > 0 ? real.bind(...this.values) : real;
    }
    async first(column?: string) {
      const s = await this.on();
      return column === undefined ? s.first() : s.first(column);
    }
    async all() {
      return (await this.on()).all();
    }
    async run() {
      return (await this.on()).run();
    }
    async raw(options?: { columnNames?: boolean }) {
      const s = await this.on();
      return options?.columnNames ? s.raw({ columnNames: true }) : s.raw();
    }
  }
  const d1 = {
    prepare: (query: string) => new Statement(query, []),
    batch: async (statements: Statement[]) => {
      const db = await target(statements.some((s) => isWrite(s.query)));
      return db.batch(await Promise.all(statements.map((s) => s.on(db))));
    },
    exec: async (query: string) => (await target(true)).exec(query),
    dump: async () => (await target(false)).dump(),
    withSession: () => {
      throw new Error("sessions of a routed D1 are not supported");
    },
  };
  return d1 as unknown as D1Database;
}

/**
 * Items (queue messages) grouped by their museum's shard, each group with its database: the consumers write
 * each shard in its own batch, and one shard's failure retries only its own messages. An item whose museum is
 * unreadable or unknown goes with shard 0, where it finds nothing and is dropped as before shards. An item of a
 * museum frozen for its move is in `frozen`: the consumer retries it later (decision 143).
 */
export async function groupByShard<T>(
  shards: Shards,
  kv: KVNamespace | undefined,
  items: readonly T[],
  museumIdOf: (item: T) => number | null,
): Promise<{ groups: { shard: number; db: D1Database; items: T[] }[]; frozen: T[] }> {
  const groups = new Map<number, { shard: number; db: D1Database; items: T[] }>();
  const frozen: T[] = [];
  for (const item of items) {
    const id = museumIdOf(item);
    const entry = id === null ? null : await museumEntry(shards, kv, id);
    if (entry?.state === "frozen") {
      frozen.push(item);
      continue;
    }
    const shard = entry && shards.byIndex.has(entry.shard) ? entry.shard : 0;
    let group = groups.get(shard);
    if (!group) groups.set(shard, (group = { shard, db: shards.byIndex.get(shard)!, items: [] }));
    group.items.push(item);
  }
  return { groups: [...groups.values()], frozen };
}

/** How long a queue message of a museum frozen for its move waits before it is delivered again. */
export const FROZEN_RETRY_SECONDS = 30;
