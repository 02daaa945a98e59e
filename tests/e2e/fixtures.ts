import { randomBytes } from "node:crypto";
import { test as base, expect, type APIRequestContext, type Page } from "@playwright/test";
import { bindingOfShard, createAccounts, d1QueryAll, hashPassword } from "../../scripts/lib.mjs";
import { beginTest, claimStaff, e2eTarget, endTest, exclusively, E2E_SLUG_PREFIX, POOL_SIZE } from "./staff-pool.mjs";

/** A staff login of a museum of its own, on `shard` (decision 142: the pool spreads them over the shards). */
export type Staff = { email: string; password: string; museumSlug: string; museumName: string; shard: number };

/** Where logins come from once the pool made before the server started (staff-pool.mjs) is used up. */
const BATCH = 20;

function newStaff(workerIndex: number, i: number): Staff {
  const id = `${E2E_SLUG_PREFIX}${workerIndex}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
  return { email: `${id}@muselingo.test`, password: randomBytes(12).toString("base64url"), museumSlug: id, museumName: `Musée ${id}`, shard: i % 3 };
}

let warned = false;

/**
 * A call of Playwright's API client (page.request, context.request) that finds its pooled connection closed by
 * the server is sent again on a new one, as a browser does. The dev server (workerd under `wrangler dev`)
 * closes a kept-alive connection after 5 s idle; a call sent on it in that instant fails with "socket hang up"
 * (ECONNRESET) before the server read a byte of it (a flake seen in editor-keep.spec.ts, reproduced by calls
 * 5 s apart; the client keeps its pool whatever `Connection` header is sent). Only that error, only once:
 * anything else, and a second failure, fail the test (decision 125).
 */
function resendOnStaleConnection(request: APIRequestContext) {
  type Fetch = (
    this: APIRequestContext,
    urlOrRequest: Parameters<APIRequestContext["fetch"]>[0],
    options?: Parameters<APIRequestContext["fetch"]>[1],
  ) => ReturnType<APIRequestContext["fetch"]>;
  const proto = Object.getPrototypeOf(request) as { fetch: Fetch; resendsOnStale?: boolean };
  if (proto.resendsOnStale) return;
  const fetch = proto.fetch;
  proto.fetch = async function (urlOrRequest, options) {
    try {
      return await fetch.call(this, urlOrRequest, options);
    } catch (error) {
      if (!/socket hang up|ECONNRESET/.test(String(error))) throw error;
      console.warn(
        `e2e: sent again on a new connection (the pooled one was closed by the server): ${typeof urlOrRequest === "string" ? urlOrRequest : urlOrRequest.url()}`,
      );
      return await fetch.call(this, urlOrRequest, options);
    }
  };
  proto.resendsOnStale = true;
}

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
    const batch = Array.from({ length: BATCH }, (_, i) => newStaff(this.workerIndex, i));
    const placed = exclusively(() =>
      createAccounts(
        batch.map((s) => ({ ...s, passwordHash: hashPassword(s.password) })),
        e2eTarget,
      ),
    ).result;
    for (const { passwordHash: _, museumId: __, ...staff } of placed) this.extra.push(staff);
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
    async ({ playwright }, provide, workerInfo) => {
      const request = await playwright.request.newContext();
      resendOnStaleConnection(request);
      await request.dispose();
      await provide(new StaffPool(workerInfo.workerIndex));
    },
    { scope: "worker", auto: true },
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
export function writeD1(sql: string, staff: Pick<Staff, "shard">) {
  const { result, waited } = exclusively(() => d1QueryAll(sql, e2eTarget, bindingOfShard(staff.shard)));
  const info = test.info();
  if (waited > 0) info.setTimeout(info.timeout + waited);
  return result;
}

/**
 * Logs the page's browser context in through the JSON `POST /login` (docs/api.md: the session cookie it sets
 * is the context's), without loading a page: most journeys start on a page of their own, and the login form
 * costs two page loads a test (decision 125). The form is the journey in foundation.spec.ts, team.spec.ts
 * and the dashboard's tiles (logInByForm); its refusals are tests/integration/auth's.
 */
export async function logIn(page: Page, staff: Pick<Staff, "email" | "password">) {
  const response = await page.request.post("/login", { data: { email: staff.email, password: staff.password } });
  expect(response.status(), `log in ${staff.email}`).toBe(200);
}

/** Logs in through the login page's form, as a person does, and lands on the dashboard. */
export async function logInByForm(page: Page, staff: Pick<Staff, "email" | "password">) {
  await page.goto("/login");
  await page.getByLabel("Adresse e-mail").fill(staff.email);
  await page.getByLabel("Mot de passe").fill(staff.password);
  await page.getByLabel("Mot de passe").press("Enter");
  await expect(page).toHaveURL(/\/dashboard$/);
}
