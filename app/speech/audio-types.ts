import { concatBytes } from "~/lib/bytes";
/**
 * What a narration file is, from its first bytes (never its name or declared type). Accepted recordings
 * (decision 119): what browsers record (WebM/Opus; Safari's MP4/AAC), what recorders and editors write (WAV,
 * FLAC, MP3), phones (M4A/AAC) and Ogg (Opus or Vorbis). How long each lasts: app/speech/audio-meter.ts.
 * References: ISO/IEC 11172-3 and 13818-3 frame headers (http://www.mp3-tech.org/programmer/frame_header.html),
 * ID3v2.4 §3.1 (syncsafe size), ISO/IEC 13818-7 ADTS, RFC 3533 (Ogg), RFC 7845 §5.1 (OpusHead), RFC 9639
 * (FLAC), RFC 8794 and 9559 (EBML, Matroska; WebM's DocType "webm").
 */
import { measureAudio, wavPlayable, type AudioFormat } from "./audio-meter";
import { parseWav } from "./wav";

export interface AudioType {
  contentType: string;
  /** The file's extension, which is also the format the meter walks. */
  ext: AudioFormat;
}

/** Enough for an ID3 header or two whole MP3 frames (the largest layer III frame is 1,441 bytes). */
export const AUDIO_SNIFF_BYTES = 4096;

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

/** Size of a leading ID3v2 tag (header + body + optional footer), 0 without one. */
export function id3Size(b: Uint8Array): number {
  if (b.length < 10 || ascii(b, 0, 3) !== "ID3") return 0;
  // Major version 2, 3 or 4; the revision is never 0xFF (ID3v2.4 §3.1).
  if (b[3]! < 2 || b[3]! > 4 || b[4] === 0xff) return 0;
  if ((b[6]! | b[7]! | b[8]! | b[9]!) & 0x80) return 0;
  const size = (b[6]! << 21) | (b[7]! << 14) | (b[8]! << 7) | b[9]!;
  return 10 + size + (b[5]! & 0x10 ? 10 : 0);
}

