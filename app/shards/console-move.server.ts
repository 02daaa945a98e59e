/**
 * Moving a museum from the operator's console (issue 33 §3, decision 149). The console's request takes the move's
 * first step itself (`beginMove`: a guarded transition, so two operators starting a move at once get one 409) and
 * sends one message to the moves queue; the app Worker's `queue()` runs the rest (`moveMuseum`, which takes up a
 * move where it stands) with the consumer's 15 minutes of wall time. The console shows the directory's state.
 */
import { DomainError, conflict } from "~/errors";
import { auditOperator } from "~/operator/accounts.server";
import type { Database } from "~/db/client.server";
import { forgetDirectoryRows } from "./route.server";
import { MOVE_DEFAULTS, MoveError, beginMove, moveMuseum, rollbackMove, type MoveIo, type MoveOptions } from "./move";
import { refuseClosed } from "~/closing/state.server";

export const MOVE_QUEUE = "muselingo-moves";

/** `EU_SHARDS` from wrangler.toml's [vars]: the shards created in the EU jurisdiction (`npm run deploy` checks it). */
export function euShardsFrom(env: Record<string, unknown>): ReadonlySet<number> {
  const raw = typeof env.EU_SHARDS === "string" ? env.EU_SHARDS : "";
  return new Set(
    raw
      .split(",")
      .map((s) => s.trim())
      .filter((s) => /^\d{1,4}$/.test(s))
      .map(Number),
  );
}

/**
 * The move's waits: production's (MOVE_DEFAULTS: isolates trust a directory row 60 s, KV's edge cache 60 s more), or
 * `MOVE_WAITS_MS` = "propagation,grace,cleanup" for the integration tests' single isolate. Shorter waits against a
 * running deployment lose signed-in members' sessions (decision 143): never set it there.
 */
export function moveOptionsFrom(env: Record<string, unknown>): MoveOptions {
  const raw = typeof env.MOVE_WAITS_MS === "string" ? env.MOVE_WAITS_MS.trim() : "";
  const parts = raw.split(",").map((s) => s.trim());
  if (parts.length !== 3 || !parts.every((p) => /^\d{1,7}$/.test(p))) return MOVE_DEFAULTS;
  const [propagationMs, graceMs, cleanupAfterMs] = parts.map(Number) as [number, number, number];
  return { propagationMs, graceMs, cleanupAfterMs };
}

export interface MoveEnv {
  directory: D1Database;
  shards: ReadonlyMap<number, D1Database>;
  kv: KVNamespace;
  euShards: ReadonlySet<number>;
}

export function moveIo(env: MoveEnv, log: (line: string) => void = (line) => console.log(line)): MoveIo {
  return {
    directory: env.directory,
    shard(k) {
      const db = env.shards.get(k);
      if (!db) throw new MoveError(`there is no shard ${k}`);
      return db;
    },
    kv: env.kv,
    jurisdictionOf: (k) => (env.euShards.has(k) ? "eu" : ""),
    // The isolate running the move is never one of the stale ones: it forgets its cached directory rows at each
    // step (every transition logs) and before each wait. The other isolates are what the waits are for.
    log: (line) => {
      forgetDirectoryRows();
      log(line);
    },
    sleep: async (ms) => {
      forgetDirectoryRows();
      await new Promise((resolve) => setTimeout(resolve, ms));
      forgetDirectoryRows();
    },
  };
}

export interface MoveMessage {
  museumId: number;
  to: number;
}

/** A queue message as sent, or null for anything else (never trusted as it comes). */
export function moveMessage(body: unknown): MoveMessage | null {
  const { museumId, to } = (body ?? {}) as Record<string, unknown>;
  return typeof museumId === "number" && Number.isSafeInteger(museumId) && museumId > 0 && typeof to === "number" && Number.isInteger(to) && to >= 0
    ? { museumId, to }
    : null;
}

