// `npm start`: build, apply local migrations, seed a demo login on an empty database, then serve both
// Workers (the app and the statistics consumer) in one offline wrangler session.
import { build, d1Target, ensureDevVars, parseArgs, prepareLocalDatabase, spawnWrangler } from "./lib.mjs";

const args = parseArgs(process.argv.slice(2));
const port = process.env.PORT ?? "8787";
const persistTo = typeof args["persist-to"] === "string" ? args["persist-to"] : undefined;

ensureDevVars();
if (!args["no-build"]) {
  console.log("Building…");
  build();
}
prepareLocalDatabase(d1Target({ persistTo }));

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
