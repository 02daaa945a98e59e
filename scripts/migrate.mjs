// `npm run db:migrate:local` / `npm run db:migrate:remote`: applies the migrations of the directory
// (drizzle-directory/) and of every shard wrangler.toml declares (drizzle/), then starts each shard's ids in its own
// range (decision 142). Safe to run again: wrangler applies only what a database lacks, the ranges only ever rise.
import { applyMigrations, d1Target, parseOptions } from "./lib.mjs";
import { d1Bindings } from "./shards.mjs";

const { values } = parseOptions(process.argv.slice(2), { remote: "boolean", "persist-to": "string" });
const target = d1Target({ remote: values.remote === true, persistTo: values["persist-to"] });
await applyMigrations(target);
console.log(
  `Migrated ${d1Bindings()
    .map((b) => b.binding)
    .join(", ")}${values.remote ? " (remote)" : ""}.`,
);
