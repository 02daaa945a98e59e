// `npm run user:create -- --museum <slug> --email <email> --password <password> [--museum-name <name>] [--remote]`
// `npm run user:reset-password -- --email <email> --password <password> [--remote]`
// Works beside a running `npm start`: both use the same local D1 file under .wrangler/state.
// With --remote it never migrates production: it checks the schema and points at db:migrate:remote.
// What it decides (arguments, refusals, SQL) is scripts/user-command.mjs; this file talks to D1.
import { d1ExecFile, d1QueryAll, d1Target, ensureSchema, SchemaError } from "./lib.mjs";
import { parseUserCommand, UsageError, userCommandSteps, userLookupSql } from "./user-command.mjs";

function fail(message) {
  console.error(`Error: ${message}`);
  process.exit(1);
}

/** Runs `step`, ending the script with its message when it refuses. */
function orFail(step, ...refusals) {
  try {
    return step();
  } catch (error) {
    if (refusals.some((kind) => error instanceof kind)) fail(error.message);
    throw error;
  }
}

const plan = orFail(() => parseUserCommand(process.argv.slice(2)), UsageError);
const target = d1Target({ remote: plan.remote, persistTo: plan.persistTo });
orFail(() => ensureSchema(target), SchemaError);
// The user and (create) the museum in one wrangler run.
const rows = d1QueryAll(userLookupSql(plan), target);
const { sql, message } = orFail(() => userCommandSteps(plan, rows), UsageError);
d1ExecFile(sql, target);
console.log(message);
