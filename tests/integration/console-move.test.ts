import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MOVE_QUEUE, euShardsFrom, moveMessage, moveOptionsFrom } from "~/shards/console-move.server";
import { MOVE_DEFAULTS, checkMuseum } from "~/shards/move";
import { createMember, get, logIn, publishArticle, signIn, texts } from "./helpers";
import { createMuseum, shardDb } from "./builders";
import { enrolled } from "./operator-helpers";
import { postForm } from "./team-helpers";

// Issue 33 §3, decision 149: a move started from the operator's console, run by the moves queue's consumer in this
// Worker (the real local queue; MOVE_WAITS_MS makes its waits nothing in the tests' one isolate).

const directoryRow = (id: number) =>
  env.DIRECTORY.prepare("SELECT shard, state, moving_to AS movingTo, moved_from AS movedFrom FROM museums WHERE id = ?")
    .bind(id)
    .first<{ shard: number; state: string; movingTo: number | null; movedFrom: number | null }>();

async function until<T>(what: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await what();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("moving a museum from the console (decision 149)", () => {
  it("reads its settings as deployed: the queue's name, the EU shards, production's waits unless the tests say otherwise", async () => {
    expect(MOVE_QUEUE).toBe("muselingo-moves");
    expect([...euShardsFrom(env as unknown as Record<string, unknown>)]).toEqual([2]);
    expect(moveOptionsFrom({})).toEqual(MOVE_DEFAULTS);
    expect(moveOptionsFrom({ MOVE_WAITS_MS: "1,2" })).toEqual(MOVE_DEFAULTS);
    expect(moveOptionsFrom({ MOVE_WAITS_MS: "0,0,0" })).toEqual({ propagationMs: 0, graceMs: 0, cleanupAfterMs: 0 });
    expect(moveMessage({ museumId: 3, to: 1 })).toEqual({ museumId: 3, to: 1 });
    for (const bad of [null, "x", { museumId: -1, to: 0 }, { museumId: 1.5, to: 0 }, { museumId: 1, to: "0" }]) expect(moveMessage(bad)).toBeNull();
  });

  it("starts the move, which the queue's consumer completes: every row on the new shard, the team and visitors carry on", async () => {
    const op = await enrolled();
    const museum = await createMuseum({ shard: 1 });
    const admin = await signIn(await createMember(museum));
    const { link } = await publishArticle(admin, texts(["Un lécythe à fond blanc.", "Attribué au peintre d’Achille."]));
    expect((await get(`/r/${link}?lang=de`)).status).toBe(200);
    const before = await checkMuseum(shardDb(1), museum.museumId);
    const act = (fields: Record<string, string>) => postForm(`/operator/museums/${museum.museumId}`, fields, { Cookie: op.cookie });

    // Refusals: a shard that is not one, the one it is on, an EU shard for a museum that is not in the EU.
    for (const to of ["", "x", "99", "-1", "1", "2", "0 OR 1"]) {
      const refused = await act({ intent: "move", to });
      expect(refused.status, to).toBe(to === "1" ? 409 : 400);
    }
    expect((await directoryRow(museum.museumId))!.state).toBe("active");

    // Two operators at once: one move starts, the other hears of it.
    const [a, b] = await Promise.all([act({ intent: "move", to: "0" }), act({ intent: "move", to: "0" })]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const moved = await until(
      () => directoryRow(museum.museumId),
      (row) => row?.shard === 0 && row.state === "active" && row.movedFrom === null,
    );
    expect(moved).toEqual({ shard: 0, state: "active", movingTo: null, movedFrom: null });
    expect(await checkMuseum(shardDb(0), museum.museumId)).toEqual(before);
    expect((await shardDb(1).prepare("SELECT count(*) AS n FROM articles WHERE museum_id = ?").bind(museum.museumId).first<number>("n"))!).toBe(0);
    expect((await get(`/r/${link}?lang=de`)).status).toBe(200);
    expect(await logIn(admin.user)).toMatch(/muselingo_session=/);
    const audit = await env.DIRECTORY.prepare("SELECT action FROM operator_audit WHERE museum_id = ? ORDER BY id")
      .bind(museum.museumId)
      .all<{ action: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["museum.move", "museum.moved"]);
    const page = await (await get(`/operator/museums/${museum.museumId}`, op.cookie)).text();
    expect(page).toContain("Base de données 0");
    expect(page).toContain("Dernier déménagement : de la base 1 vers la base 0");
  });

  it("two operators, one suspending and one moving the same museum at once: whatever each was told holds after the move", async () => {
    const op = await enrolled();
    const other = await enrolled();
    const museum = await createMuseum({ shard: 1 });
    const admin = await signIn(await createMember(museum));
    const { link } = await publishArticle(admin, texts(["Une hydrie à figures rouges."]));
    const [suspend, move] = await Promise.all([
      postForm(`/operator/museums/${museum.museumId}`, { intent: "suspend" }, { Cookie: op.cookie }),
      postForm(`/operator/museums/${museum.museumId}`, { intent: "move", to: "0" }, { Cookie: other.cookie }),
    ]);
    // The move's first step is a guarded transition; a suspension during the live copy is carried by the copy,
    // one during the freeze is refused (409): never a 500, never a change lost.
    expect([200, 409]).toContain(suspend.status);
    expect(move.status).toBe(200);
    const row = await until(
      () => directoryRow(museum.museumId),
      (r) => r?.shard === 0 && r.state === "active" && r.movedFrom === null,
    );
    expect(row!.shard).toBe(0);
    const suspendedAt = await shardDb(0).prepare("SELECT suspended_at FROM museums WHERE id = ?").bind(museum.museumId).first<number | null>("suspended_at");
    expect(suspendedAt !== null).toBe(suspend.status === 200);
    expect((await get(`/r/${link}?lang=fr`)).status).toBe(suspend.status === 200 ? 503 : 200);
  });

  it("gives up a move that stopped before its switch (its message gone to the dead letters): the museum stays where it was", async () => {
    const op = await enrolled();
    const museum = await createMuseum({ shard: 1 });
    await createMember(museum);
    // What a move whose runs all failed leaves: the directory says copying, nothing consumes it any more.
    await env.DIRECTORY.prepare("UPDATE museums SET state = 'copying', moving_to = 0, state_since = ? WHERE id = ?").bind(Date.now(), museum.museumId).run();
    const page = await (await get(`/operator/museums/${museum.museumId}`, op.cookie)).text();
    expect(page).toContain("Déménagement vers la base 0");
    const act = (fields: Record<string, string>) => postForm(`/operator/museums/${museum.museumId}`, fields, { Cookie: op.cookie });
    expect((await act({ intent: "suspend" })).status).toBe(409);
    expect((await act({ intent: "move", to: "0" })).status).toBe(409);
    const [a, b] = await Promise.all([act({ intent: "rollback" }), act({ intent: "rollback" })]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await directoryRow(museum.museumId)).toEqual({ shard: 1, state: "active", movingTo: null, movedFrom: null });
    expect((await act({ intent: "rollback" })).status).toBe(409);
  });
});
