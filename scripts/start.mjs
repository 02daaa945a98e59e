// `npm start`: build, apply local migrations, seed a demo login on an empty database, then serve both
// Workers (the app and the statistics consumer) in one offline wrangler session. The address is printed
// only once this session's wrangler says it listens and the app answers, so "Muselingo at …" always means it
// is ready; a port another server holds is refused up front, before the build.
import {
  LocalEngineError,
  PortError,
  build,
  d1Target,
  engineVarArgs,
  needsLocalSpeechService,
  ensureDevVars,
  nextFreePort,
  parseOptions,
  parsePort,
  portBusy,
  prepareLocalDatabase,
  spawnWrangler,
} from "./lib.mjs";
import { startSpeechServer } from "./speech-server.mjs";

const { values: args } = parseOptions(process.argv.slice(2), { "no-build": "boolean", "persist-to": "string" });
const HOST = "127.0.0.1";
let port;
try {
  port = parsePort(process.env.PORT || "8787");
} catch (error) {
  if (!(error instanceof PortError)) throw error;
  console.error(`Error: ${error.message} Example: PORT=8788 npm start`);
  process.exit(1);
}
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
const speechEngines = process.env.SPEECH_ENGINES?.trim() || "offline";
// The offline speech engine reads with eSpeak NG in a local service (decision 102), started below in this
// process unless OFFLINE_SPEECH_URL names one already running (`node scripts/speech-server.mjs`).
const startsSpeechService = needsLocalSpeechService(process.env);
try {
  // Explicitly pseudo unless the environment chooses: wrangler.toml's default (Workers AI) is remote-only.
  engineVars = engineVarArgs({
    ...process.env,
    TRANSLATION_ENGINES: process.env.TRANSLATION_ENGINES?.trim() || "pseudo",
    // Narration: the offline speech engine unless the environment chooses (decision 090).
    SPEECH_ENGINES: speechEngines,
  });
} catch (error) {
  if (!(error instanceof LocalEngineError)) throw error;
  console.error(`Error: ${error.message}`);
  process.exit(1);
}

/**
 * Ends the script when another server holds the port. Without this, the readiness check below could be
 * answered by that server: "Muselingo at …" printed, then wrangler failing to bind and the script dying.
 */
async function refuseBusyPort() {
  const busy = await portBusy(port, HOST);
  if (busy === null) return;
  const free = await nextFreePort(port, HOST);
  console.error(
    (busy === "EADDRINUSE"
      ? `Error: port ${port} is already in use on ${HOST} (another npm start, wrangler dev or server is listening there).`
      : `Error: cannot listen on ${HOST}:${port} (${busy}).`) + `\nStop that server, or choose another port: PORT=${free ?? "…"} npm start`,
  );
  process.exit(1);
}

await refuseBusyPort();
ensureDevVars();
if (!args["no-build"]) {
  console.log("Building…");
  build();
}
await prepareLocalDatabase(d1Target({ persistTo }));
// Again: the build and the migrations take long enough for another server to have started meanwhile.
await refuseBusyPort();

if (startsSpeechService) {
  try {
    const speech = await startSpeechServer({ host: HOST });
    engineVars.push("--var", `OFFLINE_SPEECH_URL:${speech.url}`);
    console.log(`Narration: the offline engine reads with eSpeak NG at ${speech.url} (ready in ${speech.espeak.startupMs} ms).`);
  } catch (error) {
    // The app still starts: narrations fail with a clear engine error and visitors keep the browser's read-aloud.
    console.error(
      `Warning: the local eSpeak speech service did not start (${error instanceof Error ? error.message : error}); no narration will be generated.`,
    );
  }
}

// wrangler prints "Ready on http://127.0.0.1:PORT" once it has bound the port; until then an answer on the
// port would come from someone else.
let listening = false;
function noticeListening(line) {
  // eslint-disable-next-line no-control-regex -- strips the colour codes wrangler may add.
  const match = /Ready on https?:\/\/[^\s:]+:(\d+)/.exec(line.replace(/\x1b\[[0-9;]*m/g, ""));
  if (match && Number(match[1]) === port) listening = true;
}

const child = spawnWrangler(
  [
    "dev",
    "--local",
    "-c",
    "wrangler.toml",
    "-c",
    "workers/stats-consumer/wrangler.toml",
    "--port",
    String(port),
    "--ip",
    HOST,
    "--show-interactive-dev-session=false",
    // The app's daily cron never fires by itself locally; this flag says we know (wrangler warns otherwise)
    // and lets you fire it: curl "http://127.0.0.1:PORT/__scheduled" (the daily run) or
    // "http://127.0.0.1:PORT/__scheduled?cron=*+*+*+*+*" (the per-minute one). Not /cdn-cgi/handler/scheduled:
    // under wrangler 4.86 it reaches the static-assets router, not the app, and answers 500 (decision 121).
    "--test-scheduled",
    ...(persistTo ? ["--persist-to", persistTo] : []),
    ...engineVars,
    // `npm run bench` only: lets a request to this machine ask for D1 to be slowed (decision 039).
    ...(process.env.DEV_D1_DELAY === "allow" ? ["--var", "DEV_D1_DELAY:allow"] : []),
  ],
  { drop: IRRELEVANT, onLine: noticeListening },
);
// A closed terminal (SIGHUP) stops wrangler too: as SIGTERM, since wrangler's launcher has no SIGHUP handler
// and would die leaving its workerd holding the port.
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    stopping = true;
    child.kill(signal === "SIGHUP" ? "SIGTERM" : signal);
  });
}
let waiting = true;
child.on("exit", (code) => {
  if (waiting) console.error("wrangler dev stopped before the app answered; its messages are above.");
  else if (!stopping) console.error(`wrangler dev stopped unexpectedly (exit ${code ?? "by signal"}); its messages are above.`);
  process.exit(code ?? 1);
});

async function waitUntilReady(url) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!listening) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
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

if (await waitUntilReady(`http://${HOST}:${port}/session`)) {
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