/** The console's "move to shard k": 400 for a shard that is not one, 409 when the museum cannot move now. */
export async function startMove(
  env: MoveEnv & { queue: Queue; audit: Database },
  operator: { id: number; email: string },
  museumId: number,
  rawTo: unknown,
): Promise<{ museumId: number; to: number }> {
  const to = typeof rawTo === "string" && /^\d{1,4}$/.test(rawTo.trim()) ? Number(rawTo.trim()) : null;
  if (to === null || !env.shards.has(to)) throw new DomainError("invalid_input", "to must be one of this deployment's shards", "to");
  const row = await env.directory
    .prepare("SELECT jurisdiction, shard FROM museums WHERE id = ?1")
    .bind(museumId)
    .first<{ jurisdiction: string; shard: number }>();
  if (!row) throw new DomainError("not_found", "No museum has this id", "id");
  // A closed museum waits for its purge where it is (decision 148).
  const shard = env.shards.get(row.shard);
  if (shard) await refuseClosed(shard, museumId);
  // Either way: an EU museum stays on EU shards (its files are in the EU bucket), and another never goes to one.
  if ((env.euShards.has(to) ? "eu" : "") !== row.jurisdiction)
    throw new DomainError("invalid_input", `to: shard ${to} is not in the museum's data location`, "to");
  try {
    await beginMove(moveIo(env), museumId, to);
  } catch (error) {
    if (!(error instanceof MoveError)) throw error;
    if (/jurisdiction/.test(error.message)) throw new DomainError("invalid_input", `to: ${error.message}`, "to");
    throw conflict("museum", error.message, "museum_moving");
  }
  await env.queue.send({ museumId, to } satisfies MoveMessage, { contentType: "json" });
  await auditOperator(env.audit, operator, "museum.move", museumId, { to });
  return { museumId, to };
}

/** The console's "roll back": a move not switched yet is given up; the museum stays where it was. */
export async function rollbackFromConsole(env: MoveEnv & { audit: Database }, operator: { id: number; email: string }, museumId: number): Promise<number> {
  try {
    const removed = await rollbackMove(moveIo(env), museumId);
    await auditOperator(env.audit, operator, "museum.move_rollback", museumId, { removed });
    return removed;
  } catch (error) {
    if (!(error instanceof MoveError)) throw error;
    throw conflict("museum", error.message, "invalid");
  }
}

/**
 * The moves queue's consumer: each message's move, taken up where it stands. A MoveError (the copies differed and
 * the move was rolled back, the museum already there) ends the message, logged and audited; anything else (D1
 * unreachable, the run killed) is retried in 30 s, and the retry resumes the move.
 */
export async function consumeMoveBatch(
  messages: readonly Pick<Message, "body" | "ack" | "retry">[],
  env: MoveEnv & { audit: Database },
  options: MoveOptions = MOVE_DEFAULTS,
): Promise<{ moved: number; failed: number; retried: number; dropped: number }> {
  const summary = { moved: 0, failed: 0, retried: 0, dropped: 0 };
  for (const message of messages) {
    const move = moveMessage(message.body);
    if (!move) {
      summary.dropped++;
      message.ack();
      continue;
    }
    const log = (line: string) => console.log(JSON.stringify({ event: "museum_move", museumId: move.museumId, to: move.to, line }));
    try {
      const report = await moveMuseum(moveIo(env, log), move.museumId, move.to, options);
      await auditOperator(env.audit, { id: null, email: "(moves queue)" }, "museum.moved", move.museumId, {
        from: report.from,
        to: report.to,
        frozenMs: report.frozenMs,
        totalMs: report.totalMs,
      });
      summary.moved++;
      message.ack();
    } catch (error) {
      if (error instanceof MoveError) {
        log(`move ended: ${error.message}`);
        await auditOperator(env.audit, { id: null, email: "(moves queue)" }, "museum.move_failed", move.museumId, { to: move.to, reason: error.message });
        summary.failed++;
        message.ack();
      } else {
        log(`move interrupted, retried in 30 s: ${error instanceof Error ? error.message : String(error)}`);
        summary.retried++;
        message.retry({ delaySeconds: 30 });
      }
    }
  }
  return summary;
}
