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
});
