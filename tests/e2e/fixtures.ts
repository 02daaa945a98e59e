import { randomBytes } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";
import { d1QueryAll, upsertUserSql } from "../../scripts/lib.mjs";
import { beginTest, claimStaff, e2eTarget, endTest, exclusively, E2E_SLUG_PREFIX, POOL_SIZE } from "./staff-pool.mjs";

export type Staff = { email: string; password: string; museumSlug: string; museumName: string };

/** Where logins come from once the pool made before the server started (staff-pool.mjs) is used up. */
const BATCH = 20;

function newStaff(workerIndex: number): Staff {
  const id = `${E2E_SLUG_PREFIX}${workerIndex}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
  return { email: `${id}@muselingo.test`, password: randomBytes(12).toString("base64url"), museumSlug: id, museumName: `Musée ${id}` };
}

let warned = false;

/**
 * Staff logins, each with a museum of its own, claimed from the pool made before the server started (one
 * wrangler run for the whole suite; decision 080). Only if the pool runs out (a run with --repeat-each, say)
 * are more made here, twenty per `wrangler d1 execute`, once no other test runs (see writeD1), hence the
 * warning. Every museum is deleted and checked for leftovers by the global teardown.
 */
class StaffPool {
  private extra: Staff[] = [];

  constructor(private readonly workerIndex: number) {}

  take(): Staff {
    const claimed = claimStaff();
    if (claimed) return claimed;
    if (this.extra.length === 0) this.fill();
    return this.extra.shift()!;
  }

  private fill() {
    if (!warned) {
      warned = true;
      console.warn(`The e2e staff pool is used up: making logins with wrangler mid-run (set E2E_STAFF_POOL above ${POOL_SIZE}).`);
    }
    const batch = Array.from({ length: BATCH }, () => newStaff(this.workerIndex));
    const emails = batch.map((s) => `'${s.email}'`).join(", ");
    const sql = `${batch.map((s) => upsertUserSql(s)).join("\n")}\nSELECT users.email AS email FROM users WHERE users.email IN (${emails});`;
    const created = exclusively(() => d1QueryAll(sql, e2eTarget)).result;
    const rows = (created.at(-1) ?? []) as { email: string }[];
    for (const staff of batch) {
      if (!rows.some((r) => r.email === staff.email)) throw new Error(`Could not create the e2e staff user ${staff.email}`);
      this.extra.push(staff);
    }
  }
}

/** Each test that asks for `staff` gets a museum and a staff login of its own (from the worker's StaffPool). */
export const test = base.extend<{ staff: Staff; running: void }, { staffPool: StaffPool }>({
  // Every test says it is running (a file per worker) so that writeD1 waits for it to end; it waits itself
  // while another worker writes. The time spent waiting is added to the test's time limit.
  running: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern.
    async ({}, use, testInfo) => {
      const waited = beginTest();
      if (waited > 0) testInfo.setTimeout(testInfo.timeout + waited);
      try {
        await use();
      } finally {
        endTest();
      }
    },
    { auto: true },
  ],
  staffPool: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern.
    async ({}, provide, workerInfo) => {
      await provide(new StaffPool(workerInfo.workerIndex));
    },
    { scope: "worker" },
  ],
  staff: async ({ staffPool }, provide) => {
    await provide(staffPool.take());
  },
});

export { expect };

/**
 * Runs SQL on the e2e database with wrangler (rows of each statement), once no other test is running: a
 * second process writing the server's SQLite file while another worker's request reads it fails that request
 * with SQLITE_BUSY (decision 080). The wait is added to the calling test's time limit.
 */
export function writeD1(sql: string) {
  const { result, waited } = exclusively(() => d1QueryAll(sql, e2eTarget));
  const info = test.info();
  if (waited > 0) info.setTimeout(info.timeout + waited);
  return result;
}

export async function logIn(page: Page, staff: Pick<Staff, "email" | "password">) {
  await page.goto("/login");
  await page.getByLabel("Adresse e-mail").fill(staff.email);
  await page.getByLabel("Mot de passe").fill(staff.password);
  await page.getByLabel("Mot de passe").press("Enter");
  await expect(page).toHaveURL(/\/dashboard$/);
}
