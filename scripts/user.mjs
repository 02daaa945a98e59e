// `npm run user:create -- --museum <slug> --email <email> --password <password> [--museum-name <name>] [--shard <k> | --eu] [--remote]`
// `npm run user:reset-password -- --email <email> --password <password> [--remote]`
// Works beside a running `npm start`: both use the same local D1 files under .wrangler/state.
// With --remote it never migrates production: it checks the schema and points at db:migrate:remote.
// What it decides (arguments, refusals, SQL) is scripts/user-command.mjs; this file talks to D1: the directory,
// then the museum's shard (decision 142). A new museum goes to --shard, else to the shard with the most room.
import { bindingOfShard, d1ExecFile, d1QueryAll, d1Target, ensureSchema, roomiestShard, SchemaError, shardSizes } from "./lib.mjs";
import { shardBindings } from "./shards.mjs";
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
try {
  await ensureSchema(target);
} catch (error) {
  if (error instanceof SchemaError) fail(error.message);
  throw error;
}
const rows = d1QueryAll(userLookupSql(plan), target, "DIRECTORY");
const placing = plan.command === "create" && plan.shard === undefined && (rows[1] ?? []).length === 0;
const euShards = shardBindings()
  .filter((b) => b.jurisdiction === "eu")
  .map((b) => b.shard);
const candidates = (sizes) => (plan.eu ? sizes.filter((s) => euShards.includes(s.shard)) : sizes);
const steps = orFail(
  () =>
    userCommandSteps(plan, rows, {
      roomiest: placing ? roomiestShard(candidates(shardSizes(target))) : 0,
      shards: shardBindings().map((b) => b.shard),
      euShards,
    }),
  UsageError,
);
const museum = steps.directorySql === null ? null : d1QueryAll(steps.directorySql, target, "DIRECTORY").at(-1)?.[0];
d1ExecFile(steps.shardSql(museum), target, bindingOfShard(steps.shard));
console.log(steps.message);
