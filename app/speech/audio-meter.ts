/**
 * How long a narration lasts, read from the audio itself while it streams past (decision 119): the upload
 * is never held whole in memory, so each format is walked by a small pull parser that reads headers and
 * skips payloads. Every format the narrations accept is measured:
 *
 * - WAV: the `fmt ` chunk and the `data` chunk's size (the bytes really sent when the size is a streamed
 *   writer's placeholder, 0 or 0xFFFFFFFF). http://soundfile.sapp.org/doc/WaveFormat/, Microsoft's
 *   WAVEFORMATEXTENSIBLE.
 * - FLAC: STREAMINFO's total samples (RFC 9639 §8.2); when a streaming encoder left it 0, the last frame
 *   header's frame or sample number (RFC 9639 §9.1, checked by its CRC-8).
 * - MP3: every frame header walked (ISO/IEC 11172-3, 13818-3); the Xing/Info frame is not audio, and the
 *   LAME tag's encoder delay and padding are taken off.
 * - AAC in ADTS: every frame header walked (ISO/IEC 13818-7 §6.2).
 * - MP4/M4A: the sound track's `mdhd` duration (ISO/IEC 14496-12 §8.4.2), else `mvhd`, `mehd`, or the sum
 *   of the fragments' sample durations (`trun`, fragmented files as Safari records them).
 * - Ogg (Opus, Vorbis): the last granule position of the first stream (RFC 3533), less Opus's pre-skip
 *   (RFC 7845 §4.2) or over Vorbis's sample rate.
 * - WebM: the segment's Duration (Matroska, RFC 9559 §5.1.2.3) when written; else (MediaRecorder never
 *   writes it) the last block's time plus its Opus packet's length (RFC 6716 §3.1).
 *
 * A track that is not sound (a video in WebM or MP4) makes the file refused: narrations are audio.
 */
import { id3Size, mp3Frame } from "./audio-types";

export interface Measured {
  /** Null when the file does not say (a truncated or unusual file). */
  durationMs: number | null;
  /** Set when the file holds something other than sound (a video track). */
  notAudio?: string;
}

export type AudioFormat = "wav" | "flac" | "mp3" | "aac" | "m4a" | "ogg" | "opus" | "webm";

type Want = { read: number } | { skip: number };
/** A pull parser: yields what it wants, receives the bytes read (shorter only at the end), returns seconds. */
type Parser = Generator<Want, number | null, Uint8Array>;

class NotAudio extends Error {}

/** What a parser can ask about the stream besides reading it. */
interface Source {
  /** Bytes consumed (read or skipped) so far. */
  readonly pos: number;
}

const EMPTY = new Uint8Array(0);
const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
const u32le = (b: Uint8Array, at: number) => b[at]! + (b[at + 1]! << 8) + (b[at + 2]! << 16) + ((b[at + 3]! << 24) >>> 0);
const u16le = (b: Uint8Array, at: number) => b[at]! + (b[at + 1]! << 8);
const u64be = (b: Uint8Array, at: number) => u32be(b, at) * 2 ** 32 + u32be(b, at + 4);

// ---------------------------------------------------------------- WAV

const WAV_PCM = 1;
const WAV_FLOAT = 3;
const WAV_EXTENSIBLE = 0xfffe;

function* wav(src: Source): Parser {
  const head = yield { read: 12 };
  if (head.length < 12 || ascii(head, 0, 4) !== "RIFF" || ascii(head, 8, 4) !== "WAVE") return null;
  let fmt: { rate: number; blockAlign: number } | null = null;
  for (;;) {
    const chunk = yield { read: 8 };
    if (chunk.length < 8) return null;
    const id = ascii(chunk, 0, 4);
    const size = u32le(chunk, 4);
    if (id === "fmt ") {
      const body = yield { read: Math.min(size, 40) };
      if (body.length < 16) return null;
      fmt = { rate: u32le(body, 4), blockAlign: u16le(body, 12) };
      yield { skip: size - body.length + (size % 2) };
    } else if (id === "data") {
      if (!fmt || fmt.rate === 0 || fmt.blockAlign === 0) return null;
      const start = src.pos;
      // A writer that could not seek back (a pipe) leaves 0 or 0xFFFFFFFF: the bytes sent count then.
      const unknown = size === 0 || size === 0xffffffff;
      yield { skip: unknown ? Infinity : size };
      const bytes = src.pos - start;
      return bytes / fmt.blockAlign / fmt.rate;
    } else yield { skip: size + (size % 2) };
  }
}

