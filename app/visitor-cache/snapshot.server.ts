/**
 * The visitor snapshot (decision 039): what a visitor address (`/r/{link}`, `/v/{museum}/{slug}`) leads to —
 * museum, article, glossary, image sizes — kept in KV and per isolate, so a cached view reads nothing from D1.
 *
 * Validity is a timestamp per museum, not a list of keys: any write to a table a visitor page reads is noted
 * by SQLite triggers (decision 132, ./changes.server.ts), whoever writes it; the request's changes are
 * published (`publishVisitorChanges`) before its response leaves, as `visitor:v1:changed:{museumId}` = a
 * time after the change committed. A snapshot records when its D1 read began and is used only while that
 * is later than the museum's last change; a D1 read that began before the change may have seen the old
 * rows, one that began after it cannot.
 */
import type { VisitorTarget } from "~/models/visitor.server";
import { sha256Hex } from "~/lib/crypto";
import { changedMuseums, type MuseumChange } from "./changes.server";
import { perIsolate } from "~/lib/per-isolate";
import type { RequestTiming } from "./timing";

const PREFIX = "visitor:v1:";
/** A snapshot in KV outlives no museum change, but goes anyway after a day (an upper bound on any oddity). */
const SNAPSHOT_TTL_SECONDS = 24 * 3600;
/** Snapshots kept per isolate (an article's content is some kilobytes; an isolate has 128 MB). */
const ISOLATE_ENTRIES = 100;
/** KV values (rendered translations, some tens of kilobytes) remembered per snapshot in this isolate. */
const MEMO_ENTRIES = 6;
/**
 * How long a snapshot kept in this isolate is served on the strength of its last check (its D1 read, or a
 * read of the museum's change stamp that found it valid) without reading the stamp again (decision 133). A
 * change reaches a visitor's view at most this much later than the stamp's arrival in the location's KV
 * (itself up to about 60 s elsewhere, decision 039); requests with a session cookie read the stamp every time.
 */
export const STAMP_CHECK_MS = 2_000;
/** A Worker may write one KV key once a second (Cloudflare's limit); a refused change stamp is retried after this. */
const RETRY_AFTER_MS = 1_100;

export const changedKey = (museumId: number) => `${PREFIX}changed:${museumId}`;
export const snapshotKey = async (address: string) => `${PREFIX}at:${await sha256Hex(address)}`;

/** What a snapshot may keep: anything that belongs to one museum, whose change stamp ends it. */
export interface Owned {
  museum: { id: number };
}

interface Snapshot<T extends Owned = Owned> {
  v: 1;
  /** The exact address it answers; a key collision or a planted entry for another address is never served. */
  address: string;
  /** `Date.now()` before the D1 read it was made from. */
  readAt: number;
  target: T;
}

/** In this isolate only: the snapshot, and the KV values its page read (valid exactly as long as it is). */
interface Kept extends Snapshot {
  memo: Map<string, unknown>;
  /** When the last check that found it valid began (`readAt` for a snapshot just read from D1), ms. */
  checkedAt: number;
}

/** What an address leads to, and a memo of the page's KV reads that lives and dies with the snapshot. */
export interface Found<T extends Owned = VisitorTarget> {
  target: T | null;
  memo: Map<string, unknown>;
}

// Per isolate (`perIsolate`): workers/app.ts publishes, the Remix server build's pages read, each with its own copy
// of this module.
const isolate = perIsolate("visitor-cache.snapshots", () => new Map<string, Kept>());
/** The kept snapshot of each target served: a page can ask, from what it was given, whether that still holds. */
const byTarget = perIsolate("visitor-cache.by-target", () => new WeakMap<object, Kept>());

function remember<T extends Owned>(snapshot: Snapshot<T>, checkedAt: number): Kept & Snapshot<T> {
  const kept = { ...snapshot, memo: new Map<string, unknown>(), checkedAt };
  byTarget.set(kept.target, kept);
  isolate.delete(snapshot.address);
  isolate.set(snapshot.address, kept);
  if (isolate.size > ISOLATE_ENTRIES) isolate.delete(isolate.keys().next().value!);
  return kept;
}

