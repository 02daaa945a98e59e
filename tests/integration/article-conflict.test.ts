// The stale-version 409 of update_article says who saved which version when (decision 068), and the
// article read says who saved the draft last: what the editor's conflict panel shows.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { memberSession, staffSession, type StaffSession } from "./helpers";

type Json = Record<string, unknown>;

const text = (content: string) => ({ type: "text", content });

async function article(s: StaffSession) {
  const created = await s.call("add_article", { pathArray: [] });
  const id = created.body.id as number;
  const slug = created.body.name as string;
  const read = async () => (await s.read(`/api/read/article?articleId=${id}`)).body as Json & { version: number; draft: Json };
  return { id, slug, read };
}

describe("update_article's conflict answer", () => {
  it("names the colleague who saved, the version and when, and records who saved the draft", async () => {
    const s = await staffSession();
    const a = await article(s);
    const { version } = await a.read();
    const marie = await memberSession(s.user, { role: "editor", email: `marie.curie-${crypto.randomUUID()}@example.org` });
    const won = await marie.call("update_article", { articleId: a.id, version, newContent: [{ type: "metadatas", url: a.slug }, text("Marie's")] });
    expect(won.status).toBe(200);

    const lost = await s.call("update_article", { articleId: a.id, version, newContent: [{ type: "metadatas", url: a.slug }, text("mine")] });
    expect(lost.status).toBe(409);
    expect(lost.body.error).toEqual({
      code: "conflict",
      field: "version",
      reason: "stale_version",
      message: expect.any(String),
      current: { version: won.body.version, savedAt: won.body.updated_at, savedBy: { id: marie.user.userId, email: marie.user.email } },
    });
    // The read says the same, so a page that learns of the conflict another way (publishing) can say it too.
    expect((await a.read()).draft).toMatchObject({
      version: won.body.version,
      updatedAt: won.body.updated_at,
      updatedBy: { id: marie.user.userId, email: marie.user.email },
    });

    // "Keep mine": saving again with the version the conflict named wins, and the draft is now mine.
    const kept = await s.call("update_article", { articleId: a.id, version: won.body.version, newContent: [{ type: "metadatas", url: a.slug }, text("mine")] });
    expect(kept.status).toBe(200);
    expect((await a.read()).draft).toMatchObject({ updatedBy: { id: s.user.userId, email: s.user.email.toLowerCase() } });
  });

  it("says nobody in particular when the winner is unknown (a save made before saves were signed, or a member removed)", async () => {
    const s = await staffSession();
    const a = await article(s);
    const { version } = await a.read();
    await env.DB.prepare("UPDATE articles SET version = version + 1, updated_by = NULL WHERE id = ?").bind(a.id).run();
    const lost = await s.call("update_article", { articleId: a.id, version, newContent: [{ type: "metadatas", url: a.slug }] });
    expect(lost.status).toBe(409);
    expect((lost.body.error as Json).current).toMatchObject({ version: version + 1, savedBy: null });
    expect((await a.read()).draft).toMatchObject({ updatedBy: null });
  });

  it("never names a member of another museum, even if updated_by points there", async () => {
    const s = await staffSession();
    const other = await staffSession();
    const a = await article(s);
    const { version } = await a.read();
    await env.DB.prepare("UPDATE articles SET version = version + 1, updated_by = ? WHERE id = ?").bind(other.user.userId, a.id).run();
    const lost = await s.call("update_article", { articleId: a.id, version, newContent: [{ type: "metadatas", url: a.slug }] });
    expect((lost.body.error as Json).current).toMatchObject({ savedBy: null });
    // And the other museum still cannot see or save the article at all.
    const foreign = await other.call("update_article", { articleId: a.id, version: version + 1, newContent: [{ type: "metadatas", url: a.slug }] });
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain("current");
  });

  it("of 50 identical stale saves, all answer 409 naming the same winner, and nothing changes", async () => {
    const s = await staffSession();
    const a = await article(s);
    const { version } = await a.read();
    const marie = await memberSession(s.user, { role: "editor", email: `marie-${crypto.randomUUID()}@example.org` });
    const won = await marie.call("update_article", { articleId: a.id, version, newContent: [{ type: "metadatas", url: a.slug }, text("Marie's")] });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => s.call("update_article", { articleId: a.id, version, newContent: [{ type: "metadatas", url: a.slug }, text("mine")] })),
    );
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([409]));
    expect(new Set(answers.map((r) => JSON.stringify((r.body.error as Json).current)))).toEqual(
      new Set([JSON.stringify({ version: won.body.version, savedAt: won.body.updated_at, savedBy: { id: marie.user.userId, email: marie.user.email } })]),
    );
    const after = await a.read();
    expect(after.version).toBe(won.body.version);
    expect((after.content as Json[])[1]).toMatchObject({ content: "Marie's" });
  });
});
