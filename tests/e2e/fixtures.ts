import { randomBytes } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";
import { d1QueryAll, d1Target, upsertUserSql } from "../../scripts/lib.mjs";
import { E2E_PERSIST_TO } from "./server";

export type Staff = { email: string; password: string; museumSlug: string; museumName: string };

const target = d1Target({ persistTo: E2E_PERSIST_TO });

// Tables whose rows hang off a museum. All but scan_events cascade from the museum row (sessions through
// users); scan_events has no foreign key, so it is cleared by hand.
const OWNED = ["users", "folders", "articles", "media", "qrcodes", "translation_memory", "daily_stats", "scan_events", "translation_reviews", "translation_reports", "glossary_terms", "translation_failures", "article_versions", "member_tokens", "audit_log"];

/**
 * How many museums one wrangler run creates: each `wrangler d1 execute` costs seconds, a test only a row, and
 * with two Playwright workers a run that writes the server's SQLite file mid-test can make a request meet
 * SQLITE_BUSY. Forty covers a worker's share of the suite in one run, made before its first test.
 */
const BATCH = 40;

function newStaff(workerIndex: number): Staff {
  const id = `e2e-${workerIndex}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
  return { email: `${id}@muselingo.test`, password: randomBytes(12).toString("base64url"), museumSlug: id, museumName: `Musée ${id}` };
}

/**
 * Staff logins made the way an operator would (scripts/lib.mjs's SQL), forty per wrangler run instead of two
 * runs per test; each test still gets a museum of its own. When the worker ends, every museum handed out is
 * deleted in one run and checked: nothing may be left behind in any table that hangs off a museum.
 */
class StaffPool {
  private ready: { staff: Staff; museumId: number; userId: number }[] = [];
  private made: { staff: Staff; museumId: number; userId: number }[] = [];

  constructor(private readonly workerIndex: number) {}

  take(): Staff {
    if (this.ready.length === 0) this.fill();
    const next = this.ready.shift()!;
    return next.staff;
  }

  private fill() {
    const batch = Array.from({ length: BATCH }, () => newStaff(this.workerIndex));
    const emails = batch.map((s) => `'${s.email}'`).join(", ");
    const created = d1QueryAll(
      `${batch.map((s) => upsertUserSql(s)).join("\n")}\nSELECT users.email AS email, users.museum_id AS museumId, users.id AS userId FROM users WHERE users.email IN (${emails});`,
      target,
    );
    const rows = (created.at(-1) ?? []) as { email: string; museumId: number; userId: number }[];
    for (const staff of batch) {
      const row = rows.find((r) => r.email === staff.email);
      if (!row) throw new Error(`Could not create the e2e staff user ${staff.email}`);
      const entry = { staff, museumId: Number(row.museumId), userId: Number(row.userId) };
      this.ready.push(entry);
      this.made.push(entry);
    }
  }

  /** Deletes every museum made, then checks each left nothing behind (30 per run: a command line has limits). */
  dispose() {
    for (let i = 0; i < this.made.length; i += 30) {
      const chunk = this.made.slice(i, i + 30);
      const ids = chunk.map((m) => m.museumId).join(", ");
      const checks = chunk.map(({ museumId, userId }) => {
        const counts = OWNED.map((table) => `(SELECT COUNT(*) FROM ${table} WHERE museum_id = ${museumId}) AS ${table}`);
        return `SELECT ${museumId} AS museum, ${counts.join(", ")}, (SELECT COUNT(*) FROM sessions WHERE user_id = ${userId}) AS sessions;`;
      });
      const results = d1QueryAll(`DELETE FROM scan_events WHERE museum_id IN (${ids});\nDELETE FROM museums WHERE id IN (${ids});\n${checks.join("\n")}`, target);
      for (const [row] of results.slice(2) as Record<string, unknown>[][]) {
        const leftovers = Object.entries(row ?? {}).filter(([key, n]) => key !== "museum" && Number(n) > 0);
        if (leftovers.length > 0) throw new Error(`Deleting museum ${String(row?.museum)} left rows behind: ${JSON.stringify(Object.fromEntries(leftovers))}`);
      }
    }
  }
}

/** Each test that asks for `staff` gets a museum and a staff login of its own (from the worker's StaffPool). */
export const test = base.extend<{ staff: Staff }, { staffPool: StaffPool }>({
  staffPool: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern.
    async ({}, provide, workerInfo) => {
      const pool = new StaffPool(workerInfo.workerIndex);
      await provide(pool);
      pool.dispose();
    },
    { scope: "worker" },
  ],
  staff: async ({ staffPool }, provide) => {
    await provide(staffPool.take());
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
