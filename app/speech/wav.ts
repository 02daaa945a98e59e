/**
 * 16-bit PCM mono WAV (RIFF) files: written by the offline engine, read back (duration, samples) when
 * pieces are joined. Format: http://soundfile.sapp.org/doc/WaveFormat/ (44-byte canonical header).
 */
export interface Wav {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Offset and length of the `data` chunk. */
  dataOffset: number;
  dataBytes: number;
  durationMs: number;
}

export function encodeWav(samples: Int16Array, sampleRate: number): Uint8Array {
  const dataBytes = samples.length * 2;
  const out = new Uint8Array(44 + dataBytes);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i++) view.setInt16(44 + i * 2, samples[i]!, true);
  return out;
}

const tag = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/** The header of a PCM WAV file, walking its chunks; null when it is not one. */
export function parseWav(bytes: Uint8Array): Wav | null {
  if (bytes.length < 12 || tag(bytes, 0) !== "RIFF" || tag(bytes, 8) !== "WAVE") return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 12;
  let fmt: { channels: number; sampleRate: number; bitsPerSample: number } | null = null;
  while (at + 8 <= bytes.length) {
    const id = tag(bytes, at);
    const size = view.getUint32(at + 4, true);
    if (id === "fmt " && at + 24 <= bytes.length) {
      if (view.getUint16(at + 8, true) !== 1) return null;
      fmt = { channels: view.getUint16(at + 10, true), sampleRate: view.getUint32(at + 12, true), bitsPerSample: view.getUint16(at + 22, true) };
    }
    if (id === "data") {
      if (!fmt || fmt.sampleRate === 0 || fmt.channels === 0 || fmt.bitsPerSample === 0) return null;
      const dataBytes = Math.min(size, bytes.length - (at + 8));
      const frame = fmt.channels * (fmt.bitsPerSample / 8);
      return { ...fmt, dataOffset: at + 8, dataBytes, durationMs: Math.round((dataBytes / frame / fmt.sampleRate) * 1000) };
    }
    at += 8 + size + (size % 2);
  }
  return null;
}

/** Joins WAV files of the same format into one (pieces synthesised separately). */
export function joinWav(files: Uint8Array[]): Uint8Array {
  const parsed = files.map((f) => {
    const wav = parseWav(f);
    if (!wav) throw new Error("not a PCM WAV file");
    return { f, wav };
  });
  if (parsed.length === 0) throw new Error("nothing to join");
  const first = parsed[0]!.wav;
  if (first.channels !== 1 || first.bitsPerSample !== 16) throw new Error("only 16-bit mono WAV is joined");
  for (const { wav } of parsed)
    if (wav.sampleRate !== first.sampleRate || wav.channels !== 1 || wav.bitsPerSample !== 16) throw new Error("WAV pieces differ in format");
  const total = parsed.reduce((n, p) => n + p.wav.dataBytes, 0);
  const samples = new Int16Array(total / 2);
  let offset = 0;
  for (const { f, wav } of parsed) {
    const view = new DataView(f.buffer, f.byteOffset + wav.dataOffset, wav.dataBytes);
    for (let i = 0; i + 1 < wav.dataBytes; i += 2) samples[offset++] = view.getInt16(i, true);
  }
  return encodeWav(samples, first.sampleRate);
}
