// `npm run user:create -- --museum <slug> --email <email> --password <password> [--museum-name <name>] [--remote]`
// `npm run user:reset-password -- --email <email> --password <password> [--remote]`
// Works beside a running `npm start`: both use the same local D1 file under .wrangler/state.
// With --remote it never migrates production: it checks the schema and points at db:migrate:remote.
import { d1ExecFile, d1Query, d1Target, ensureSchema, hashPassword, parseOptions, SchemaError, sqlString, upsertUserSql } from "./lib.mjs";

const PASSWORD_MIN = 10;
const PASSWORD_MAX = 200;
const COMMON = { email: "string", password: "string", remote: "boolean", "persist-to": "string" };
const OPTIONS = {
  create: { ...COMMON, museum: "string", "museum-name": "string" },
  "reset-password": COMMON,
};

function fail(message) {
  console.error(`Error: ${message}`);
  process.exit(1);
}

const [command, ...rest] = process.argv.slice(2);
if (!Object.hasOwn(OPTIONS, command ?? "")) fail(`unknown command "${command ?? ""}"; use create or reset-password`);
const { values: args } = parseOptions(rest, OPTIONS[command]);
if (args.remote && args["persist-to"]) fail("--remote and --persist-to cannot go together");

function requireString(name, check, hint) {
  const value = args[name];
  if (typeof value !== "string" || value.trim() === "") fail(`--${name} is required (${hint})`);
  if (!check(value)) fail(`--${name} is invalid: ${hint}`);
  return value.trim();
}

const email = requireString("email", (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) && v.length <= 254, "an e-mail address").toLowerCase();
const password = requireString(
  "password",
  (v) => v.length >= PASSWORD_MIN && v.length <= PASSWORD_MAX,
  `${PASSWORD_MIN} to ${PASSWORD_MAX} characters`,
);
const museum =
  command === "create"
    ? requireString("museum", (v) => /^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/.test(v), "a slug of lowercase letters, digits and dashes")
    : undefined;
const target = d1Target({ remote: args.remote === true, persistTo: args["persist-to"] });
try {
  ensureSchema(target);
} catch (error) {
  if (error instanceof SchemaError) fail(error.message);
  throw error;
}
const existing = d1Query(`SELECT id FROM users WHERE email = ${sqlString(email)}`, target);

if (command === "create") {
  const museumName = typeof args["museum-name"] === "string" ? args["museum-name"].trim().slice(0, 120) : undefined;
  if (existing.length > 0) fail(`a user with e-mail ${email} already exists; use npm run user:reset-password`);
  const hadMuseum = d1Query(`SELECT id FROM museums WHERE slug = ${sqlString(museum)}`, target).length > 0;
  d1ExecFile(upsertUserSql({ museumSlug: museum, museumName, email, password }), target);
  console.log(`${hadMuseum ? "Added" : "Created museum"} "${museum}"${hadMuseum ? "" : " and"} user ${email}. They can log in now.`);
} else {
  if (existing.length === 0) fail(`no user with e-mail ${email}`);
  // A new password also ends every session, so a leaked cookie stops working.
  d1ExecFile(
    `UPDATE users SET password_hash = ${sqlString(hashPassword(password))} WHERE email = ${sqlString(email)};\n` +
      `DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = ${sqlString(email)});`,
    target,
  );
  console.log(`Password of ${email} reset; their sessions were closed.`);
}
