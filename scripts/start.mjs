// `npm start`: build, apply local migrations, seed a demo login on an empty database, then serve both
// Workers (the app and the statistics consumer) in one offline wrangler session. The address is printed
// only once the app answers, so "Muselingo at …" always means it is ready.
import {
  LocalEngineError,
  build,
  d1Target,
  engineVarArgs,
  ensureDevVars,
  parseOptions,
  prepareLocalDatabase,
  spawnWrangler,
} from "./lib.mjs";

const { values: args } = parseOptions(process.argv.slice(2), { "no-build": "boolean", "persist-to": "string" });
const port = process.env.PORT ?? "8787";
const persistTo = args["persist-to"];
const READY_TIMEOUT_MS = 60_000;
// Notices from `wrangler dev` that do not apply to this project:
// - "Your types might be out of date": wrangler checks the consumer Worker against ./worker-configuration.d.ts,
//   which holds the app's types; `npm run typecheck` regenerates both files (the consumer's is beside it).
// - the telemetry notice: WRANGLER_SEND_METRICS=false already stops sending; wrangler prints it anyway,
//   once per version and machine.
const IRRELEVANT = /Your types might be out of date|collects anonymous telemetry/;

// TRANSLATION_ENGINES=libretranslate LIBRETRANSLATE_URL=http://localhost:5000 npm start (docs/translation-engines.md).
let engineVars;
try {
  engineVars = engineVarArgs();
} catch (error) {
  if (!(error instanceof LocalEngineError)) throw error;
  console.error(`Error: ${error.message}`);
  process.exit(1);
}

ensureDevVars();
if (!args["no-build"]) {
  console.log("Building…");
  build();
}
await prepareLocalDatabase(d1Target({ persistTo }));

const child = spawnWrangler([
  "dev",
  "--local",
  "-c", "wrangler.toml",
  "-c", "workers/stats-consumer/wrangler.toml",
  "--port", port,
  "--ip", "127.0.0.1",
  "--show-interactive-dev-session=false",
  // The app's daily cron never fires by itself locally; this flag says we know (wrangler warns otherwise)
  // and lets you fire it: curl "http://127.0.0.1:PORT/cdn-cgi/handler/scheduled".
  "--test-scheduled",
  ...(persistTo ? ["--persist-to", persistTo] : []),
  ...engineVars,
], { drop: IRRELEVANT });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
let waiting = true;
child.on("exit", (code) => {
  if (waiting) console.error("wrangler dev stopped before the app answered; its messages are above.");
  process.exit(code ?? 1);
});

async function waitUntilReady(url) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status === 200) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

if (await waitUntilReady(`http://127.0.0.1:${port}/session`)) {
  waiting = false;
  console.log(`Muselingo at http://localhost:${port}`);
} else {
  console.error(
    `The app did not answer GET /session with 200 within ${READY_TIMEOUT_MS / 1000} s on port ${port}.\n` +
      "Check wrangler's messages above; if the port is taken, choose another with PORT=… npm start.",
  );
  waiting = false;
  child.kill("SIGTERM");
  process.exitCode = 1;
}
