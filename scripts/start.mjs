// `npm start`: build, apply local migrations, seed a demo login on an empty database, then serve both
// Workers (the app and the statistics consumer) in one offline wrangler session.
import { applyMigrations, build, d1ExecFile, d1Query, d1Target, DEMO, ensureDevVars, parseArgs, spawnWrangler, upsertUserSql } from "./lib.mjs";

const args = parseArgs(process.argv.slice(2));
const port = process.env.PORT ?? "8787";
const persistTo = typeof args["persist-to"] === "string" ? args["persist-to"] : undefined;
const target = d1Target({ persistTo });

ensureDevVars();
if (!args["no-build"]) {
  console.log("Building…");
  build();
}
applyMigrations(target);

const [{ n } = { n: 0 }] = d1Query("SELECT COUNT(*) AS n FROM museums", target);
if (Number(n) === 0) {
  d1ExecFile(upsertUserSql(DEMO), target);
  console.log(`\nSeeded the demo museum "${DEMO.museumName}".\n  Login:    ${DEMO.email}\n  Password: ${DEMO.password}\n`);
}

const child = spawnWrangler([
  "dev",
  "--local",
  "-c", "wrangler.toml",
  "-c", "workers/stats-consumer/wrangler.toml",
  "--port", port,
  "--ip", "127.0.0.1",
  "--show-interactive-dev-session=false",
  ...(persistTo ? ["--persist-to", persistTo] : []),
]);
console.log(`Muselingo at http://localhost:${port}`);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
