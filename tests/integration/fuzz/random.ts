// Deterministic randomness for the fuzz: one seeded stream per call, so a failure replays.
export const SEED = 0x6d757365; // "muse"
export const CONCURRENCY = 8;
export const MAX_JSON_BYTES = 1_048_576;
export const MAX_ERROR_BODY_CHARS = 2_000;
export const ERROR_STATUSES = [400, 401, 404, 405, 409, 413, 415, 429] as const;
export const TEST_TIMEOUT_MS = 60_000;
export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One stream per call, so adding cases to one call does not reshuffle the others. */
export function rngFor(call: string): Rng {
  let h = SEED;
  for (let i = 0; i < call.length; i++) h = Math.imul(h ^ call.charCodeAt(i), 0x01000193) >>> 0;
  return mulberry32(h);
}

export const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
export const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));

export function randomString(rng: Rng, maxLength = 120): string {
  const ranges: [number, number][] = [
    [0x20, 0x7e], // printable ASCII
    [0x00, 0x1f], // C0
    [0x7f, 0x9f], // DEL + C1
    [0xd800, 0xdfff], // lone surrogates
    [0x0300, 0x036f], // combining marks
    [0x200b, 0x202e], // zero-width, bidi
    [0x00a0, 0x00ff], // Latin-1
    [0xfff0, 0xffff], // specials, noncharacters
  ];
  let out = "";
  const length = int(rng, 0, maxLength);
  for (let i = 0; i < length; i++) {
    if (rng() < 0.05) {
      out += pick(rng, ["👩‍👩‍👧‍👦", "𝄞", "/", "..", "%", "\\", '"', "'"]);
      continue;
    }
    const [lo, hi] = pick(rng, ranges);
    out += String.fromCharCode(int(rng, lo, hi));
  }
  return out;
}