/**
 * Whether the snapshot `target` was served from is still this isolate's and was checked less than
 * `STAMP_CHECK_MS` ago: what a view served now without reading anything would rest on (a page kept for replay,
 * decision 141). False for a target no snapshot gave (a draft preview, `vite dev`).
 */
export function stillServed(target: object, now = Date.now()): boolean {
  const kept = byTarget.get(target);
  return kept !== undefined && isolate.get(kept.address) === kept && now - kept.checkedAt < STAMP_CHECK_MS;
}

/** The memo of the snapshot `target` was served from (see `readThrough`), while this isolate keeps it. */
export function memoOf(target: object): Map<string, unknown> | undefined {
  return byTarget.get(target)?.memo;
}

/**
 * The KV binding with `get(key, "json")` remembered in `memo` when found: a rendered translation is read
 * from KV once per snapshot and isolate. Staff corrections and resets drop cached translations and mark
 * the museum changed, which ends the snapshot and its memo; a new translation is a new key.
 */
export function readThrough(kv: KVNamespace, memo: Map<string, unknown>): KVNamespace {
  return new Proxy(kv, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (typeof value !== "function") return value;
      if (name !== "get") return (value as (...a: unknown[]) => unknown).bind(target);
      return async (key: string, options?: unknown) => {
        if (options !== "json") return target.get(key, options as "text");
        if (memo.has(key)) return memo.get(key);
        const found = await target.get(key, "json");
        if (found !== null && memo.size < MEMO_ENTRIES) memo.set(key, found);
        return found;
      };
    },
  });
}

function asSnapshot<T extends Owned>(value: unknown, address: string, valid: (target: T) => boolean): Snapshot<T> | null {
  if (value === null || typeof value !== "object") return null;
  const s = value as Partial<Snapshot<T>>;
  if (s.v !== 1 || s.address !== address || typeof s.readAt !== "number" || typeof s.target?.museum?.id !== "number") return null;
  try {
    return valid(s.target) ? (s as Snapshot<T>) : null;
  } catch {
    return null;
  }
}

/** The museum's last change (ms), 0 when none was ever published, +∞ when KV cannot say (then D1 is read). */
async function lastChange(kv: KVNamespace, museumId: number): Promise<number> {
  try {
    const value = await kv.get(changedKey(museumId));
    if (value === null) return 0;
    const at = Number(value);
    return Number.isFinite(at) ? at : Infinity;
  } catch {
    return Infinity;
  }
}

export interface SnapshotDeps {
  kv: KVNamespace;
  waitUntil: (promise: Promise<unknown>) => void;
  timing?: RequestTiming;
  /** Read the change stamp even when this isolate checked the snapshot lately (a signed-in staff member's view). */
  freshStamp?: boolean;
  /** The clock, `Date.now` unless a test moves it. */
  now?: () => number;
}

/**
 * What `address` leads to: from this isolate or KV when the snapshot is newer than the museum's last change
 * (one or two KV reads, no D1), else from `load` (D1), whose answer becomes the snapshot. A snapshot this
 * isolate checked less than `STAMP_CHECK_MS` ago is served without reading anything (decision 133). An address that
 * leads nowhere (null) is not kept: it belongs to no museum whose changes could invalidate it.
 *
 * Generic over what is kept (decision 101): an article page's `VisitorTarget` (the default), a tour's view
 * (`t/{link}`), a museum's stop numbers (`n/{museum}`). Each kind has its own address prefix, so one address
 * always holds one kind; `valid` checks a value read from KV (written by an older deployment, or damaged),
 * which is then read again from D1 instead of served.
 */