/** Whether a WAV's first bytes hold a `fmt ` chunk browsers play: integer PCM or float, plain or extensible. */
export function wavPlayable(b: Uint8Array): boolean {
  if (b.length < 12 || ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WAVE") return false;
  let at = 12;
  while (at + 8 <= b.length) {
    const size = u32le(b, at + 4);
    if (ascii(b, at, 4) === "fmt ") {
      if (size < 16 || at + 24 > b.length) return false;
      let tag = u16le(b, at + 8);
      const channels = u16le(b, at + 10);
      const bits = u16le(b, at + 22);
      if (tag === WAV_EXTENSIBLE) {
        if (size < 40 || at + 34 > b.length) return false;
        tag = u16le(b, at + 32); // the SubFormat GUID starts with the format tag
      }
      return (tag === WAV_PCM || tag === WAV_FLOAT) && channels >= 1 && channels <= 8 && [8, 16, 24, 32, 64].includes(bits) && u32le(b, at + 12) > 0;
    }
    if (ascii(b, at, 4) === "data") return false;
    at += 8 + size + (size % 2);
  }
  return false;
}

// ---------------------------------------------------------------- FLAC

/** CRC-8 of a FLAC frame header (polynomial x^8 + x^2 + x + 1, RFC 9639 §9.1.8). */
function crc8(b: Uint8Array, from: number, to: number): number {
  let crc = 0;
  for (let i = from; i < to; i++) {
    crc ^= b[i]!;
    for (let k = 0; k < 8; k++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

interface FlacInfo {
  rate: number;
  minBlock: number;
  maxBlock: number;
}

/**
 * The samples up to the end of the FLAC frame whose header starts at `at`, or null when no valid header is
 * there. Only the header is read (its CRC-8 checks it); the frame's length is unknown without decoding, so
 * the last valid header found in a file gives its end.
 */
function flacFrameEnd(b: Uint8Array, at: number, info: FlacInfo): number | null {
  if (b[at] !== 0xff || (b[at + 1]! & 0xfe) !== 0xf8 || at + 6 > b.length) return null;
  const variable = b[at + 1]! & 1;
  const blockCode = b[at + 2]! >> 4;
  const rateCode = b[at + 2]! & 0x0f;
  if (blockCode === 0 || rateCode === 15 || b[at + 3]! >> 4 > 10 || ((b[at + 3]! >> 1) & 7) === 3 || b[at + 3]! & 1) return null;
  // The coded number: UTF-8-like, 1 to 7 bytes (RFC 9639 §9.1.5).
  let p = at + 4;
  const first = b[p]!;
  let extra =
    first < 0x80
      ? 0
      : first >= 0xc0 && first < 0xe0
        ? 1
        : first >= 0xe0 && first < 0xf0
          ? 2
          : first >= 0xf0 && first < 0xf8
            ? 3
            : first >= 0xf8 && first < 0xfc
              ? 4
              : first >= 0xfc && first < 0xfe
                ? 5
                : first === 0xfe
                  ? 6
                  : -1;
  if (extra < 0 || p + 1 + extra > b.length) return null;
  let number = extra === 0 ? first : first & (0x3f >> extra);
  p++;
  for (; extra > 0; extra--, p++) {
    if ((b[p]! & 0xc0) !== 0x80) return null;
    number = number * 64 + (b[p]! & 0x3f);
  }
  let block: number;
  if (blockCode === 1) block = 192;
  else if (blockCode <= 5) block = 576 * 2 ** (blockCode - 2);
  else if (blockCode === 6) {
    if (p + 1 > b.length) return null;
    block = b[p++]! + 1;
  } else if (blockCode === 7) {
    if (p + 2 > b.length) return null;
    block = (b[p]! << 8) + b[p + 1]! + 1;
    p += 2;
  } else block = 256 * 2 ** (blockCode - 8);
  if (rateCode === 12) p += 1;
  else if (rateCode === 13 || rateCode === 14) p += 2;
  if (p + 1 > b.length || crc8(b, at, p) !== b[p]) return null;
  if (block > Math.max(info.maxBlock, 16)) return null;
  // Fixed block size: the number counts frames of `minBlock` samples; variable: it is the first sample.
  return (variable ? number : number * info.maxBlock) + block;
}

const FLAC_TAIL = 64 * 1024;

function* flac(): Parser {
  const magic = yield { read: 4 };
  if (ascii(magic, 0, 4) !== "fLaC") return null;
  const header = yield { read: 4 };
  if (header.length < 4 || (header[0]! & 0x7f) !== 0) return null;
  const size = (header[1]! << 16) + (header[2]! << 8) + header[3]!;
  const body = yield { read: size };
  if (size < 34 || body.length < 34) return null;
  const info: FlacInfo = {
    minBlock: (body[0]! << 8) + body[1]!,
    maxBlock: (body[2]! << 8) + body[3]!,
    rate: (body[10]! << 12) + (body[11]! << 4) + (body[12]! >> 4),
  };
  const total = (body[13]! & 0x0f) * 2 ** 32 + u32be(body, 14);
  if (info.rate === 0) return null;
  if (total > 0) return total / info.rate;
  // A streaming encoder could not write the count: the last frame's header tells where the audio ends.
  // The stream goes past in windows; the last window's valid frame headers are checked from its end.
  let tail: Uint8Array = EMPTY;
  let last: number | null = null;
  for (;;) {
    const next = yield { read: FLAC_TAIL };
    if (next.length === 0) break;
    const window = new Uint8Array(tail.length + next.length);
    window.set(tail);
    window.set(next, tail.length);
    for (let at = window.length - 6; at >= 0; at--) {
      if (window[at] !== 0xff) continue;
      const end = flacFrameEnd(window, at, info);
      if (end !== null) {
        if (last === null || end > last) last = end;
        break;
      }
    }
    // Keep a header's worth, in case one straddles two windows.
    tail = window.slice(Math.max(0, window.length - 16));
    if (next.length < FLAC_TAIL) break;
  }
  return last === null ? null : last / info.rate;
}

// ---------------------------------------------------------------- MP3

/** Side information bytes of a layer III frame (ISO/IEC 11172-3 §2.4.1.7; 13818-3 for MPEG-2/2.5). */
const sideInfoBytes = (version: number, mono: boolean) => (version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17);

/** The Xing/Info frame's LAME tag: encoder delay and padding in samples, or null without one. */
function xingInfo(frame: Uint8Array): { delay: number; padding: number } | "summary" | null {
  const version = (frame[1]! >> 3) & 3;
  const mono = frame[3]! >> 6 === 3;
  const crc = (frame[1]! & 1) === 0 ? 2 : 0;
  const at = 4 + crc + sideInfoBytes(version, mono);
  const tag = ascii(frame, at, 4);
  if (ascii(frame, 36, 4) === "VBRI") return "summary";
  if (tag !== "Xing" && tag !== "Info") return null;
  const flags = u32be(frame, at + 4);
  let p = at + 8 + (flags & 1 ? 4 : 0) + (flags & 2 ? 4 : 0) + (flags & 4 ? 100 : 0) + (flags & 8 ? 4 : 0);
  // LAME tag: encoder string (9), revision/method (1), lowpass (1), replay gain (8), flags (1), bitrate (1),
  // then 12 bits of delay and 12 of padding.
  if (p + 24 > frame.length || !/^(LAME|Lavc|Lavf|L3.9)/.test(ascii(frame, p, 4))) return "summary";
  p += 21;
  return { delay: (frame[p]! << 4) + (frame[p + 1]! >> 4), padding: ((frame[p + 1]! & 0x0f) << 8) + frame[p + 2]! };
}

function* mp3(): Parser {
  const head = yield { read: 10 };
  let ahead: Uint8Array | null = head;
  if (head.length === 10 && ascii(head, 0, 3) === "ID3") {
    const tag = id3Size(head);
    if (tag === 0) return null;
    yield { skip: tag - 10 };
    ahead = null;
  }
  let samples = 0;
  let rate = 0;
  let trim = 0;
  let first = true;
  for (;;) {
    let header: Uint8Array;
    if (ahead) {
      header = ahead;
      ahead = null;
    } else header = yield { read: 4 };
    const frame = header.length >= 4 ? mp3Frame(header, 0) : null;
    if (!frame || (rate !== 0 && frame.sampleRate !== rate)) break;
    if (first) {
      // The first frame may be the encoder's summary (Xing/Info/VBRI): silent, not played.
      const rest = yield { read: frame.bytes - header.length };
      const whole = new Uint8Array(header.length + rest.length);
      whole.set(header);
      whole.set(rest, header.length);
      first = false;
      rate = frame.sampleRate;
      const info = xingInfo(whole);
      if (info === null) samples += frame.samples;
      else if (info !== "summary") trim = info.delay + info.padding;
      continue;
    }
    samples += frame.samples;
    yield { skip: frame.bytes - header.length };
  }
  return rate === 0 ? null : Math.max(0, samples - trim) / rate;
}

// ---------------------------------------------------------------- AAC (ADTS)

const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

function* adts(): Parser {
  let samples = 0;
  let rate = 0;
  for (;;) {
    const h = yield { read: 7 };
    if (h.length < 7 || h[0] !== 0xff || (h[1]! & 0xf6) !== 0xf0) break;
    const r = AAC_RATES[(h[2]! >> 2) & 0x0f];
    const length = ((h[3]! & 3) << 11) | (h[4]! << 3) | (h[5]! >> 5);
    if (!r || length < 7 || (rate !== 0 && r !== rate)) break;
    rate = r;
    samples += 1024 * ((h[6]! & 3) + 1);
    yield { skip: length - 7 };
  }
  return rate === 0 ? null : samples / rate;
}

// ---------------------------------------------------------------- MP4 / M4A

const MOOV_MAX = 16 * 1024 * 1024;
const MOOF_MAX = 1024 * 1024;

interface Mp4State {
  movie: { timescale: number; duration: number } | null;
  fragmentDuration: number | null;
  /** track id → its media timescale, handler and duration */
  tracks: Map<number, { timescale: number; duration: number; handler: string; defaultDuration: number }>;
  /** track id → summed sample durations of the fragments */
  fragments: Map<number, number>;
}

function boxes(b: Uint8Array, from: number, to: number, each: (type: string, at: number, end: number) => void) {
  let at = from;
  while (at + 8 <= to) {
    let size = u32be(b, at);
    const type = ascii(b, at + 4, 4);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) return;
      size = u64be(b, at + 8);
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) return;
    each(type, at + header, at + size);
    at += size;
  }
}

function parseMoov(b: Uint8Array, state: Mp4State) {
  boxes(b, 0, b.length, (type, at, end) => {
    if (type === "mvhd" && end - at >= 32) {
      const v1 = b[at] === 1;
      state.movie = v1 ? { timescale: u32be(b, at + 20), duration: u64be(b, at + 24) } : { timescale: u32be(b, at + 12), duration: u32be(b, at + 16) };
    }
    if (type === "mvex") {
      boxes(b, at, end, (t, a, e) => {
        if (t === "mehd" && e - a >= 8) state.fragmentDuration = b[a] === 1 && e - a >= 12 ? u64be(b, a + 4) : u32be(b, a + 4);
        if (t === "trex" && e - a >= 24) {
          const track = state.tracks.get(u32be(b, a + 4));
          if (track) track.defaultDuration = u32be(b, a + 12);
        }
      });
    }
    if (type === "trak") {
      let id = 0;
      const track = { timescale: 0, duration: 0, handler: "", defaultDuration: 0 };
      boxes(b, at, end, (t, a, e) => {
        if (t === "tkhd" && e - a >= 16) id = b[a] === 1 ? u32be(b, a + 20) : u32be(b, a + 12);
        if (t === "mdia") {
          boxes(b, a, e, (t2, a2, e2) => {
            if (t2 === "mdhd" && e2 - a2 >= 24) {
              const v1 = b[a2] === 1;
              track.timescale = v1 ? u32be(b, a2 + 20) : u32be(b, a2 + 12);
              track.duration = v1 ? u64be(b, a2 + 24) : u32be(b, a2 + 16);
            }
            if (t2 === "hdlr" && e2 - a2 >= 12) track.handler = ascii(b, a2 + 8, 4);
          });
        }
      });
      state.tracks.set(id, track);
    }
  });
}

function parseMoof(b: Uint8Array, state: Mp4State) {
  boxes(b, 0, b.length, (type, at, end) => {
    if (type !== "traf") return;
    let id = 0;
    let defaultDuration = 0;
    boxes(b, at, end, (t, a, e) => {
      if (t === "tfhd" && e - a >= 8) {
        const flags = (b[a + 1]! << 16) + (b[a + 2]! << 8) + b[a + 3]!;
        id = u32be(b, a + 4);
        const p = a + 8 + (flags & 0x01 ? 8 : 0) + (flags & 0x02 ? 4 : 0);
        if (flags & 0x08 && p + 4 <= e) defaultDuration = u32be(b, p);
        else defaultDuration = state.tracks.get(id)?.defaultDuration ?? 0;
      }
      if (t === "trun" && e - a >= 8) {
        const flags = (b[a + 1]! << 16) + (b[a + 2]! << 8) + b[a + 3]!;
        const count = u32be(b, a + 4);
        let p = a + 8 + (flags & 0x01 ? 4 : 0) + (flags & 0x04 ? 4 : 0);
        const per = (flags & 0x100 ? 4 : 0) + (flags & 0x200 ? 4 : 0) + (flags & 0x400 ? 4 : 0) + (flags & 0x800 ? 4 : 0);
        let total = 0;
        if (flags & 0x100) {
          for (let i = 0; i < count && p + 4 <= e; i++, p += per) total += u32be(b, p);
        } else total = count * defaultDuration;
        state.fragments.set(id, (state.fragments.get(id) ?? 0) + total);
      }
    });
  });
}

function* mp4(): Parser {
  const state: Mp4State = { movie: null, fragmentDuration: null, tracks: new Map(), fragments: new Map() };
  for (;;) {
    const h = yield { read: 8 };
    if (h.length < 8) break;
    let size = u32be(h, 0);
    const type = ascii(h, 4, 4);
    let header = 8;
    if (size === 1) {
      const large = yield { read: 8 };
      if (large.length < 8) break;
      size = u64be(large, 0);
      header = 16;
    } else if (size === 0) size = Infinity;
    if (size < header) break;
    const limit = type === "moov" ? MOOV_MAX : type === "moof" ? MOOF_MAX : 0;
    if (limit > 0 && size - header <= limit) {
      const body = yield { read: size - header };
      if (type === "moov") parseMoov(body, state);
      else parseMoof(body, state);
    } else yield { skip: size - header };
  }
  const tracks = [...state.tracks.entries()];
  if (tracks.some(([, t]) => t.handler === "vide")) throw new NotAudio("the MP4 file holds a video track");
  const sound = tracks.find(([, t]) => t.handler === "soun");
  if (!sound) return null;
  const [id, track] = sound;
  const fragments = state.fragments.get(id);
  if (fragments && track.timescale > 0) return (track.duration + fragments) / track.timescale;
  if (track.duration > 0 && track.timescale > 0) return track.duration / track.timescale;
  if (state.movie && state.movie.timescale > 0) {
    if (state.movie.duration > 0 && state.movie.duration < 2 ** 32 - 1) return state.movie.duration / state.movie.timescale;
    if (state.fragmentDuration) return state.fragmentDuration / state.movie.timescale;
  }
  return null;
}

// ---------------------------------------------------------------- Ogg

function* ogg(): Parser {
  let serial: number | null = null;
  let codec: { kind: "opus"; preSkip: number } | { kind: "vorbis"; rate: number } | null = null;
  let granule = -1;
  for (;;) {
    const h = yield { read: 27 };
    if (h.length < 27 || ascii(h, 0, 4) !== "OggS") break;
    const segments = yield { read: h[26]! };
    let body = 0;
    for (const s of segments) body += s;
    const pageSerial = u32le(h, 14);
    serial ??= pageSerial;
    if (pageSerial === serial && codec === null) {
      const first = yield { read: body };
      if (ascii(first, 0, 8) === "OpusHead" && first.length >= 12) codec = { kind: "opus", preSkip: u16le(first, 10) };
      else if (ascii(first, 1, 6) === "vorbis" && first.length >= 16) codec = { kind: "vorbis", rate: u32le(first, 12) };
      else return null;
      continue;
    }
    // Granule -1 (all bits set): no packet ends on this page.
    const lo = u32le(h, 6);
    const hi = u32le(h, 10);
    if (pageSerial === serial && !(lo === 0xffffffff && hi === 0xffffffff)) granule = hi * 2 ** 32 + lo;
    yield { skip: body };
  }
  if (!codec || granule < 0) return null;
  if (codec.kind === "opus") return Math.max(0, granule - codec.preSkip) / 48000;
  return codec.rate > 0 ? granule / codec.rate : null;
}

// ---------------------------------------------------------------- WebM (Matroska)

const EBML = {
  segment: 0x18538067,
  info: 0x1549a966,
  tracks: 0x1654ae6b,
  cluster: 0x1f43b675,
  blockGroup: 0xa0,
  timestampScale: 0x2ad7b1,
  duration: 0x4489,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackType: 0x83,
  codecId: 0x86,
  codecDelay: 0x56aa,
  clusterTimestamp: 0xe7,
  simpleBlock: 0xa3,
  block: 0xa1,
  blockDuration: 0x9b,
} as const;
/** Elements whose children are walked in the stream (the rest is read whole or skipped). */
const DESCEND = new Set<number>([EBML.segment, EBML.cluster, EBML.blockGroup]);

/** A variable-size integer at `at` (RFC 8794 §4): its value (marker removed unless `keepMarker`) and length. */
function vint(b: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } | null {
  const first = b[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (at + length > b.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + b[at + i]!;
    if (b[at + i] !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

function children(b: Uint8Array, each: (id: number, body: Uint8Array) => void) {
  let at = 0;
  while (at < b.length) {
    const id = vint(b, at, true);
    if (!id) return;
    const size = vint(b, at + id.length, false);
    if (!size || size.unknown) return;
    const start = at + id.length + size.length;
    if (start + size.value > b.length) return;
    each(id.value, b.subarray(start, start + size.value));
    at = start + size.value;
  }
}

const uint = (b: Uint8Array) => b.reduce((n, x) => n * 256 + x, 0);
const float = (b: Uint8Array) => {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return b.length === 4 ? view.getFloat32(0) : b.length === 8 ? view.getFloat64(0) : 0;
};

/** How long an Opus packet plays, from its TOC byte and frame count (RFC 6716 §3.1), in ms. */
function opusPacketMs(packet: Uint8Array): number {
  if (packet.length === 0) return 0;
  const toc = packet[0]!;
  const config = toc >> 3;
  const frameMs = config < 12 ? [10, 20, 40, 60][config % 4]! : config < 16 ? [10, 20][config % 2]! : [2.5, 5, 10, 20][config % 4]!;
  const code = toc & 3;
  const frames = code === 0 ? 1 : code < 3 ? 2 : packet.length > 1 ? packet[1]! & 0x3f : 0;
  return frameMs * frames;
}

const WEBM_HEADER_MAX = 1024 * 1024;

function* webm(): Parser {
  let scale = 1_000_000; // ns per timestamp unit, Matroska's default
  let declared = 0;
  const types = new Map<number, { type: number; codec: string; delayNs: number }>();
  let cluster = 0;
  let end = -Infinity;
  let lastMs = 0;
  let delayNs = 0;
  let blocks = 0;
  for (;;) {
    // The element's ID (1-4 bytes) and size (1-8 bytes), read a byte at a time as the first says how long.
    const idFirst = yield { read: 1 };
    if (idFirst.length === 0) break;
    const idLength = Math.clz32(idFirst[0]!) - 23;
    if (idLength < 1 || idLength > 4) break;
    const idRest = idLength > 1 ? yield { read: idLength - 1 } : EMPTY;
    const id = vint(Uint8Array.of(idFirst[0]!, ...idRest), 0, true);
    const sizeFirst = yield { read: 1 };
    if (!id || sizeFirst.length === 0) break;
    const sizeLength = Math.clz32(sizeFirst[0]!) - 23;
    if (sizeLength < 1 || sizeLength > 8) break;
    const sizeRest = sizeLength > 1 ? yield { read: sizeLength - 1 } : EMPTY;
    const size = vint(Uint8Array.of(sizeFirst[0]!, ...sizeRest), 0, false);
    if (!size) break;
    if (DESCEND.has(id.value)) continue; // its children follow in the stream, whatever its size
    if (size.unknown) break; // only a segment or a cluster may have an unknown size
    if (id.value === EBML.info || id.value === EBML.tracks) {
      if (size.value > WEBM_HEADER_MAX) return null;
      const body = yield { read: size.value };
      if (id.value === EBML.info) {
        children(body, (child, value) => {
          if (child === EBML.timestampScale) scale = uint(value) || scale;
          if (child === EBML.duration) declared = float(value);
        });
      } else {
        children(body, (child, entry) => {
          if (child !== EBML.trackEntry) return;
          let number = 0;
          let type = 0;
          let codec = "";
          let delayNs = 0;
          children(entry, (field, value) => {
            if (field === EBML.trackNumber) number = uint(value);
            if (field === EBML.trackType) type = uint(value);
            if (field === EBML.codecId) codec = ascii(value, 0, value.length);
            // Subtracted from every block's time to get the sound's (Opus's pre-skip, RFC 9559 §5.1.4.1.19).
            if (field === EBML.codecDelay) delayNs = uint(value);
          });
          types.set(number, { type, codec, delayNs });
        });
        if ([...types.values()].some((t) => t.type !== 2)) throw new NotAudio("the WebM file holds a track that is not sound (a video)");
      }
      continue;
    }
    if (id.value === EBML.clusterTimestamp) {
      cluster = uint(yield { read: size.value });
      continue;
    }
    if (id.value === EBML.simpleBlock || id.value === EBML.block) {
      // Track number, a signed 16-bit time relative to the cluster, flags, then the first frame.
      const head = yield { read: Math.min(size.value, 12) };
      yield { skip: size.value - head.length };
      const track = vint(head, 0, false);
      if (!track || head.length < track.length + 3) continue;
      const relative = (head[track.length]! << 8) | head[track.length + 1]!;
      const time = cluster + (relative > 0x7fff ? relative - 0x10000 : relative);
      const lacing = (head[track.length + 2]! >> 1) & 3;
      const codec = types.get(track.value)?.codec;
      if (time >= end) {
        end = time;
        delayNs = types.get(track.value)?.delayNs ?? 0;
        lastMs = codec === "A_OPUS" && lacing === 0 ? opusPacketMs(head.subarray(track.length + 3)) : 0;
      }
      blocks++;
      continue;
    }
    yield { skip: size.value };
  }
  if (declared > 0) return (declared * scale) / 1e9;
  if (blocks === 0) return null;
  return Math.max(0, (end * scale - delayNs) / 1e9 + lastMs / 1000);
}

// ---------------------------------------------------------------- driver

const PARSERS: Record<AudioFormat, (src: Source) => Parser> = { wav, flac, mp3, aac: adts, m4a: mp4, ogg, opus: ogg, webm };

/**
 * A meter for one file of a known format: `push` each chunk as it streams past, `end` for the result.
 * Memory stays bounded (headers and, for MP4, the `moov` box up to 16 MB); nothing is decoded.
 */
export class AudioMeter implements Source {
  pos = 0;
  private readonly parser: Parser;
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private want: Want | null = null;
  private done: Measured | null = null;

  constructor(format: AudioFormat) {
    this.parser = PARSERS[format](this);
    this.advance(EMPTY);
  }

  push(chunk: Uint8Array) {
    if (this.done || chunk.length === 0) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    this.pump(false);
  }

  end(): Measured {
    this.pump(true);
    // A parser still waiting at the end gets the end of the stream until it returns.
    for (let guard = 0; !this.done && guard < 1_000_000; guard++) this.advance(EMPTY);
    return this.done ?? { durationMs: null };
  }

  private pump(ended: boolean) {
    while (!this.done && this.want) {
      const want = this.want;
      if ("skip" in want) {
        const n = Math.min(want.skip, this.buffered);
        this.drop(n);
        want.skip -= n;
        if (want.skip > 0 && !ended) return;
        this.advance(EMPTY);
      } else {
        if (this.buffered < want.read && !ended) return;
        this.advance(this.take(Math.min(want.read, this.buffered)));
      }
    }
  }

  private advance(value: Uint8Array) {
    try {
      const step = this.parser.next(value);
      if (step.done) {
        const seconds = step.value;
        this.done = { durationMs: seconds === null || !Number.isFinite(seconds) || seconds < 0 ? null : Math.round(seconds * 1000) };
        this.chunks = [];
      } else this.want = { ...step.value };
    } catch (error) {
      this.done = error instanceof NotAudio ? { durationMs: null, notAudio: error.message } : { durationMs: null };
      this.chunks = [];
    }
  }

  private drop(n: number) {
    this.pos += n;
    this.buffered -= n;
    while (n > 0) {
      const head = this.chunks[0]!;
      if (head.length <= n) {
        n -= head.length;
        this.chunks.shift();
      } else {
        this.chunks[0] = head.subarray(n);
        n = 0;
      }
    }
  }

  private take(n: number): Uint8Array {
    if (n === 0) return EMPTY;
    const first = this.chunks[0]!;
    if (first.length >= n) {
      const out = first.slice(0, n);
      this.drop(n);
      return out;
    }
    const out = new Uint8Array(n);
    let filled = 0;
    for (const chunk of this.chunks) {
      const part = chunk.subarray(0, n - filled);
      out.set(part, filled);
      filled += part.length;
      if (filled === n) break;
    }
    this.drop(n);
    return out;
  }
}

/** The duration of a whole file in memory (generated narrations, tests). */
export function measureAudio(format: AudioFormat, bytes: Uint8Array): Measured {
  const meter = new AudioMeter(format);
  meter.push(bytes);
  return meter.end();
}
