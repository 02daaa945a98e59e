// The local speech service (decision 102): eSpeak NG (scripts/espeak.mjs) behind the OpenAI speech protocol,
// for the `offline` speech engine of local runs and tests. `npm start`, the end-to-end server and the narration
// integration tests start it; it is never deployed.
//
//   POST /v1/audio/speech {model, input, voice, response_format: "wav", speed?} → audio/wav
//   GET  /health → {ok, voices, startupMs}
//
// Request and errors follow OpenAI's createSpeech (API reference, "Create speech": input ≤ 4,096 characters,
// response_format mp3|opus|aac|flac|wav|pcm with mp3 the default, speed 0.25-4.0; errors as
// {error: {message, type: "invalid_request_error", param, code}}). `voice` is an eSpeak voice ("de", "fr-fr",
// "cmn"), not one of OpenAI's; only "wav" is produced (no encoder here), the others answer 400.
//
// Alone: `node scripts/speech-server.mjs [--port 8792]` prints the address once it listens.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { createEspeak, DEFAULT_WPM } from "./espeak.mjs";

export const MAX_INPUT = 4096;
const MAX_BODY = 64 * 1024;
const FORMATS = ["mp3", "opus", "aac", "flac", "wav", "pcm"];

class RequestError extends Error {
  constructor(status, message, param = null) {
    super(message);
    this.status = status;
    this.param = param;
  }
}

function parseSpeechRequest(body, voices) {
  let json;
  try {
    json = JSON.parse(body);
  } catch {
    throw new RequestError(400, "We could not parse the JSON body of your request.");
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) throw new RequestError(400, "The body must be a JSON object.");
  const { model, input, voice, response_format: format = "mp3", speed = 1 } = json;
  if (typeof model !== "string" || model.trim() === "") throw new RequestError(400, "you must provide a model parameter", "model");
  if (typeof input !== "string" || input.trim() === "") throw new RequestError(400, "input must be a non-empty string", "input");
  if (input.length > MAX_INPUT) throw new RequestError(400, `input is longer than ${MAX_INPUT} characters`, "input");
  if (typeof voice !== "string" || !voices.has(voice)) throw new RequestError(400, "voice must be one of eSpeak NG's voices (GET /health lists them)", "voice");
  if (!FORMATS.includes(format)) throw new RequestError(400, `response_format must be one of ${FORMATS.join(", ")}`, "response_format");
  if (format !== "wav") throw new RequestError(400, "this local eSpeak service only answers response_format \"wav\"", "response_format");
  if (typeof speed !== "number" || !(speed >= 0.25 && speed <= 4)) throw new RequestError(400, "speed must be a number from 0.25 to 4.0", "speed");
  // eSpeak reads 80-450 words per minute.
  return { input, voice, wpm: Math.min(450, Math.max(80, DEFAULT_WPM * speed)) };
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    request.on("data", (chunk) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the client gets its 413; past 16 times it, cut off.
      if (size <= MAX_BODY) chunks.push(chunk);
      else if (size > 16 * MAX_BODY) request.destroy();
    });
    request.on("end", () =>
      size > MAX_BODY ? reject(new RequestError(413, `The body is larger than ${MAX_BODY} bytes.`)) : resolve(Buffer.concat(chunks).toString("utf8")),
    );
    request.on("error", reject);
  });
}

function sendError(response, status, message, param = null) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ error: { message, type: status >= 500 ? "server_error" : "invalid_request_error", param, code: null } }));
}

/**
 * Starts eSpeak (about 0.3-0.5 s) and the HTTP service on `host:port` (0 = any free port).
 * Resolves to `{url, port, espeak, close()}` once it listens.
 */
export async function startSpeechServer({ port = 0, host = "127.0.0.1", log = () => {} } = {}) {
  const espeak = await createEspeak();
  const server = createServer(async (request, response) => {
    try {
      const { pathname } = new URL(request.url ?? "/", "http://localhost");
      if (pathname === "/health" && request.method === "GET") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ ok: true, voices: [...espeak.voices].sort(), startupMs: espeak.startupMs }));
        return;
      }
      if (pathname !== "/v1/audio/speech") return sendError(response, 404, `Unknown request URL: ${request.method} ${pathname}.`);
      if (request.method !== "POST") return sendError(response, 405, "Use POST.");
      const { input, voice, wpm } = parseSpeechRequest(await readBody(request), espeak.voices);
      const started = performance.now();
      const wav = espeak.speak(input, voice, { wpm });
      log(`eSpeak ${voice}: ${input.length} characters → ${wav.length} bytes in ${Math.round(performance.now() - started)} ms`);
      response.writeHead(200, { "content-type": "audio/wav", "content-length": String(wav.length) });
      response.end(wav);
    } catch (error) {
      if (error instanceof RequestError) sendError(response, error.status, error.message, error.param);
      else sendError(response, 500, `eSpeak failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const bound = server.address().port;
  return {
    url: `http://${host}:${bound}`,
    port: bound,
    espeak,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf("--port");
  const port = at > 0 ? Number(process.argv[at + 1]) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error("Error: --port must be a port number (0 = any free port).");
    process.exit(1);
  }
  const service = await startSpeechServer({ port, log: (line) => console.log(line) });
  console.log(`eSpeak NG speech service at ${service.url} (${service.espeak.voices.size} voice names, started in ${service.espeak.startupMs} ms)`);
}
