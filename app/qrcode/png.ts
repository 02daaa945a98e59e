/**
 * A minimal PNG encoder on web APIs only (CompressionStream, Uint8Array), so it runs in Workers and
 * in Node 20: 8-bit grayscale or RGB, no interlace, filter 0 on every row, one IDAT.
 * `CompressionStream("deflate")` writes the zlib format that IDAT expects.
 */
export interface RawImage {
  width: number;
  height: number;
  /** 1 = grayscale, 3 = RGB; rows top to bottom, no padding. */
  channels: 1 | 3;
  pixels: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export async function encodePng(image: RawImage): Promise<Uint8Array> {
  const { width, height, channels, pixels } = image;
  const stride = width * channels;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`Bad PNG size ${width}×${height}`);
  }
  if (pixels.length !== stride * height) {
    throw new RangeError(`Expected ${stride * height} bytes of pixels, got ${pixels.length}`);
  }

  const scanlines = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    // The filter-type byte at the start of each row stays 0 (None).
    scanlines.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }

  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header[8] = 8; // bit depth
  header[9] = channels === 3 ? 2 : 0; // colour type: truecolour or grayscale
  // compression, filter method and interlace stay 0

  const parts = [Uint8Array.from(SIGNATURE), chunk("IHDR", header), chunk("IDAT", await deflate(scanlines)), chunk("IEND", new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

async function deflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new CompressionStream("deflate");
  const writer = stream.writable.getWriter();
  // Write and read together: awaiting the write first could stall on back-pressure.
  const [, compressed] = await Promise.all([writer.write(bytes).then(() => writer.close()), new Response(stream.readable).arrayBuffer()]);
  return new Uint8Array(compressed);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
  crcTable ??= makeCrcTable();
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function makeCrcTable(): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}
