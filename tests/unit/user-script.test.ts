import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "~/lib/password.server";
import { d1Query, ensureSchema, ROOT, roomiestShard, SchemaError } from "../../scripts/lib.mjs";
import { shardSeedSql } from "../../scripts/shards.mjs";
import { parseUserCommand, UsageError, userCommandSteps, userLookupSql, type UserPlan } from "../../scripts/user-command.mjs";

// `npm run user:create` / `user:reset-password` (scripts/user.mjs). What the script decides — its arguments,
// its refusals, its SQL — is scripts/user-command.mjs, checked here without wrangler: the SQL runs on a real
// D1 (Miniflare's, in this process, with drizzle/'s migrations). One case runs the script for real against a
// throwaway local D1 (wrangler --persist-to), which is what proves it writes where `npm start` reads (decision 127).

/** The refusal a command line gets, or null when it is accepted. */
function refusal(...argv: string[]): string | null {
  try {
    parseUserCommand(argv);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
}

describe("the command line (no database)", () => {
  it("refuses bad input with the option it is about", () => {
    expect(refusal("create", "--museum", "Bad Slug", "--email", "a@b.fr", "--password", "long-enough-1")).toContain("--museum is invalid");
    expect(refusal("create", "--museum", "ok", "--email", "a@b.fr", "--password", "short")).toContain("--password is invalid");
    expect(refusal("create", "--museum", "ok", "--email", "a@b.fr", "--password", "x".repeat(201))).toContain("--password is invalid");
    expect(refusal("create", "--museum", "ok", "--email", "not-an-email", "--password", "long-enough-1")).toContain("--email is invalid");
    expect(refusal("create", "--museum", "ok", "--password", "long-enough-1")).toBe("--email is required (an e-mail address)");
    expect(refusal("create", "--email", "a@b.fr", "--password", "long-enough-1")).toContain("--museum is required");
    expect(refusal("create", "--musem", "ok", "--email", "a@b.fr", "--password", "long-enough-1")).toMatch(
      /^Unknown option '--musem'\nKnown options: .*--museum <value>/,
    );
    // reset-password has no --museum.
    expect(refusal("reset-password", "--museum", "ok", "--email", "a@b.fr", "--password", "long-enough-1")).toContain("Unknown option '--museum'");
    expect(refusal("delete", "--email", "a@b.fr")).toBe('unknown command "delete"; use create or reset-password');
    expect(refusal()).toBe('unknown command ""; use create or reset-password');
    expect(refusal("constructor")).toContain('unknown command "constructor"');
    expect(refusal("create", "--remote", "--persist-to", "/tmp/x", "--museum", "ok", "--email", "a@b.fr", "--password", "long-enough-1")).toBe(
      "--remote and --persist-to cannot go together",
    );
  });

  it("reads a good one, e-mail in lower case and the museum's name trimmed", () => {
    expect(
      parseUserCommand(["create", "--museum", "orsay", "--museum-name", "  Musée d'Orsay ", "--email", " Claire@Orsay.FR ", "--password", "gare-1900-ok"]),
    ).toEqual({
      command: "create",
      museum: "orsay",
      museumName: "Musée d'Orsay",
      email: "claire@orsay.fr",
      password: "gare-1900-ok",
      shard: undefined,
      eu: false,
      remote: false,
      persistTo: undefined,
    });
    expect(parseUserCommand(["create", "--museum", "a", "--museum-name", "x".repeat(200), "--email", "a@b.fr", "--password", "long-enough-1"])).toMatchObject({
      museumName: "x".repeat(120),
    });
    expect(parseUserCommand(["reset-password", "--email", "a@b.fr", "--password", "long-enough-1", "--remote"])).toEqual({
      command: "reset-password",
      email: "a@b.fr",
      password: "long-enough-1",
      remote: true,
      persistTo: undefined,
    });
  });
});

describe("what it writes, on a real directory and shards (Miniflare, migrated)", () => {
  let mf: Miniflare;
  const dbs: Record<string, D1Database> = {};

  /**
   * Statements one per line or split at drizzle's breakpoints, comments dropped, run as one batch. A trigger's
   * body (0013, decision 132) holds statements of its own: its parts are joined again up to its END.
   */
  async function run(sql: string, binding = "DB") {
    const db = dbs[binding]!;
    const parts = sql
      .replaceAll("--> statement-breakpoint", "\n")
      .split("\n")
      .filter((line) => !line.trimStart().startsWith("--"))
      .join("\n")
      .split(/;\s*$/m)
      .map((statement) => statement.trim())
      .filter(Boolean);
    const statements: string[] = [];
    for (const part of parts) {
      const open = statements.at(-1);
      if (open !== undefined && /^CREATE TRIGGER\b/i.test(open) && !/\bEND$/i.test(open)) statements[statements.length - 1] = `${open};\n${part}`;
      else statements.push(part);
    }
    return (await db.batch(statements.map((statement) => db.prepare(statement)))).map((result) => result.results as Record<string, unknown>[]);
  }

  /** What scripts/user.mjs does once its arguments are read: the directory's lookups and part, then the shard's. */
  async function command(argv: string[], roomiest = 0) {
    const plan: UserPlan = parseUserCommand(argv);
    const steps = userCommandSteps(plan, await run(userLookupSql(plan), "DIRECTORY"), { roomiest, shards: [0, 1] });
    const museum = steps.directorySql === null ? null : ((await run(steps.directorySql, "DIRECTORY")).at(-1)?.[0] as { id: number; shard: number });
    await run(steps.shardSql(museum), steps.shard === 0 ? "DB" : `DB_${steps.shard}`);
    return steps.message;
  }

  const users = async (binding = "DB") =>
    (
      await run(
        "SELECT users.id, users.email, users.password_hash, museums.id AS museum_id, museums.name, museums.slug FROM users JOIN museums ON museums.id = users.museum_id ORDER BY users.id",
        binding,
      )
    )[0] as {
      id: number;
      email: string;
      password_hash: string;
      museum_id: number;
      name: string;
      slug: string;
    }[];

  const migrate = async (dir: string, binding: string) => {
    for (const file of readdirSync(join(ROOT, dir))
      .filter((name) => name.endsWith(".sql"))
      .sort()) {
      await run(readFileSync(join(ROOT, dir, file), "utf8"), binding);
    }
  };

  beforeAll(async () => {
    mf = new Miniflare(
      convertV4MiniflareOptions({ modules: true, script: "export default { fetch: () => new Response(null) };", d1Databases: ["DIRECTORY", "DB", "DB_1"] }),
    );
    for (const binding of ["DIRECTORY", "DB", "DB_1"]) dbs[binding] = (await mf.getD1Database(binding)) as unknown as D1Database;
    await migrate("drizzle-directory", "DIRECTORY");
    await migrate("drizzle", "DB");
    await migrate("drizzle", "DB_1");
    await run(shardSeedSql(1), "DB_1");
  });
  afterAll(() => mf?.dispose());

  it("creates the museum and a user whose password verifies, refuses the same e-mail twice, adds a second user to the museum", async () => {
    expect(await command(["create", "--museum", "orsay", "--museum-name", "Musée d'Orsay", "--email", "Claire@Orsay.fr", "--password", "gare-1900-ok"])).toBe(
      'Created museum (shard 0) "orsay" and user claire@orsay.fr. They can log in now.',
    );
    const [claire] = await users();
    expect(claire).toMatchObject({ email: "claire@orsay.fr", name: "Musée d'Orsay", slug: "orsay" });
    expect(await verifyPassword("gare-1900-ok", claire!.password_hash)).toBe(true);
    // The directory knows the museum (its id is the shard row's) and the address.
    expect((await run("SELECT id, slug, shard FROM museums", "DIRECTORY"))[0]).toEqual([{ id: claire!.museum_id, slug: "orsay", shard: 0 }]);
    expect((await run("SELECT email, museum_id FROM accounts", "DIRECTORY"))[0]).toEqual([{ email: "claire@orsay.fr", museum_id: claire!.museum_id }]);

    await expect(command(["create", "--museum", "orsay", "--email", "claire@orsay.fr", "--password", "gare-1900-ok"])).rejects.toThrow(
      "a user with e-mail claire@orsay.fr already exists; use npm run user:reset-password",
    );
    expect(await command(["create", "--museum", "orsay", "--museum-name", "Autre nom", "--email", "o'brien@orsay.fr", "--password", "quai-1986-ok"], 1)).toBe(
      'Added "orsay" user o\'brien@orsay.fr. They can log in now.',
    );
    expect((await users()).map((u) => [u.email, u.name])).toEqual([
      ["claire@orsay.fr", "Musée d'Orsay"],
      ["o'brien@orsay.fr", "Musée d'Orsay"],
    ]);
  });

  it("puts a new museum on the shard with the most room, or the one named; its ids in that shard's range", async () => {
    expect(await command(["create", "--museum", "quai", "--email", "anne@quai.fr", "--password", "branly-2006"], 1)).toBe(
      'Created museum (shard 1) "quai" and user anne@quai.fr. They can log in now.',
    );
    const [anne] = await users("DB_1");
    expect(anne).toMatchObject({ email: "anne@quai.fr", slug: "quai" });
    expect(anne!.id).toBeGreaterThan(2 ** 40);
    expect(refusal("create", "--museum", "x", "--email", "a@b.fr", "--password", "long-enough-1", "--shard", "one")).toMatch(/^--shard is invalid/);
    await expect(command(["create", "--museum", "zz", "--email", "z@zz.fr", "--password", "long-enough-1", "--shard", "7"])).rejects.toThrow(
      "--shard is invalid: wrangler.toml declares shards 0, 1",
    );
    await expect(command(["create", "--museum", "quai", "--email", "b@quai.fr", "--password", "long-enough-1", "--shard", "0"])).rejects.toThrow(
      'the museum "quai" is on shard 1',
    );
  });

  it("--eu puts a new museum on an EU shard and records it in the directory; refuses where none is, or a shard outside the EU", async () => {
    const plan = parseUserCommand(["create", "--museum", "rijks", "--email", "eu@rijks.nl", "--password", "nachtwacht-1642", "--eu"]);
    const lookups = await run(userLookupSql(plan), "DIRECTORY");
    expect(() => userCommandSteps(plan, lookups, { roomiest: 0, shards: [0, 1] })).toThrow("--eu: wrangler.toml declares no shard in the EU jurisdiction");
    const onZero = parseUserCommand(["create", "--museum", "rijks", "--email", "eu@rijks.nl", "--password", "nachtwacht-1642", "--eu", "--shard", "0"]);
    expect(() => userCommandSteps(onZero, lookups, { shards: [0, 1], euShards: [1] })).toThrow("--eu: shard 0 is not in the EU");
    const steps = userCommandSteps(plan, lookups, { roomiest: 1, shards: [0, 1], euShards: [1] });
    expect(steps.message).toBe('Created museum (shard 1, EU) "rijks" and user eu@rijks.nl. They can log in now.');
    const museum = (await run(steps.directorySql!, "DIRECTORY")).at(-1)?.[0] as { id: number; shard: number };
    await run(steps.shardSql(museum), "DB_1");
    expect((await run("SELECT shard, jurisdiction FROM museums WHERE slug = 'rijks'", "DIRECTORY"))[0]).toEqual([{ shard: 1, jurisdiction: "eu" }]);
  });

  it("resets a password and ends that user's sessions only; refuses an e-mail it does not know", async () => {
    await command(["create", "--museum", "louvre", "--email", "anne@louvre.fr", "--password", "pyramide-89"]);
    await command(["create", "--museum", "louvre", "--email", "paul@louvre.fr", "--password", "joconde-1503"]);
    const [anne, paul] = (await users()).filter((u) => u.slug === "louvre");
    const expires = Date.now() + 86_400_000;
    await run(
      `INSERT INTO sessions (id, user_id, expires_at) VALUES ('s-anne', ${anne!.id}, ${expires});\nINSERT INTO sessions (id, user_id, expires_at) VALUES ('s-paul', ${paul!.id}, ${expires});`,
    );

    expect(await command(["reset-password", "--email", "ANNE@louvre.fr", "--password", "nouveau-mot-2026"])).toBe(
      "Password of anne@louvre.fr reset; their sessions were closed.",
    );
    const after = (await users()).find((u) => u.email === "anne@louvre.fr")!;
    expect(await verifyPassword("nouveau-mot-2026", after.password_hash)).toBe(true);
    expect(await verifyPassword("pyramide-89", after.password_hash)).toBe(false);
    expect((await run("SELECT id FROM sessions ORDER BY id"))[0]).toEqual([{ id: "s-paul" }]);

    await expect(command(["reset-password", "--email", "nobody@b.fr", "--password", "long-enough-1"])).rejects.toThrow("no user with e-mail nobody@b.fr");
  });

  it("picks the smallest measured shard, then the one with fewest museums, then the lowest number", () => {
    expect(
      roomiestShard([
        { shard: 0, bytes: 900 },
        { shard: 1, bytes: 100 },
        { shard: 2, bytes: 500 },
      ]),
    ).toBe(1);
    expect(
      roomiestShard([
        { shard: 0, bytes: -1, museums: 3 },
        { shard: 1, bytes: -1, museums: 1 },
        { shard: 2, bytes: -1, museums: 1 },
      ]),
    ).toBe(1);
    expect(roomiestShard([])).toBe(0);
  });
});

// The script for real: wrangler, a local D1 under --persist-to (seconds a wrangler run; the limit guards against a hang).
describe("npm run user:create against a local D1", () => {
  const state = mkdtempSync(join(tmpdir(), "muselingo-user-script-"));
  const target = ["--local", "--persist-to", state];
  const user = (...args: string[]) => spawnSync("node", ["scripts/user.mjs", ...args, "--persist-to", state], { cwd: ROOT, encoding: "utf8" });
  afterAll(() => rmSync(state, { recursive: true, force: true }));

  it(
    "checks without migrating when told not to migrate (as with --remote), refuses bad input, then migrates and writes the user",
    { timeout: 180_000 },
    async () => {
      // A fresh database: only checked, and the refusal says which command to run.
      const unmigrated = await ensureSchema(target, { migrate: false }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(unmigrated).toBeInstanceOf(SchemaError);
      expect((unmigrated as Error).message).toContain("0000_init.sql");
      expect((unmigrated as Error).message).toContain("npm run db:migrate:remote");
      expect(d1Query("SELECT name FROM sqlite_master WHERE name IN ('users', 'd1_migrations')", target)).toEqual([]);

      // Refused before any wrangler run: exit 1 and the message.
      const typo = user("create", "--musem", "ok", "--email", "a@b.fr", "--password", "long-enough-1");
      expect(typo.status).toBe(1);
      expect(typo.stderr).toMatch(/^Error: Unknown option '--musem'/);

      const created = user("create", "--museum", "orsay", "--museum-name", "Musée d'Orsay", "--email", "Claire@Orsay.fr", "--password", "gare-1900-ok");
      expect(created.status, created.stderr).toBe(0);
      expect(created.stdout).toContain('Created museum (shard 0) "orsay" and user claire@orsay.fr.');
      const [row] = d1Query(
        "SELECT users.email, users.password_hash, museums.name, museums.slug FROM users JOIN museums ON museums.id = users.museum_id",
        target,
      ) as { email: string; password_hash: string; name: string; slug: string }[];
      expect(row).toMatchObject({ email: "claire@orsay.fr", name: "Musée d'Orsay", slug: "orsay" });
      expect(await verifyPassword("gare-1900-ok", row!.password_hash)).toBe(true);
    },
  );
});
