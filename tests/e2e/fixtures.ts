import { randomBytes } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";
import { d1QueryAll, d1Target, upsertUserSql } from "../../scripts/lib.mjs";
import { E2E_PERSIST_TO } from "./server";

export type Staff = { email: string; password: string; museumSlug: string; museumName: string };

const target = d1Target({ persistTo: E2E_PERSIST_TO });

// Tables whose rows hang off a museum. All but scan_events cascade from the museum row (sessions through
// users); scan_events has no foreign key, so it is cleared by hand.
const OWNED = ["users", "folders", "articles", "media", "qrcodes", "translation_memory", "daily_stats", "scan_events", "translation_reviews", "translation_reports", "glossary_terms"];

/**
 * Each test that asks for `staff` gets a museum and a staff login of its own, created the way an operator
 * would (scripts/lib.mjs, one wrangler run) and removed after the test with everything it made (one run).
 */
export const test = base.extend<{ staff: Staff }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern.
  staff: async ({}, provide, testInfo) => {
    const id = `e2e-${testInfo.workerIndex}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
    const staff: Staff = {
      email: `${id}@muselingo.test`,
      password: randomBytes(12).toString("base64url"),
      museumSlug: id,
      museumName: `Musée ${id}`,
    };
    const created = d1QueryAll(
      `${upsertUserSql(staff)}\nSELECT users.museum_id AS museumId, users.id AS userId FROM users WHERE users.email = '${staff.email}';`,
      target,
    );
    const ids = created.at(-1)?.[0] as { museumId: number; userId: number } | undefined;
    if (!ids) throw new Error(`Could not create the e2e staff user ${staff.email}`);

    await provide(staff);

    const [museumId, userId] = [Number(ids.museumId), Number(ids.userId)];
    const counts = OWNED.map((table) => `(SELECT COUNT(*) FROM ${table} WHERE museum_id = ${museumId}) AS ${table}`);
    const [, , left] = d1QueryAll(
      `DELETE FROM scan_events WHERE museum_id = ${museumId};\nDELETE FROM museums WHERE id = ${museumId};\n` +
        `SELECT ${counts.join(", ")}, (SELECT COUNT(*) FROM sessions WHERE user_id = ${userId}) AS sessions;`,
      target,
    );
    const leftovers = Object.entries(left?.[0] ?? {}).filter(([, n]) => Number(n) > 0);
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