export async function snapshotTarget<T extends Owned = VisitorTarget>(
  deps: SnapshotDeps,
  address: string,
  load: () => Promise<T | null>,
  valid: (target: T) => boolean = () => true,
): Promise<Found<T>> {
  const now = deps.now ?? Date.now;
  const kept = isolate.get(address) as (Kept & Snapshot<T>) | undefined;
  if (kept && !deps.freshStamp && now() - kept.checkedAt < STAMP_CHECK_MS) {
    if (deps.timing) deps.timing.snapshot = "isolate";
    return { target: kept.target, memo: kept.memo };
  }
  // The key's hash only when KV is asked: a view served from this isolate computes none.
  const known = kept ?? asSnapshot<T>(await deps.kv.get(await snapshotKey(address), "json").catch(() => null), address, valid);
  if (known) {
    const checkedAt = now();
    if (known.readAt > (await lastChange(deps.kv, known.target.museum.id))) {
      if (deps.timing) deps.timing.snapshot = kept ? "isolate" : "kv";
      const still = kept ?? remember(known, checkedAt);
      still.checkedAt = Math.max(still.checkedAt, checkedAt);
      return { target: known.target, memo: still.memo };
    }
    isolate.delete(address);
  }
  const readAt = now();
  const target = await load();
  if (deps.timing) deps.timing.snapshot = "d1";
  if (!target) return { target, memo: new Map() };
  const snapshot: Snapshot<T> = { v: 1, address, readAt, target };
  const key = await snapshotKey(address);
  deps.waitUntil(
    deps.kv
      // Its museum in the key's metadata: a closed museum's purge finds its snapshots by listing (decision 148).
      .put(key, JSON.stringify(snapshot), { expirationTtl: SNAPSHOT_TTL_SECONDS, metadata: { m: target.museum.id } })
      .catch((error: unknown) => console.warn(`visitor snapshot not kept: ${String(error)}`)),
  );
  return { target, memo: remember(snapshot, readAt).memo };
}

async function stamp(kv: KVNamespace, museumId: number, at: number) {
  try {
    await kv.put(changedKey(museumId), String(at));
  } catch {
    await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
    await kv.put(changedKey(museumId), String(Math.max(at, Date.now())));
  }
}

/** Notes (museum → `changed_at`) this isolate has stamped; a museum's note changes with each of its changes. */
const stamped = perIsolate("visitor-cache.stamped", () => new Map<number, number>());
const STAMPED_ENTRIES = 1_000;

/**
 * Publishes what this database handle wrote to the visitor tables (decision 132): the museums the triggers
 * noted since its first such write get their change stamp, and this isolate forgets their snapshots. Costs
 * nothing when the handle wrote none of those tables; one D1 read otherwise. Called by workers/app.ts after
 * each request (before the response goes), after the cron and after a queue batch, and by work that wants
 * its change seen sooner (a generated narration stored). Call it after the writes' D1 calls returned.
 *
 * The stamp is this Worker's clock after that read, so later than every write the read found committed: a
 * snapshot whose D1 read began before such a write has an earlier `readAt` and ends (header above). The read
 * covers the last seconds, so it may find another request's change: a note this isolate already stamped is
 * not stamped again (its stamp is already later than that change, and no change of the museum came since,
 * or its note would be greater).
 */
export async function publishVisitorChanges(db: { $client: D1Database } | D1Database, kv: KVNamespace): Promise<void> {
  let found: MuseumChange[];
  try {
    found = await changedMuseums("$client" in db ? db.$client : db);
  } catch (error) {
    console.error(`visitor changes not read: ${String(error)}`);
    return;
  }
  const fresh = found.filter((change) => stamped.get(change.museumId) !== change.changedAt);
  if (fresh.length === 0) return;
  const set = new Set(fresh.map((change) => change.museumId));
  const at = Date.now();
  for (const [address, snapshot] of isolate) if (set.has(snapshot.target.museum.id)) isolate.delete(address);
  await Promise.all(
    fresh.map(async ({ museumId, changedAt }) => {
      try {
        await stamp(kv, museumId, at);
      } catch (error) {
        console.error(`visitor change of museum ${museumId} not published: ${String(error)}`);
        return;
      }
      stamped.delete(museumId);
      stamped.set(museumId, changedAt);
      if (stamped.size > STAMPED_ENTRIES) stamped.delete(stamped.keys().next().value!);
    }),
  );
}
