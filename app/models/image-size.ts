// The intrinsic size of an uploaded image, read from its header, so visitor pages can give every <img>
// its width and height and the text never jumps while images load. Pure: runs in the Worker and in tests.

export interface ImageSize {
  width: number;
  height: number;
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

function valid(width: number, height: number): ImageSize | null {
  return width > 0 && height > 0 && width <= 65535 && height <= 65535 ? { width, height } : null;
}

function jpeg(b: Uint8Array): ImageSize | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    // Standalone markers carry no length.
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = u16be(b, at + 2);
    // SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC) hold the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return valid(u16be(b, at + 7), u16be(b, at + 5));
    }
    at += 2 + length;
  }
  return null;
}

function webp(b: Uint8Array): ImageSize | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8 " && b.length >= 30) return valid(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  if (chunk === "VP8L" && b.length >= 25) {
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
    return valid((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === "VP8X" && b.length >= 30) return valid(u24le(b, 24) + 1, u24le(b, 27) + 1);
  return null;
}

function avif(b: Uint8Array): ImageSize | null {
  // The first image spatial extents property ("ispe"): version/flags, then width and height.
  for (let at = 4; at + 16 <= b.length; at++) {
    if (b[at] === 0x69 && ascii(b, at, 4) === "ispe") return valid(u32be(b, at + 8), u32be(b, at + 12));
  }
  return null;
}

/** Width and height of a PNG, JPEG, GIF, WebP or AVIF image, or null when the header says nothing usable. */
export function imageSize(bytes: Uint8Array): ImageSize | null {
  if (bytes.length >= 24 && bytes[0] === 0x89 && ascii(bytes, 1, 3) === "PNG" && ascii(bytes, 12, 4) === "IHDR") {
    return valid(u32be(bytes, 16), u32be(bytes, 20));
  }
  if (bytes.length >= 10 && ascii(bytes, 0, 3) === "GIF") return valid(u16le(bytes, 6), u16le(bytes, 8));
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpeg(bytes);
  if (bytes.length >= 16 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return webp(bytes);
  if (bytes.length >= 12 && ascii(bytes, 4, 4) === "ftyp") return avif(bytes);
  return null;
}
