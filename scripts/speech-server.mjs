// The local speech service (decision 102): eSpeak NG (scripts/espeak.mjs) behind the OpenAI speech protocol,
// for the `offline` speech engine of local runs and tests. `npm start`, the end-to-end server and the narration
// integration tests start it; it is never deployed.
//
//   POST /v1/audio/speech {model, input, voice, response_format?: "mp3" | "wav", speed?} → audio/mpeg | audio/wav
//   GET  /health → {ok, voices, startupMs}
//
// Request and errors follow OpenAI's createSpeech (API reference, "Create speech": input ≤ 4,096 characters,
// response_format mp3|opus|aac|flac|wav|pcm with mp3 the default, speed 0.25-4.0; errors as
// {error: {message, type: "invalid_request_error", param, code}}). `voice` is an eSpeak voice ("de", "fr-fr",
// "cmn"), not one of OpenAI's. As OpenAI does, the answer is MP3 unless asked otherwise (decision 120):
// eSpeak's 22,050 Hz mono samples encoded by LAME (npm @breezystack/lamejs, LGPL-3.0, a devDependency run
// here in Node, never bundled) at 32 kbit/s; "wav" gives eSpeak's own file; opus, aac, flac and pcm answer 400.
//
// Alone: `node scripts/speech-server.mjs [--port 8792]` prints the address once it listens.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { Mp3Encoder } from "@breezystack/lamejs";
import { createEspeak, DEFAULT_WPM } from "./espeak.mjs";

export const MAX_INPUT = 4096;
const MAX_BODY = 64 * 1024;
const FORMATS = ["mp3", "opus", "aac", "flac", "wav", "pcm"];
/** The formats this service produces; the others of OpenAI's list answer 400. */
const PRODUCED = new Set(["mp3", "wav"]);
/** MP3 bit rate for speech: 0.24 MB a minute (Google's documented MP3 rate too). */
export const MP3_KBPS = 32;
const CONTENT_TYPES = { mp3: "audio/mpeg", wav: "audio/wav" };

/** The samples and rate of eSpeak's 16-bit mono PCM WAV (RIFF chunks walked; eSpeak writes 44 bytes of header). */
function wavSamples(wav) {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const tag = (at) => String.fromCharCode(...wav.subarray(at, at + 4));
  if (tag(0) !== "RIFF" || tag(8) !== "WAVE") throw new Error("eSpeak wrote no WAV file");
  let rate = 0;
  for (let at = 12; at + 8 <= wav.length;) {
    const size = view.getUint32(at + 4, true);
    if (tag(at) === "fmt ") {
      if (view.getUint16(at + 8, true) !== 1 || view.getUint16(at + 10, true) !== 1 || view.getUint16(at + 22, true) !== 16)
        throw new Error("eSpeak's WAV is not 16-bit mono PCM");
      rate = view.getUint32(at + 12, true);
    } else if (tag(at) === "data") {
      const bytes = Math.min(size, wav.length - at - 8) & ~1;
      const samples = new Int16Array(bytes / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(at + 8 + i * 2, true);
      return { samples, rate };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error("eSpeak's WAV has no data");
}

/** eSpeak's WAV as a constant bit rate MP3 (MPEG-2 layer III at 22,050 Hz), no ID3 tag, no Xing frame. */
export function wavToMp3(wav, kbps = MP3_KBPS) {
  const { samples, rate } = wavSamples(wav);
  const encoder = new Mp3Encoder(1, rate, kbps);
  const parts = [];
  // LAME reads 1,152 samples a frame; larger blocks only save calls.
  for (let at = 0; at < samples.length; at += 1152 * 32) parts.push(encoder.encodeBuffer(samples.subarray(at, at + 1152 * 32)));
  parts.push(encoder.flush());
  return Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
}

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
  if (!PRODUCED.has(format))
    throw new RequestError(400, `this local eSpeak service answers response_format "mp3" (the default) or "wav", not "${format}"`, "response_format");
  if (typeof speed !== "number" || !(speed >= 0.25 && speed <= 4)) throw new RequestError(400, "speed must be a number from 0.25 to 4.0", "speed");
  // eSpeak reads 80-450 words per minute.
  return { input, voice, format, wpm: Math.min(450, Math.max(80, DEFAULT_WPM * speed)) };
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
      const { input, voice, format, wpm } = parseSpeechRequest(await readBody(request), espeak.voices);
      const started = performance.now();
      const wav = espeak.speak(input, voice, { wpm });
      const audio = format === "mp3" ? wavToMp3(wav) : wav;
      log(`eSpeak ${voice}: ${input.length} characters → ${audio.length} bytes of ${format} in ${Math.round(performance.now() - started)} ms`);
      response.writeHead(200, { "content-type": CONTENT_TYPES[format], "content-length": String(audio.length) });
      response.end(audio);
    } catch (error) {
      if (error instanceof RequestError) sendError(response, error.status, error.message, error.param);
      else sendError(response, 500, `eSpeak failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  // One request at a time blocks the loop (eSpeak and LAME are synchronous): 50 queued requests keep it busy for
  // many seconds, during which Node's 5 s keep-alive timer would close sockets the client is about to reuse
  // ("other side closed" mid-answer). Idle connections are kept for a minute instead.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
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
