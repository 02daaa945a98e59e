import { encodeWav } from "../wav";
import type { SpeechEngine } from "./types";

/**
 * The offline engine for local runs and tests (decision 090): a small formant synthesiser that turns text
 * into a real, playable 16 kHz mono WAV whose length follows the text (vowels voiced through two formant
 * resonators, consonants as noise or short voiced sounds, pauses at spaces and punctuation). It does not
 * speak words: eSpeak NG in WebAssembly (npm `espeak-ng` 1.0.2) does, but its 18 MB module (9 MB gzip)
 * exceeds what a Worker may carry and it compiles its WebAssembly at run time, which Workers forbid.
 * Deterministic: the same text and voice give the same bytes.
 */
export const OFFLINE_SAMPLE_RATE = 16_000;

const VOWEL_FORMANTS: Record<string, [number, number]> = {
  a: [730, 1090], e: [530, 1840], i: [270, 2290], o: [570, 840], u: [300, 870], y: [300, 1900],
};
const FRICATIVES = new Set([..."fhsxzcçšžʃ"]);
const PLOSIVES = new Set([..."bdgkpqt"]);

/** Voice = base pitch in Hz; the voice name tells it ("offline-120"). */
const DEFAULT_PITCH = 140;

function resonate(input: Float32Array, freq: number, bandwidth: number): Float32Array {
  const rate = OFFLINE_SAMPLE_RATE;
  const c = -Math.exp((-2 * Math.PI * bandwidth) / rate);
  const b = 2 * Math.exp((-Math.PI * bandwidth) / rate) * Math.cos((2 * Math.PI * freq) / rate);
  const a = 1 - b - c;
  const out = new Float32Array(input.length);
  let y1 = 0;
  let y2 = 0;
  for (let n = 0; n < input.length; n++) {
    const y = a * input[n]! + b * y1 + c * y2;
    out[n] = y;
    y2 = y1;
    y1 = y;
  }
  return out;
}

/** A seeded generator (mulberry32), so noise is the same on every run. */
function noiseSource(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  };
}

type Sound = { kind: "silence"; ms: number } | { kind: "voiced"; ms: number; f1: number; f2: number; gain: number } | { kind: "noise"; ms: number; gain: number };

function soundsOf(text: string): Sound[] {
  const out: Sound[] = [];
  for (const raw of text.normalize("NFD")) {
    if (/\p{M}/u.test(raw)) continue;
    const ch = raw.toLowerCase();
    if (ch === "\n") out.push({ kind: "silence", ms: 350 });
    else if (/\s/u.test(ch)) out.push({ kind: "silence", ms: 70 });
    else if (/[.!?…。！？؟।]/u.test(ch)) out.push({ kind: "silence", ms: 420 });
    else if (/[,;:،、，；：—–-]/u.test(ch)) out.push({ kind: "silence", ms: 220 });
    else if (VOWEL_FORMANTS[ch]) {
      const [f1, f2] = VOWEL_FORMANTS[ch]!;
      out.push({ kind: "voiced", ms: 95, f1, f2, gain: 1 });
    } else if (FRICATIVES.has(ch)) out.push({ kind: "noise", ms: 70, gain: 0.35 });
    else if (PLOSIVES.has(ch)) out.push({ kind: "silence", ms: 20 }, { kind: "noise", ms: 25, gain: 0.5 });
    else if (/\p{L}/u.test(ch)) {
      // Latin sonorants (l, m, n, r, v, w, j) and every letter of other scripts: a short voiced sound
      // (a syllable-sized one for scripts whose letters are syllables or words).
      const latin = /[a-z]/.test(ch);
      const code = ch.codePointAt(0)!;
      out.push({ kind: "voiced", ms: latin ? 55 : code > 0x2e80 ? 190 : 90, f1: 350 + (code % 7) * 60, f2: 1100 + (code % 11) * 110, gain: latin ? 0.6 : 0.9 });
    } else if (/\p{N}/u.test(ch)) out.push({ kind: "voiced", ms: 160, f1: 600, f2: 1500, gain: 0.9 });
    else out.push({ kind: "silence", ms: 30 });
  }
  return out;
}

/** The samples for one text; a sentence's pitch falls a little towards its end. */
export function synthesizeSamples(text: string, pitch = DEFAULT_PITCH): Int16Array {
  const rate = OFFLINE_SAMPLE_RATE;
  const sounds = soundsOf(text);
  const total = sounds.reduce((n, s) => n + Math.round((s.ms * rate) / 1000), 0);
  const mix = new Float32Array(total);
  const noise = noiseSource(text.length * 2654435761 + pitch);
  let at = 0;
  let phase = 0;
  let sentencePos = 0;
  for (const sound of sounds) {
    const n = Math.round((sound.ms * rate) / 1000);
    if (sound.kind === "silence") {
      if (sound.ms >= 220) sentencePos = 0;
      at += n;
      continue;
    }
    const source = new Float32Array(n);
    const f0 = pitch * (1 - Math.min(sentencePos, 40) * 0.006);
    for (let i = 0; i < n; i++) {
      if (sound.kind === "voiced") {
        // A glottal pulse train: a sharp rise once per period, decaying.
        phase += f0 / rate;
        if (phase >= 1) phase -= 1;
        source[i] = (1 - phase) ** 3 - 0.25;
      } else source[i] = noise();
    }
    let shaped: Float32Array;
    if (sound.kind === "voiced") {
      const one = resonate(source, sound.f1, 90);
      const two = resonate(source, sound.f2, 120);
      shaped = one.map((v, i) => v + 0.5 * two[i]!);
    } else shaped = resonate(source, 4500, 2500);
    const fade = Math.min(Math.round(rate * 0.012), Math.floor(n / 2));
    for (let i = 0; i < n; i++) {
      const envelope = Math.min(1, i / fade, (n - 1 - i) / fade);
      mix[at + i]! += shaped[i]! * sound.gain * envelope;
    }
    at += n;
    sentencePos++;
  }
  let peak = 0;
  for (const v of mix) peak = Math.max(peak, Math.abs(v));
  const scale = peak > 0 ? (0.7 * 32767) / peak : 0;
  const samples = new Int16Array(total);
  for (let i = 0; i < total; i++) samples[i] = Math.round(mix[i]! * scale);
  return samples;
}

export function offlineSpeechEngine(): SpeechEngine {
  return {
    id: "offline",
    // No provider limit; pieces keep each synthesis (and the memory it takes) small.
    limit: { max: 2000, measure: "chars" },
    format: "wav",
    voiceFor: () => `offline-${DEFAULT_PITCH}`,
    async synthesize(text, _lang, voice) {
      const pitch = Number(/^offline-(\d{2,3})$/.exec(voice)?.[1] ?? DEFAULT_PITCH);
      return encodeWav(synthesizeSamples(text, pitch), OFFLINE_SAMPLE_RATE);
    },
  };
}
