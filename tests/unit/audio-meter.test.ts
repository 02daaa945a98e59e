import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AudioMeter, measureAudio } from "~/speech/audio-meter";
import { durationMs, sniffRecording } from "~/speech/audio-types";

// Real files from ffmpeg 5.1 and Chromium's MediaRecorder (tests/fixtures/audio/README.md says how each was
// made); `ms` is the length ffmpeg decodes them to, `slack` one frame of the format at most.
const fixture = (name: string) => new Uint8Array(readFileSync(join(__dirname, "../fixtures/audio", name)));
const FILES: { name: string; contentType: string; ms: number; slack: number }[] = [
  { name: "tone.wav", contentType: "audio/wav", ms: 2000, slack: 0 },
  { name: "tone-24bit.wav", contentType: "audio/wav", ms: 1000, slack: 0 },
  { name: "piped.wav", contentType: "audio/wav", ms: 2000, slack: 0 },
  { name: "tone.flac", contentType: "audio/flac", ms: 2000, slack: 0 },
  { name: "piped.flac", contentType: "audio/flac", ms: 2000, slack: 0 },
  { name: "tone.webm", contentType: "audio/webm; codecs=opus", ms: 2000, slack: 20 },
  { name: "piped.webm", contentType: "audio/webm; codecs=opus", ms: 2000, slack: 20 },
  { name: "chromium-mediarecorder.webm", contentType: "audio/webm; codecs=opus", ms: 1980, slack: 20 },
  { name: "tone.opus", contentType: "audio/ogg; codecs=opus", ms: 2000, slack: 0 },
  { name: "tone.ogg", contentType: "audio/ogg", ms: 2000, slack: 0 },
  { name: "tone.mp3", contentType: "audio/mpeg", ms: 2000, slack: 0 },
  { name: "tone.m4a", contentType: "audio/mp4", ms: 2000, slack: 64 },
  { name: "fragmented.m4a", contentType: "audio/mp4", ms: 2000, slack: 120 },
  { name: "tone.aac", contentType: "audio/aac", ms: 2000, slack: 120 },
];

describe("narration recordings: type and duration from the file itself", () => {
  for (const file of FILES) {
    it(`${file.name}: ${file.contentType}, about ${file.ms} ms, whole or in small chunks`, () => {
      const bytes = fixture(file.name);
      const type = sniffRecording(bytes.subarray(0, 4096));
      expect(type?.contentType).toBe(file.contentType);
      const whole = durationMs(bytes, type!);
      expect(whole).not.toBeNull();
      expect(Math.abs(whole! - file.ms)).toBeLessThanOrEqual(file.slack);
      // As an upload streams: chunks of odd sizes give the same answer.
      for (const size of [1, 7, 333, 4096]) {
        const meter = new AudioMeter(type!.ext);
        for (let at = 0; at < bytes.length; at += size) meter.push(bytes.subarray(at, at + size));
        expect(meter.end()).toEqual({ durationMs: whole });
      }
    });
  }

  it("refuses a WebM or MP4 holding a video track, as not sound", () => {
    const video = fixture("video.webm");
    expect(sniffRecording(video)?.ext).toBe("webm");
    expect(measureAudio("webm", video).notAudio).toMatch(/not sound/);
  });

  it("a truncated or damaged file measures as unknown or shorter, never throws", () => {
    for (const file of FILES) {
      const bytes = fixture(file.name);
      const type = sniffRecording(bytes)!;
      for (const cut of [0, 5, 40, 300, Math.floor(bytes.length / 2)]) {
        const result = measureAudio(type.ext, bytes.subarray(0, cut));
        if (result.durationMs !== null) expect(result.durationMs).toBeLessThanOrEqual(file.ms + file.slack);
      }
      const noisy = bytes.slice();
      for (let i = 60; i < noisy.length; i += 97) noisy[i] = (noisy[i]! * 31 + 7) & 0xff;
      const result = measureAudio(type.ext, noisy);
      expect(result.durationMs === null || Number.isFinite(result.durationMs)).toBe(true);
    }
  });

  it("refuses WAV that browsers do not play (ADPCM) and a RIFF that is not WAVE", () => {
    const wav = fixture("tone.wav").slice();
    wav[20] = 2; // format tag 2: Microsoft ADPCM
    expect(sniffRecording(wav)).toBeNull();
    const avi = fixture("tone.wav").slice();
    avi.set([0x41, 0x56, 0x49, 0x20], 8);
    expect(sniffRecording(avi)).toBeNull();
  });

  it("hostile headers (sizes near 2^32 or 2^56, lengths that lie) end quickly with null or the bytes really there", () => {
    const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
    // A header that made the reader walk its claimed size would hang until vitest's limit; their time is
    // measured by `npm run bench` (tests/bench/pure-timings.test.ts).
    // WAV: a `fmt ` claiming 4 GB; a data chunk claiming 4 GB with 100 bytes sent.
    expect(measureAudio("wav", bytes("RIFF", [0, 0, 0, 0], "WAVE", "fmt ", [0xf0, 0xff, 0xff, 0xff], new Array(40).fill(1))).durationMs).toBeNull();
    const fmt = [16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x80, 0x3e, 0, 0, 2, 0, 16, 0];
    expect(measureAudio("wav", bytes("RIFF", [0, 0, 0, 0], "WAVE", "fmt ", fmt, "data", [0xfe, 0xff, 0xff, 0xff], new Array(100).fill(0))).durationMs).toBe(6);
    // WebM: an Info element of 2^56 - 2 bytes; a cluster full of one-byte elements.
    expect(
      measureAudio(
        "webm",
        bytes([
          0x1a, 0x45, 0xdf, 0xa3, 0x80, 0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x15, 0x49, 0xa9, 0x66, 0x01, 0xff, 0xff, 0xff,
          0xff, 0xff, 0xff, 0xfe,
        ]),
      ).durationMs,
    ).toBeNull();
    expect(
      measureAudio(
        "webm",
        new Uint8Array(200_000).fill(0xec).map((x, i) => (i % 2 ? 0x80 : x)),
      ).durationMs,
    ).toBeNull();
    // MP4: a box claiming 2^64 - 1 bytes; a moov past the 16 MB bound is skipped, not read.
    expect(measureAudio("m4a", bytes([0, 0, 0, 1], "ftyp", [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])).durationMs).toBeNull();
    expect(measureAudio("m4a", bytes([0x7f, 0xff, 0xff, 0xff], "moov", new Array(100).fill(0))).durationMs).toBeNull();
    // FLAC: STREAMINFO with no sample count, then 1 MB of 0xFF (sync-like bytes everywhere, no valid header).
    const flacHead = fixture("piped.flac").subarray(0, 42);
    const junk = new Uint8Array(1024 * 1024).fill(0xff);
    const flacJunk = new Uint8Array(flacHead.length + junk.length);
    flacJunk.set(flacHead);
    flacJunk.set(junk, flacHead.length);
    expect(measureAudio("flac", flacJunk).durationMs).toBeNull();
    // Ogg: pages that never end a packet (granule -1).
    const page = bytes("OggS", [0, 0], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1], [0]);
    expect(measureAudio("ogg", page).durationMs).toBeNull();
  });
});
