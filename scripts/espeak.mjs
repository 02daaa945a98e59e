// eSpeak NG in WebAssembly (npm `espeak-ng` 1.0.2, GPL-3.0-or-later, a devDependency) for the local speech
// service (scripts/speech-server.mjs, decision 102). Never part of the Worker: the app reaches it over HTTP.
//
// The package is eSpeak NG's command-line program compiled by Emscripten (MODULARIZE, voice data embedded in
// the 18.5 MB .wasm, a fixed 32 MB heap). Its glue offers no library API: each `ESpeakNG({arguments})` makes a
// new instance and runs `main` once, which costs 0.3-1 s (the embedded voice files are copied into the
// in-memory file system). So one instance is kept warm: after its start-up, a copy of its linear memory is
// taken; each call puts that copy back (main's globals, getopt's position, the heap: all as after start-up),
// writes the text to a file, and calls the module's exported `main` with eSpeak's own options. Calls are
// synchronous (main runs to its end), hence serialised: Node runs one at a time.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const DIST = path.dirname(require.resolve("espeak-ng"));

/** eSpeak's default speed, words per minute (`-s`). */
export const DEFAULT_WPM = 175;

/** One warm eSpeak NG. `voices` lists the voice ids it knows (`--voices`). */
export async function createEspeak() {
  const started = performance.now();
  const { default: ESpeakNG } = await import(path.join(DIST, "espeak-ng.js"));
  const wasmFile = await readFile(path.join(DIST, "espeak-ng.wasm"));
  const wasm = await WebAssembly.compile(wasmFile);
  let exports;
  const output = [];
  const module = await ESpeakNG({
    noInitialRun: true,
    // The glue would otherwise fetch and compile the .wasm itself.
    locateFile: (file) => path.join(DIST, file),
    instantiateWasm(imports, done) {
      const instance = new WebAssembly.Instance(wasm, imports);
      exports = instance.exports;
      done(instance, wasm);
      return instance.exports;
    },
    print: (line) => output.push(line),
    printErr: (line) => output.push(line),
  });
  const memory = exports.memory;
  const pristine = new Uint8Array(memory.buffer).slice();
  const FS = module.FS;
  const openAtStart = new Set(FS.streams.filter(Boolean).map((s) => s.fd));

  /** Runs eSpeak's main with `args`; its exit status and what it printed. */
  function run(args) {
    if (memory.buffer.byteLength !== pristine.length) throw new Error("eSpeak's memory changed size; restart the speech service");
    new Uint8Array(memory.buffer).set(pristine);
    output.length = 0;
    const encoder = new TextEncoder();
    const stack = exports.stackSave();
    let status;
    try {
      const argv = ["espeak-ng", ...args];
      const pointers = argv.map((arg) => {
        const bytes = encoder.encode(`${arg}\0`);
        const at = exports.stackAlloc(bytes.length);
        new Uint8Array(memory.buffer, at, bytes.length).set(bytes);
        return at;
      });
      const table = exports.stackAlloc((pointers.length + 1) * 4);
      const view = new Uint32Array(memory.buffer, table, pointers.length + 1);
      view.set([...pointers, 0]);
      try {
        status = exports.__main_argc_argv(argv.length, table);
      } catch (error) {
        // exit(n) inside eSpeak ends main by throwing Emscripten's ExitStatus.
        if (error && typeof error === "object" && "status" in error) status = error.status;
        else throw error;
      }
    } finally {
      exports.stackRestore(stack);
      // Files main left open (its C state is reset with the memory, the JS file table is not).
      for (const stream of FS.streams) if (stream && !openAtStart.has(stream.fd)) FS.close(stream);
    }
    return { status, output: output.join("\n") };
  }

  const listed = run(["--voices"]).output.split("\n").slice(1);
  // Columns: priority, language, age/gender, name, file (e.g. "roa/fr"), other languages. `-v` takes a
  // language or a file name.
  const voices = new Set(
    listed.flatMap((line) => {
      const [, language, , , file] = line.trim().split(/\s+/);
      return [language, file, file?.split("/").pop()].filter(Boolean);
    }),
  );

  let calls = 0;
  return {
    voices,
    startupMs: Math.round(performance.now() - started),
    wasmBytes: wasmFile.byteLength,
    /**
     * `text` read by `voice` as a 16-bit mono 22,050 Hz WAV. Throws when eSpeak fails or the voice is unknown.
     * `wpm` = words per minute (80-450).
     */
    speak(text, voice, { wpm = DEFAULT_WPM } = {}) {
      if (!voices.has(voice)) throw new Error(`eSpeak has no voice ${voice}`);
      const n = ++calls;
      const input = `/in-${n}.txt`;
      const out = `/out-${n}.wav`;
      FS.writeFile(input, text);
      try {
        // -b 1: the input is UTF-8. -f: read it from the file (no option parsing of the text itself).
        const { status, output: printed } = run(["-b", "1", "-v", voice, "-s", String(Math.round(wpm)), "-w", out, "-f", input]);
        if (status !== 0) throw new Error(`eSpeak exited with ${status}${printed ? `: ${printed.slice(0, 200)}` : ""}`);
        return FS.readFile(out);
      } finally {
        for (const file of [input, out]) {
          try {
            FS.unlink(file);
          } catch {
            // Not written.
          }
        }
      }
    },
  };
}
