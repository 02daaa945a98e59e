import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ARCHIVE_TABLES, type TableName } from "~/archive/tables";
import { staffSession } from "./helpers";
import { demoMuseumCopy, exportMuseum, importMuseum } from "./builders";

// Decision 135: the tables D1 really has (migrations included, not only app/db/schema.ts) each have a line in
// app/archive/tables.ts, and a round trip brings back as many rows of every archived table as the museum had.

/** Tables of the platform, not of the app (D1's migration list, workerd's KV emulation). */
const PLATFORM = /^(sqlite_|_cf_|d1_migrations$)/;

async function demoMuseum() {
  return demoMuseumCopy(staffSession);
}

async function counts(museumId: number) {
  const out: Partial<Record<TableName, number>> = {};
  for (const [name, plan] of Object.entries(ARCHIVE_TABLES) as [TableName, (typeof ARCHIVE_TABLES)[TableName]][]) {
    if (!("archived" in plan) || name === "museums") continue;
    const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${name} WHERE museum_id = ?`).bind(museumId).first<{ n: number }>();
    out[name] = row!.n;
  }
  return out;
}

describe("the museum archive's tables (decision 135)", () => {
  it("every table of the database has a decision: archived, or excluded with a reason", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>();
    const app = results.map((r) => r.name).filter((name) => !PLATFORM.test(name));
    expect(app.length).toBeGreaterThanOrEqual(28);
    expect(
      app.filter((name) => !(name in ARCHIVE_TABLES)),
      "tables with no line in app/archive/tables.ts",
    ).toEqual([]);
    expect(Object.keys(ARCHIVE_TABLES).filter((name) => !app.includes(name))).toEqual([]);
  });

  it("a round trip of the demo museum with a tour brings back as many rows of every archived table", { timeout: 60_000 }, async () => {
    const source = await demoMuseum();
    const tree = (await source.read("/api/tree")).body as { type: string; name: string }[];
    const folder = tree.find((node) => node.type === "folder");
    expect(folder).toBeDefined();
    expect((await source.call("add_tour", { name: "Parcours d'essai", pathArray: [], folderId: folder!.name })).status).toBe(200);
    const before = await counts(source.user.museumId);

    const archive = await exportMuseum(source.cookie);
    const target = await staffSession();
    const imported = await importMuseum(target.cookie, archive);
    expect(imported.status, await imported.clone().text()).toBe(200);
    const after = await counts(target.user.museumId);
    expect(after).toEqual(before);
    // The demo fills most archived tables, so the equality above means something.
    expect(Object.values(before).filter((n) => n > 0).length).toBeGreaterThanOrEqual(8);
  });
});
