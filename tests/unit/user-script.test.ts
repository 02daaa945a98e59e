import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { verifyPassword } from "~/lib/password.server";
import { d1Query, ensureSchema, pendingMigrations, SchemaError } from "../../scripts/lib.mjs";

// Runs the operator script for real against a throwaway local D1 (wrangler --persist-to).
const state = mkdtempSync(join(tmpdir(), "muselingo-user-script-"));
const target = ["--local", "--persist-to", state];

function user(...args: string[]) {
  return spawnSync("node", ["scripts/user.mjs", ...args, "--persist-to", state], { encoding: "utf8" });
}

afterAll(() => rmSync(state, { recursive: true, force: true }));

// Each case runs real wrangler commands (seconds each, more while the end-to-end suite runs beside the unit
// tests): the limits guard against a hang, they measure nothing.
describe("npm run user:create / user:reset-password", () => {
  it("creates the museum and a user whose password verifies, then resets it", { timeout: 240_000 }, async () => {
    const created = user("create", "--museum", "orsay", "--museum-name", "Musée d'Orsay", "--email", "Claire@Orsay.fr", "--password", "gare-1900-ok");
    expect(created.status, created.stderr).toBe(0);
    const [row] = d1Query(
      "SELECT users.email, users.password_hash, museums.name, museums.slug FROM users JOIN museums ON museums.id = users.museum_id",
      target,
    ) as { email: string; password_hash: string; name: string; slug: string }[];
    expect(row).toMatchObject({ email: "claire@orsay.fr", name: "Musée d'Orsay", slug: "orsay" });
    expect(await verifyPassword("gare-1900-ok", row!.password_hash)).toBe(true);

    const again = user("create", "--museum", "orsay", "--email", "claire@orsay.fr", "--password", "gare-1900-ok");
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("already exists");

    const reset = user("reset-password", "--email", "claire@orsay.fr", "--password", "nouveau-mot-2026");
    expect(reset.status, reset.stderr).toBe(0);
    const [after] = d1Query("SELECT password_hash FROM users", target) as { password_hash: string }[];
    expect(await verifyPassword("nouveau-mot-2026", after!.password_hash)).toBe(true);
    expect(await verifyPassword("gare-1900-ok", after!.password_hash)).toBe(false);
  });

  it("refuses bad input before touching the database", { timeout: 90_000 }, () => {
    const slug = user("create", "--museum", "Bad Slug", "--email", "a@b.fr", "--password", "long-enough-1");
    expect(slug.status).toBe(1);
    expect(slug.stderr).toContain("--museum is invalid");
    const short = user("create", "--museum", "ok", "--email", "a@b.fr", "--password", "short");
    expect(short.stderr).toContain("--password is invalid");
    const email = user("create", "--museum", "ok", "--email", "not-an-email", "--password", "long-enough-1");
    expect(email.stderr).toContain("--email is invalid");
    const unknown = user("reset-password", "--email", "nobody@b.fr", "--password", "long-enough-1");
    expect(unknown.status).toBe(1);
    const typo = user("create", "--musem", "ok", "--email", "a@b.fr", "--password", "long-enough-1");
    expect(typo.status).toBe(1);
    expect(typo.stderr).toContain("Unknown option '--musem'");
    const command = user("delete", "--email", "a@b.fr");
    expect(command.stderr).toContain('unknown command "delete"');
  });

  it("only checks a database it must not migrate (as with --remote), and says which command to run", { timeout: 150_000 }, () => {
    const fresh = mkdtempSync(join(tmpdir(), "muselingo-no-migrate-"));
    try {
      const freshTarget = ["--local", "--persist-to", fresh];
      expect(() => ensureSchema(freshTarget, { migrate: false })).toThrow(SchemaError);
      expect(() => ensureSchema(freshTarget, { migrate: false })).toThrow("npm run db:migrate:remote");
      expect(pendingMigrations(freshTarget)).toContain("0000_init.sql");
      expect(d1Query("SELECT name FROM sqlite_master WHERE name = 'users'", freshTarget)).toEqual([]);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
