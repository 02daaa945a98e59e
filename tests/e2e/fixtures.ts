import { randomBytes } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";
import { getPlatformProxy } from "wrangler";
import { upsertUserSql } from "../../scripts/lib.mjs";
import { E2E_PERSIST_TO } from "./server";

export type Staff = { email: string; password: string; museumSlug: string; museumName: string };

/** The parts of the D1 binding the tests use (the Worker's D1Database type is not in scope here). */
export interface E2eDb {
  prepare(query: string): E2eStatement;
  batch<T = Record<string, unknown>>(statements: E2eStatement[]): Promise<{ results: T[] }[]>;
}
interface E2eStatement {
  bind(...values: unknown[]): E2eStatement;
}

// Tables whose rows hang off a museum. All but scan_events cascade from the museum row (sessions through
// users); scan_events has no foreign key, so it is cleared by hand.
const OWNED = ["users", "folders", "articles", "media", "qrcodes", "translation_memory", "daily_stats", "scan_events", "translation_reviews", "translation_reports", "glossary_terms"];

/**
 * One batch (one transaction) on the e2e database. The e2e server's workerd holds the same SQLite file, and
 * its statistics consumer may be writing when a test starts or ends: a busy database is waited for.
 */
export async function inBatch<T = Record<string, unknown>>(db: E2eDb, statements: E2eStatement[]) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.batch<T>(statements);
    } catch (error) {
      if (attempt >= 20 || !/SQLITE_BUSY|database is locked/i.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
    }
  }
}

/**
 * `e2eDb`: the e2e server's own local D1 (the state directory playwright.config.ts starts it on), opened
 * in-process once per Playwright worker through wrangler's getPlatformProxy, the way `wrangler d1 execute
 * --local` opens it, without starting wrangler twice per test (issue 16).
 *
 * `staff`: each test that asks for it gets a museum and a staff login of its own, written with the same SQL as
 * `npm run user:create` (scripts/lib.mjs), and removed after the test with everything it made, checked.
 */
export const test = base.extend<{ staff: Staff }, { e2eDb: E2eDb }>({
  e2eDb: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern.
    async ({}, provide) => {
      const proxy = await getPlatformProxy<{ DB: E2eDb }>({
        configPath: "wrangler.toml",
        persist: { path: `${E2E_PERSIST_TO}/v3` },
        remoteBindings: false,
      });
      try {
        await provide(proxy.env.DB);
      } finally {
        await proxy.dispose();
      }
    },
    { scope: "worker" },
  ],

  staff: async ({ e2eDb: db }, provide, testInfo) => {
    const id = `e2e-${testInfo.workerIndex}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
    const staff: Staff = {
      email: `${id}@muselingo.test`,
      password: randomBytes(12).toString("base64url"),
      museumSlug: id,
      museumName: `Musée ${id}`,
    };
    const upsert = upsertUserSql(staff)
      .split("\n")
      .map((sql) => db.prepare(sql));
    const created = await inBatch<{ museumId: number; userId: number }>(db, [
      ...upsert,
      db.prepare("SELECT users.museum_id AS museumId, users.id AS userId FROM users WHERE users.email = ?").bind(staff.email),
    ]);
    const ids = created.at(-1)?.results[0];
    if (!ids) throw new Error(`Could not create the e2e staff user ${staff.email}`);

    await provide(staff);

    const [museumId, userId] = [Number(ids.museumId), Number(ids.userId)];
    const counts = OWNED.map((table) => `(SELECT COUNT(*) FROM ${table} WHERE museum_id = ?1) AS ${table}`);
    const [, , left] = await inBatch(db, [
      db.prepare("DELETE FROM scan_events WHERE museum_id = ?").bind(museumId),
      db.prepare("DELETE FROM museums WHERE id = ?").bind(museumId),
      db.prepare(`SELECT ${counts.join(", ")}, (SELECT COUNT(*) FROM sessions WHERE user_id = ?2) AS sessions`).bind(museumId, userId),
    ]);
    const leftovers = Object.entries(left?.results[0] ?? {}).filter(([, n]) => Number(n) > 0);
    if (leftovers.length > 0) throw new Error(`Deleting museum ${staff.museumSlug} left rows behind: ${JSON.stringify(Object.fromEntries(leftovers))}`);
  },
});

export { expect };

export async function logIn(page: Page, staff: Pick<Staff, "email" | "password">) {
  await page.goto("/login");
  await page.getByLabel("Adresse e-mail").fill(staff.email);
  await page.getByLabel("Mot de passe").fill(staff.password);
  await page.getByLabel("Mot de passe").press("Enter");
  await expect(page).toHaveURL(/\/dashboard$/);
}
