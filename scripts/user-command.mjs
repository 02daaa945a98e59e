// What `npm run user:create` / `user:reset-password` decide, without a database or a process to end:
// scripts/user.mjs reads the arguments with parseUserCommand, asks D1 the lookups, and runs userCommandSteps'
// SQL. Kept apart so the unit tests check every refusal and the SQL itself without spawning wrangler.
import { directoryAccountsSql, hashPassword, readOptions, shardAccountsSql, sqlString, UsageError } from "./lib.mjs";

export { UsageError };

const PASSWORD_MIN = 10;
const PASSWORD_MAX = 200;
const COMMON = { email: "string", password: "string", remote: "boolean", "persist-to": "string" };
export const USER_OPTIONS = {
  create: { ...COMMON, museum: "string", "museum-name": "string", shard: "string", eu: "boolean" },
  "reset-password": COMMON,
};

/** The command and its checked options, in the order the script has always checked them; throws UsageError. */
export function parseUserCommand(argv) {
  const [command, ...rest] = argv;
  if (!Object.hasOwn(USER_OPTIONS, command ?? "")) throw new UsageError(`unknown command "${command ?? ""}"; use create or reset-password`);
  const { values: args } = readOptions(rest, USER_OPTIONS[command]);
  if (args.remote && args["persist-to"]) throw new UsageError("--remote and --persist-to cannot go together");

  const requireString = (name, check, hint) => {
    const value = args[name];
    if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required (${hint})`);
    if (!check(value)) throw new UsageError(`--${name} is invalid: ${hint}`);
    return value.trim();
  };
  const email = requireString("email", (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) && v.length <= 254, "an e-mail address").toLowerCase();
  const password = requireString("password", (v) => v.length >= PASSWORD_MIN && v.length <= PASSWORD_MAX, `${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  if (command !== "create") return { command, email, password, remote: args.remote === true, persistTo: args["persist-to"] };
  const museum = requireString("museum", (v) => /^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/.test(v), "a slug of lowercase letters, digits and dashes");
  const museumName = typeof args["museum-name"] === "string" ? args["museum-name"].trim().slice(0, 120) : undefined;
  let shard;
  if (args.shard !== undefined) {
    if (!/^(0|[1-9]\d{0,3})$/.test(args.shard)) throw new UsageError("--shard is invalid: a shard's number (0 is DB, k is DB_k)");
    shard = Number(args.shard);
  }
  return { command, email, password, museum, museumName, shard, eu: args.eu === true, remote: args.remote === true, persistTo: args["persist-to"] };
}

/**
 * The directory's read-only statements whose rows userCommandSteps needs (decision 142): the address's museum and
 * its shard, then (create) the museum by slug.
 */
export function userLookupSql(plan) {
  const user = `SELECT a.museum_id AS museumId, m.shard AS shard FROM accounts a JOIN museums m ON m.id = a.museum_id WHERE a.email = ${sqlString(plan.email)};`;
  return plan.command === "create" ? `${user}\nSELECT id, shard, jurisdiction FROM museums WHERE slug = ${sqlString(plan.museum)};` : user;
}

/**
 * What to write and what to print, given the rows of userLookupSql's statements and, for a new museum, the shard
 * it goes to (`--shard`, else the one with the most room, which the script measured). Throws UsageError for a user
 * that already exists (create) or is missing (reset-password), and for a shard wrangler.toml does not declare.
 * `directorySql` runs on the directory first; its last statement's row `{ id, shard }` (create) is the museum,
 * which `shardSql` takes to write the shard's part.
 */
export function userCommandSteps(plan, [users, museums = []], { roomiest = 0, shards = [0], euShards = [] } = {}) {
  const { email } = plan;
  if (plan.command === "create") {
    if (users.length > 0) throw new UsageError(`a user with e-mail ${email} already exists; use npm run user:reset-password`);
    const hadMuseum = museums.length > 0;
    if (hadMuseum && plan.shard !== undefined && Number(museums[0].shard) !== plan.shard)
      throw new UsageError(`the museum "${plan.museum}" is on shard ${museums[0].shard}; moving it is npm run museum:move's job`);
    if (hadMuseum && plan.eu && museums[0].jurisdiction !== "eu")
      throw new UsageError(`the museum "${plan.museum}" is not on an EU shard; moving it is npm run museum:move's job`);
    const shard = hadMuseum ? Number(museums[0].shard) : (plan.shard ?? roomiest);
    if (!shards.includes(shard)) throw new UsageError(`--shard is invalid: wrangler.toml declares shards ${shards.join(", ")}`);
    // A museum that asks for its data to stay in the EU goes to a shard created in the EU jurisdiction (decision 142).
    if (plan.eu && !euShards.includes(shard))
      throw new UsageError(
        euShards.length === 0
          ? "--eu: wrangler.toml declares no shard in the EU jurisdiction"
          : `--eu: shard ${shard} is not in the EU (EU shards: ${euShards.join(", ")})`,
      );
    const jurisdiction = hadMuseum ? String(museums[0].jurisdiction ?? "") : euShards.includes(shard) ? "eu" : "";
    const entry = { museumSlug: plan.museum, museumName: plan.museumName, email, passwordHash: hashPassword(plan.password), shard, jurisdiction };
    return {
      shard,
      directorySql: directoryAccountsSql([entry]),
      shardSql: (museum) => shardAccountsSql([{ ...entry, museumId: museum.id }]),
      message: `${hadMuseum ? "Added" : `Created museum (shard ${shard}${jurisdiction ? `, ${jurisdiction.toUpperCase()}` : ""})`} "${plan.museum}"${hadMuseum ? "" : " and"} user ${email}. They can log in now.`,
    };
  }
  if (users.length === 0) throw new UsageError(`no user with e-mail ${email}`);
  // A new password also ends every session, so a leaked cookie stops working.
  return {
    shard: Number(users[0].shard),
    directorySql: null,
    shardSql: () =>
      `UPDATE users SET password_hash = ${sqlString(hashPassword(plan.password))} WHERE email = ${sqlString(email)};\n` +
      `DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = ${sqlString(email)});`,
    message: `Password of ${email} reset; their sessions were closed.`,
  };
}
