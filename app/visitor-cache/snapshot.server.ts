/**
 * The visitor snapshot (decision 039): what a visitor address (`/r/{link}`, `/v/{museum}/{slug}`) leads to —
 * museum, article, glossary, image sizes — kept in KV and per isolate, so a cached view reads nothing from D1.
 *
 * Validity is a timestamp per museum, not a list of keys: every staff write that changes what a visitor
 * page shows calls `visitorChanged(db, museumId)`; the request's changes are published (`publishVisitorChanges`)
 * before its response leaves, as `visitor:v1:changed:{museumId}` = the time of the change. A snapshot
 * records when its D1 read began and is used only while that is later than the museum's last change;
 * a D1 read that began before the change may have seen the old rows, one that began after it cannot.
 */
import type { VisitorTarget } from "~/models/visitor.server";
import { sha256Hex } from "~/lib/crypto";
import type { RequestTiming } from "./timing";

const PREFIX = "visitor:v1:";
/** A snapshot in KV outlives no museum change, but goes anyway after a day (an upper bound on any oddity). */
const SNAPSHOT_TTL_SECONDS = 24 * 3600;
/** Snapshots kept per isolate (an article's content is some kilobytes; an isolate has 128 MB). */
const ISOLATE_ENTRIES = 200;
/** A Worker may write one KV key once a second (Cloudflare's limit); a refused change stamp is retried after this. */
const RETRY_AFTER_MS = 1_100;

export const changedKey = (museumId: number) => `${PREFIX}changed:${museumId}`;
export const snapshotKey = async (address: string) => `${PREFIX}at:${await sha256Hex(address)}`;

interface Snapshot {
  v: 1;
  /** The exact address it answers; a key collision or a planted entry for another address is never served. */
  address: string;
  /** `Date.now()` before the D1 read it was made from. */
  readAt: number;
  target: VisitorTarget;
}

/**
 * Per-isolate state, held on `globalThis` under a registered symbol: workers/app.ts (which publishes) and
 * the Remix server build (whose models mark and whose pages read) each bundle their own copy of this module,
 * and both copies must see the same maps.
 */
function shared<T>(name: string, make: () => T): T {
  const key = Symbol.for(`muselingo.visitor-cache.${name}`);
  const holder = globalThis as unknown as Record<symbol, T | undefined>;
  return (holder[key] ??= make());
}

const isolate = shared("snapshots", () => new Map<string, Snapshot>());

function remember(snapshot: Snapshot) {
  isolate.delete(snapshot.address);
  isolate.set(snapshot.address, snapshot);
  if (isolate.size > ISOLATE_ENTRIES) isolate.delete(isolate.keys().next().value!);
}

function asSnapshot(value: unknown, address: string): Snapshot | null {
  if (value === null || typeof value !== "object") return null;
  const s = value as Partial<Snapshot>;
  if (s.v !== 1 || s.address !== address || typeof s.readAt !== "number" || typeof s.target?.museum?.id !== "number") return null;
  return s as Snapshot;
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
}

/**
 * What `address` leads to: from this isolate or KV when the snapshot is newer than the museum's last change
 * (one or two KV reads, no D1), else from `load` (D1), whose answer becomes the snapshot. An address that
 * leads nowhere (null) is not kept: it belongs to no museum whose changes could invalidate it.
 */
export async function snapshotTarget(deps: SnapshotDeps, address: string, load: () => Promise<VisitorTarget | null>): Promise<VisitorTarget | null> {
  const key = await snapshotKey(address);
  let known = isolate.get(address) ?? null;
  let from: "isolate" | "kv" = "isolate";
  if (!known) {
    from = "kv";
    known = asSnapshot(await deps.kv.get(key, "json").catch(() => null), address);
  }
  if (known) {
    if (known.readAt > (await lastChange(deps.kv, known.target.museum.id))) {
      if (from === "kv") remember(known);
      if (deps.timing) deps.timing.snapshot = from;
      return known.target;
    }
    isolate.delete(address);
  }
  const readAt = Date.now();
  const target = await load();
  if (deps.timing) deps.timing.snapshot = "d1";
  if (target) {
    const snapshot: Snapshot = { v: 1, address, readAt, target };
    remember(snapshot);
    deps.waitUntil(deps.kv.put(key, JSON.stringify(snapshot), { expirationTtl: SNAPSHOT_TTL_SECONDS }).catch((error: unknown) => console.warn(`visitor snapshot not kept: ${String(error)}`)));
  }
  return target;
}

// The museums a request changed, by its database handle (one per request, see app/load-context.ts).
const changes = shared("changes", () => new WeakMap<object, Set<number>>());

/** Marks that this request changed what the visitor pages of `museumId` show; published before the response. */
export function visitorChanged(db: object, museumId: number): void {
  let set = changes.get(db);
  if (!set) changes.set(db, (set = new Set()));
  set.add(museumId);
}

async function stamp(kv: KVNamespace, museumId: number, at: number) {
  try {
    await kv.put(changedKey(museumId), String(at));
  } catch {
    await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
    await kv.put(changedKey(museumId), String(Math.max(at, Date.now())));
  }
}

/**
 * Publishes the request's changes: each changed museum's stamp, and this isolate forgets its snapshots.
 * Called after the writes (their D1 calls have returned), before the response goes.
 */
export async function publishVisitorChanges(db: object, kv: KVNamespace): Promise<void> {
  const set = changes.get(db);
  if (!set || set.size === 0) return;
  changes.delete(db);
  const at = Date.now();
  for (const [address, snapshot] of isolate) if (set.has(snapshot.target.museum.id)) isolate.delete(address);
  await Promise.all(
    [...set].map((museumId) => stamp(kv, museumId, at).catch((error: unknown) => console.error(`visitor change of museum ${museumId} not published: ${String(error)}`))),
  );
}
