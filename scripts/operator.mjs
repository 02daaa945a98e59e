// `npm run operator:create -- --email <email> [--remote] [--persist-to dir] [--base-url https://…]` (decision 146).
// Creates an operator (or re-issues one's setup link) in the directory and prints the one-time link that sets the
// password and enrols the authenticator. Works beside a running `npm start` (the same local files).
import { d1ExecFile, d1Target, ensureSchema, SchemaError } from "./lib.mjs";
import { operatorCreateSteps, parseOperatorCommand, UsageError } from "./operator-command.mjs";

function fail(message) {
  console.error(`Error: ${message}`);
  process.exit(1);
}

let plan;
try {
  plan = parseOperatorCommand(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) fail(error.message);
  throw error;
}
const target = d1Target({ remote: plan.remote, persistTo: plan.persistTo });
try {
  await ensureSchema(target);
} catch (error) {
  if (error instanceof SchemaError) fail(error.message);
  throw error;
}
const steps = operatorCreateSteps(plan);
d1ExecFile(steps.sql, target, "DIRECTORY");
const base = plan.baseUrl ?? (plan.remote ? process.env.PUBLIC_BASE_URL : `http://localhost:${process.env.PORT ?? 8787}`);
console.log(`Operator ${plan.email}: follow this link within 7 days to choose a password and add the account to an authenticator app.`);
console.log(`It works once; running this command again makes a new one (and a new authenticator key).`);
console.log(base ? `  ${base}${steps.path}` : `  <your deployment's address>${steps.path}   (pass --base-url to print it whole)`);
