import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import journal from "../../drizzle/meta/_journal.json";
import { version } from "../../package.json";
import { BASE } from "./helpers";

const SECRET = "integration-tests-secret-0123456789abcdef";

describe("GET /healthz", () => {
  it("reports the version, every migration applied and the engines, with no secret", async () => {
    const response = await SELF.fetch(`${BASE}/healthz`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = JSON.parse(text);
    expect(body.ok).toBe(true);
    expect(body.version).toBe(version);
    expect(body.migrations).toEqual({
      applied: journal.entries.length,
      expected: journal.entries.length,
      latest: `${journal.entries.at(-1)!.tag}.sql`,
      pending: [],
    });
    // The test config sets pseudo explicitly; healthz says it is the offline stand-in.
    expect(body.engines).toEqual([{ id: "pseudo", ready: true, missing: [], offline: true }]);
    expect(body.pseudoTranslations).toBe(true);
    expect(body.sessionSecret).toBe(true);
    expect(text).not.toContain(SECRET);
    expect(text).not.toMatch(/@|password|email/i);
  });

  it("answers 503 naming what is missing when a migration has not been applied", async () => {
    const last = `${journal.entries.at(-1)!.tag}.sql`;
    const row = await env.DB.prepare("SELECT id, name, applied_at FROM d1_migrations WHERE name = ?")
      .bind(last)
      .first<{ id: number; name: string; applied_at: string }>();
    await env.DB.prepare("DELETE FROM d1_migrations WHERE name = ?").bind(last).run();
    let response: Response;
    try {
      response = await SELF.fetch(`${BASE}/healthz`);
    } finally {
      // Put back: the integration files share their runtime's D1 (decision 130), and the next file's setup would
      // otherwise apply this migration again over its tables ("table … already exists").
      await env.DB.prepare("INSERT INTO d1_migrations (id, name, applied_at) VALUES (?, ?, ?)").bind(row!.id, row!.name, row!.applied_at).run();
    }
    const body = (await response.json()) as { ok: boolean; migrations: { pending: string[] }; problems: string[] };
    expect(response.status).toBe(503);
    expect(body.ok).toBe(false);
    expect(body.migrations.pending).toEqual([last]);
    expect(body.problems).toContain("1 migration(s) not applied");
  });

  it("refuses writes", async () => {
    const response = await SELF.fetch(`${BASE}/healthz`, { method: "POST", headers: { Origin: BASE, Host: "localhost" } });
    expect(response.status).toBe(405);
  });
});
