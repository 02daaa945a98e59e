import { concatBytes } from "~/lib/bytes";
/**
 * Joins pieces synthesised separately into one file (decision 106): WAV by its samples, MP3 by its frames,
 * with a short pause where a new paragraph starts (a narration read in one go pauses there too).
 * `joinable` says whether a set of pieces can be joined at all: one sample rate (and, for MP3, one MPEG
 * version and channel layout). Pieces that cannot be joined are synthesised again, whole (engines/index.ts).
 */
import { id3Size, mp3Frame } from "./audio-types";
import { encodeWav, joinWav, parseWav } from "./wav";
import type { SpeechFormat } from "./engines/types";

/** The pause put between two paragraphs. */
export const PARAGRAPH_PAUSE_MS = 500;

export interface JoinPiece {
  bytes: Uint8Array;
  /** A pause goes before this piece (it starts a paragraph and is not the first). */
  pauseBefore: boolean;
}

interface Mp3Layout {
  version: number;
  sampleRate: number;
  mono: boolean;
}

/** The MPEG version, sample rate and channel layout of an MP3's first frame (after any ID3 tag). */
export function mp3Layout(bytes: Uint8Array): Mp3Layout | null {
  const at = id3Size(bytes);
  const frame = mp3Frame(bytes, at);
  if (!frame) return null;
  return { version: (bytes[at + 1]! >> 3) & 3, sampleRate: frame.sampleRate, mono: bytes[at + 3]! >> 6 === 3 };
}

/** Whether the pieces can be played as one stream: same format and, within it, the same layout. */
export function joinable(format: SpeechFormat, pieces: readonly Uint8Array[]): boolean {
  if (pieces.length === 0) return false;
  if (format === "wav") {
    const wavs = pieces.map(parseWav);
    const first = wavs[0];
    return (
      !!first &&
      first.channels === 1 &&
      first.bitsPerSample === 16 &&
      wavs.every((w) => w && w.sampleRate === first.sampleRate && w.channels === 1 && w.bitsPerSample === 16)
    );
  }
  const layouts = pieces.map(mp3Layout);
  const first = layouts[0];
  return !!first && layouts.every((l) => l && l.version === first.version && l.sampleRate === first.sampleRate && l.mono === first.mono);
}

/** Side information bytes of a layer III frame (ISO/IEC 11172-3 §2.4.1.7; 13818-3 for MPEG-2/2.5). */
const sideInfoBytes = (version: number, mono: boolean) => (version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17);

/**
 * Whether the frame at `at` is a Xing/Info or VBRI header frame: an encoder's summary of the whole file
 * (frame count, seek table). Joined, it would describe only its own piece, and players that trust it
 * (browsers do, for the duration) would show a wrong length; such frames are dropped.
 */
function isSummaryFrame(b: Uint8Array, at: number, bytes: number): boolean {
  const version = (b[at + 1]! >> 3) & 3;
  const mono = b[at + 3]! >> 6 === 3;
  const crc = (b[at + 1]! & 1) === 0 ? 2 : 0;
  // Only within the frame itself: a small frame must not be judged by its neighbour's bytes.
  const tag = (offset: number) => (offset + 4 <= bytes ? String.fromCharCode(...b.subarray(at + offset, at + offset + 4)) : "");
  const xing = tag(4 + crc + sideInfoBytes(version, mono));
  return xing === "Xing" || xing === "Info" || tag(36) === "VBRI";
}

/** The frames of an MP3 (tags and summary frames left out), as one byte run. */
function mp3Frames(b: Uint8Array): Uint8Array {
  let at = id3Size(b);
  const kept: Uint8Array[] = [];
  while (at < b.length) {
    const frame = mp3Frame(b, at);
    if (!frame || at + frame.bytes > b.length) break;
    if (!isSummaryFrame(b, at, frame.bytes)) kept.push(b.subarray(at, at + frame.bytes));
    at += frame.bytes;
  }
  return concatBytes(kept);
}

/**
 * Silent layer III frames lasting at least `ms`, in the layout of `like`'s first frame: its header without
 * CRC or padding, then side information and main data all zero (no coded coefficients: silence).
 */
export function silentMp3(like: Uint8Array, ms: number): Uint8Array {
  const at = id3Size(like);
  const header = like.slice(at, at + 4);
  header[1]! |= 1; // protection_absent: no CRC follows
  header[2]! &= ~0x02; // no padding
  const frame = mp3Frame(header, 0);
  if (!frame) throw new Error("not an MP3 frame");
  const one = new Uint8Array(frame.bytes);
  one.set(header);
  const count = Math.ceil(((ms / 1000) * frame.sampleRate) / frame.samples);
  return concatBytes(Array.from({ length: count }, () => one));
}

/** One file from the pieces, in order, pauses between paragraphs. Throws when they cannot be joined. */
export function joinPieces(format: SpeechFormat, pieces: readonly JoinPiece[], pauseMs = PARAGRAPH_PAUSE_MS): Uint8Array {
  if (
    !joinable(
      format,
      pieces.map((p) => p.bytes),
    )
  )
    throw new Error(`the ${format} pieces differ in format`);
  if (pieces.length === 1) return pieces[0]!.bytes;
  if (format === "wav") {
    const rate = parseWav(pieces[0]!.bytes)!.sampleRate;
    const pause = encodeWav(new Int16Array(Math.round((pauseMs / 1000) * rate)), rate);
    return joinWav(pieces.flatMap((p, i) => (p.pauseBefore && i > 0 ? [pause, p.bytes] : [p.bytes])));
  }
  const pause = silentMp3(pieces[0]!.bytes, pauseMs);
  // The first piece keeps its ID3 tag (title, encoder); every piece loses its summary frame.
  const first = pieces[0]!.bytes;
  const tag = first.subarray(0, Math.min(id3Size(first), first.length));
  return concatBytes([tag, ...pieces.flatMap((p, i) => (p.pauseBefore && i > 0 ? [pause, mp3Frames(p.bytes)] : [mp3Frames(p.bytes)]))]);
}
