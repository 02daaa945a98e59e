// Audio files for the narration tests, built to their formats' specifications (app/speech/audio-types.ts).

/** An MP3 of `frames` silent MPEG-1 layer III frames (128 kbit/s, 44.1 kHz: 417 bytes, 26.1 ms each). */
export function mp3Bytes(frames = 40, id3 = false): Uint8Array<ArrayBuffer> {
  const frame = new Uint8Array(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  const tag = id3 ? new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]) : new Uint8Array(0);
  const out = new Uint8Array(tag.length + frames * frame.length);
  out.set(tag);
  for (let i = 0; i < frames; i++) out.set(frame, tag.length + i * frame.length);
  return out;
}

/** The first page of an Ogg Opus stream (RFC 3533 page header + RFC 7845 OpusHead), then padding. */
export function oggOpusBytes(size = 2000): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  out.set([..."OggS"].map((c) => c.charCodeAt(0)));
  out[4] = 0;
  out[5] = 2; // beginning of stream
  out[26] = 1; // one segment
  out[27] = 19;
  out.set(
    [..."OpusHead"].map((c) => c.charCodeAt(0)),
    28,
  );
  return out;
}

/** An M4A (MP4 audio) file's `ftyp` box with brand "M4A ", then padding. */
export function m4aBytes(size = 2000): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  out.set([0, 0, 0, 24, ..."ftypM4A ".split("").map((c) => c.charCodeAt(0)), 0, 0, 2, 0, ..."M4A isom".split("").map((c) => c.charCodeAt(0))]);
  return out;
}