const BITRATES: Record<string, number[]> = {
  // MPEG-1 layer III; MPEG-2/2.5 layer III (kbit/s, index 1..14)
  "1": [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  "2": [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

interface Mp3Frame {
  bytes: number;
  samples: number;
  sampleRate: number;
}

/** The MPEG audio layer III frame header at `at`, or null. */
export function mp3Frame(b: Uint8Array, at: number): Mp3Frame | null {
  if (at + 4 > b.length || b[at] !== 0xff || (b[at + 1]! & 0xe0) !== 0xe0) return null;
  const version = (b[at + 1]! >> 3) & 3; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5, 1 reserved
  const layer = (b[at + 1]! >> 1) & 3; // 1 = layer III
  if (version === 1 || layer !== 1) return null;
  const bitrateIndex = b[at + 2]! >> 4;
  const rateIndex = (b[at + 2]! >> 2) & 3;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const padding = (b[at + 2]! >> 1) & 1;
  const kbps = BITRATES[version === 3 ? "1" : "2"]![bitrateIndex]!;
  const sampleRate = RATES[version]![rateIndex]!;
  const samples = version === 3 ? 1152 : 576;
  const bytes = Math.floor(((samples / 8) * (kbps * 1000)) / sampleRate) + padding;
  return bytes > 4 ? { bytes, samples, sampleRate } : null;
}

/**
 * Whether the bytes are MP3: a valid ID3v2 header whose tag runs past what was read (cover art often
 * does), or, after any tag, a whole frame followed by another frame or by the end of the file.
 */
function looksMp3(b: Uint8Array): boolean {
  const start = id3Size(b);
  if (start > 0 && start + 4 > b.length) return true;
  const frame = mp3Frame(b, start);
  if (!frame || start + frame.bytes > b.length) return false;
  const next = start + frame.bytes;
  return next === b.length || next + 4 > b.length || mp3Frame(b, next) !== null;
}

/** Duration of an MP3 stream by walking its frames; null when the bytes are not MP3. */
export function mp3DurationMs(b: Uint8Array): number | null {
  let at = id3Size(b);
  let samples = 0;
  let rate = 0;
  let frames = 0;
  while (at < b.length) {
    const frame = mp3Frame(b, at);
    if (!frame) break;
    samples += frame.samples;
    rate = frame.sampleRate;
    frames++;
    at += frame.bytes;
  }
  return frames === 0 ? null : Math.round((samples / rate) * 1000);
}

/** The DocType of an EBML header at the start of `b` ("webm", "matroska"), or null. */
function ebmlDocType(b: Uint8Array): string | null {
  if (b.length < 8 || b[0] !== 0x1a || b[1] !== 0x45 || b[2] !== 0xdf || b[3] !== 0xa3) return null;
  // DocType is element 0x4282 inside the header; its size is a one-byte vint for any real file.
  for (let at = 4; at + 3 < Math.min(b.length, 64); at++) {
    if (b[at] === 0x42 && b[at + 1] === 0x82 && b[at + 2]! & 0x80) {
      const size = b[at + 2]! & 0x7f;
      return ascii(b, at + 3, size);
    }
  }
  return null;
}

/** The recording types staff may upload. */
export function sniffRecording(b: Uint8Array): AudioType | null {
  if (wavPlayable(b)) return { contentType: "audio/wav", ext: "wav" };
  if (ascii(b, 0, 4) === "fLaC") return { contentType: "audio/flac", ext: "flac" };
  if (ebmlDocType(b) === "webm") {
    // The codec, when the track list is within the first bytes (it is for MediaRecorder's and ffmpeg's files).
    const head = ascii(b, 0, b.length);
    const codecs = head.includes("A_OPUS") ? "; codecs=opus" : head.includes("A_VORBIS") ? "; codecs=vorbis" : "";
    return { contentType: `audio/webm${codecs}`, ext: "webm" };
  }
  if (ascii(b, 0, 4) === "OggS") {
    // The first page carries the codec's identification header (RFC 7845 §5.1; Vorbis I §4.2.2).
    const head = ascii(b, 28, 8);
    if (head === "OpusHead") return { contentType: "audio/ogg; codecs=opus", ext: "opus" };
    if (head.slice(1, 7) === "vorbis") return { contentType: "audio/ogg", ext: "ogg" };
    return null;
  }
  if (b.length >= 12 && ascii(b, 4, 4) === "ftyp") {
    const brand = ascii(b, 8, 4);
    // Audio-only brands of the MP4 family; a video (isom/mp42 with a picture) is refused here.
    if (["M4A ", "M4B ", "mp42", "isom", "dash"].includes(brand)) return { contentType: "audio/mp4", ext: "m4a" };
    return null;
  }
  // ADTS: 12-bit sync 0xFFF, layer bits 00 (an MP3 frame has layer 01).
  if (b[0] === 0xff && (b[1]! & 0xf6) === 0xf0) return { contentType: "audio/aac", ext: "aac" };
  if (looksMp3(b)) return { contentType: "audio/mpeg", ext: "mp3" };
  return null;
}

/** What an engine answered with: one of the recording types, or WAV. */
export function sniffGenerated(b: Uint8Array): AudioType | null {
  if (parseWav(b)) return { contentType: "audio/wav", ext: "wav" };
  return sniffRecording(b);
}

/** The duration of a whole file in memory, read from its own headers and frames (audio-meter.ts). */
export function durationMs(b: Uint8Array, type: AudioType): number | null {
  return measureAudio(type.ext, b).durationMs;
}

/** MP3 pieces played one after the other: the ID3 tags of all but the first are dropped. */
export function joinMp3(pieces: Uint8Array[]): Uint8Array {
  const parts = pieces.map((p, i) => (i === 0 ? p : p.subarray(Math.min(id3Size(p), p.length))));
  return concatBytes(parts);
}
