import { readdirSync, readFileSync } from "node:fs";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { qrLayout } from "~/qrcode/layout";
import { encodePng } from "~/qrcode/png";
import { qrPng, qrSvg } from "~/qrcode/render";

const LONG_BASE = "https://collections.musee-des-beaux-arts-et-d-archeologie.example.org/visites/parcours-permanent";
const samples = [
  "https://example.org/r/AB3xk9Qz",
  "http://localhost:8787/r/ZZZZZZZZ",
  `${LONG_BASE}/r/k3J9xQ2m`,
  // 177 bytes, version 14: near the longest before qrcode-svg's version-15 gap (decision 013).
  `${LONG_BASE}/departement-des-antiquites-egyptiennes/salle-des-sarcophages/niveau-2/r/k3J9xQ2m`,
];

interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

/** jsqr finds a code (inverted ones above all) more reliably with a light border around the whole image. */
function padWhite(image: Rgba, border: number): Rgba {
  const width = image.width + 2 * border;
  const height = image.height + 2 * border;
  const data = new Uint8Array(width * height * 4).fill(255);
  for (let y = 0; y < image.height; y++) {
    const row = image.data.subarray(y * image.width * 4, (y + 1) * image.width * 4);
    data.set(row, ((y + border) * width + border) * 4);
  }
  return { width, height, data };
}

function decode(image: Rgba): string | undefined {
  const padded = padWhite(image, Math.round(image.width / 10));
  const clamped = new Uint8ClampedArray(padded.data.buffer, padded.data.byteOffset, padded.data.length);
  return jsQR(clamped, padded.width, padded.height, { inversionAttempts: "attemptBoth" })?.data;
}

function readPng(bytes: Uint8Array): Rgba {
  const png = PNG.sync.read(Buffer.from(bytes));
  return { width: png.width, height: png.height, data: new Uint8Array(png.data) };
}

function pixel(image: Rgba, x: number, y: number): [number, number, number] {
  const i = (y * image.width + x) * 4;
  return [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
}

async function svgToRgba(svg: string, density: number): Promise<Rgba> {
  const { data, info } = await sharp(Buffer.from(svg), { density }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

describe("qrPng", () => {
  it.each(samples)("decodes back to %s", async (data) => {
    expect(decode(readPng(await qrPng(data)))).toBe(data);
  });

  it("is a 300×300 PNG, white by default: black modules, a pale logo with the purple M, white corners round it", async () => {
    const bytes = await qrPng(samples[0]!);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const image = readPng(bytes);
    expect([image.width, image.height]).toEqual([300, 300]);
    expect(pixel(image, 0, 0)).toEqual([255, 255, 255]);

    const { origin, moduleSize, logo } = qrLayout(samples[0]!);
    // The top-left finder pattern's outer ring is drawn: black.
    expect(pixel(image, origin + 1, origin + 1)).toEqual([0, 0, 0]);
    const at = (u: number, v: number) => pixel(image, Math.floor(logo.x + (u * logo.size) / 64), Math.floor(logo.y + (v * logo.size) / 64));
    expect(at(32, 6)).toEqual([0xf1, 0xeb, 0xf3]);
    expect(at(17.5, 32)).toEqual([0x34, 0x15, 0x39]);
    // The rounded square's corner and the cleared margin around the logo are the ground, white.
    expect(at(0.5, 0.5)).toEqual([255, 255, 255]);
    expect(pixel(image, logo.x - 2, logo.y + Math.floor(logo.size / 2))).toEqual([255, 255, 255]);
    expect(moduleSize).toBeGreaterThan(1);
  });

  it("draws the spec's look on request: white modules on black, the purple logo with a white M", async () => {
    const image = readPng(await qrPng(samples[0]!, "light-on-dark"));
    expect(pixel(image, 0, 0)).toEqual([0, 0, 0]);
    const { origin, logo } = qrLayout(samples[0]!);
    expect(pixel(image, origin + 1, origin + 1)).toEqual([255, 255, 255]);
    const at = (u: number, v: number) => pixel(image, Math.floor(logo.x + (u * logo.size) / 64), Math.floor(logo.y + (v * logo.size) / 64));
    expect(at(32, 6)).toEqual([0x34, 0x15, 0x39]);
    expect(at(17.5, 32)).toEqual([255, 255, 255]);
    expect(at(0.5, 0.5)).toEqual([0, 0, 0]);
  });
});

describe("qrSvg", () => {
  it.each(samples)("decodes back to %s once rasterised", async (data) => {
    expect(decode(await svgToRgba(qrSvg(data), 144))).toBe(data);
  });

  it.each(["dark-on-light", "light-on-dark"] as const)("is the same picture as the PNG (%s)", async (look) => {
    const svg = qrSvg(samples[2]!, look);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="300" height="300" viewBox="0 0 300 300">/);
    const fromSvg = await svgToRgba(svg, 72);
    const fromPng = readPng(await qrPng(samples[2]!, look));
    expect([fromSvg.width, fromSvg.height]).toEqual([300, 300]);

    // Outside the logo, pixel for pixel; the logo's antialiased edges differ slightly between renderers.
    const { logo } = qrLayout(samples[2]!);
    // The mismatches are gathered and compared once (an expect per pixel cost most of the file's time).
    let different = 0;
    const mismatches: string[] = [];
    for (let y = 0; y < 300; y++) {
      for (let x = 0; x < 300; x++) {
        const a = pixel(fromSvg, x, y);
        const b = pixel(fromPng, x, y);
        const inLogo = x >= logo.x && x < logo.x + logo.size && y >= logo.y && y < logo.y + logo.size;
        if (inLogo) {
          if (Math.max(...a.map((v, i) => Math.abs(v - b[i]!))) > 64) different++;
        } else if (a.some((v, i) => v !== b[i])) {
          mismatches.push(`pixel ${x},${y}: ${a.join(",")} ≠ ${b.join(",")}`);
        }
      }
    }
    expect(mismatches.slice(0, 10), `${mismatches.length} pixels differ outside the logo`).toEqual([]);
    expect(different).toBeLessThan(logo.size * 2);
  });

  it("writes only geometry: the data does not appear in it", () => {
    const svg = qrSvg('https://example.org/r/<script>&"');
    expect(svg).not.toContain("script");
    expect(svg.match(/<path /g)).toHaveLength(1);
  });
});

describe("qrLayout", () => {
  // Lengths that give versions 1, 2, 4, 7, 10, 20 and 40 at level H.
  it.each([5, 10, 30, 60, 110, 400, 1200])("keeps the logo off the finder patterns for %i bytes", (length) => {
    const layout = qrLayout("x".repeat(length));
    const { moduleCount: n, moduleSize, origin, hiddenModules, clear, logo } = layout;
    expect(n * moduleSize).toBeLessThanOrEqual(300 - 8 * moduleSize); // a quiet zone of four modules at least
    expect(hiddenModules % 2).toBe(1);
    expect(hiddenModules ** 2).toBeLessThanOrEqual(0.6 * 0.3 * n * n);
    // The cleared square starts after the finder pattern and its separator (8 modules) on every side.
    const first = (clear.x - origin) / moduleSize;
    expect(first).toBeGreaterThanOrEqual(8);
    expect(first + hiddenModules).toBeLessThanOrEqual(n - 8);
    expect(clear.x + clear.size / 2).toBe(origin + (n * moduleSize) / 2);
    expect(logo.size).toBe(clear.size - 16);
    expect(logo.size).toBeGreaterThan(0);
    for (const run of layout.runs) {
      const overlaps = run.y >= clear.y && run.y < clear.y + clear.size && run.x < clear.x + clear.size && run.x + run.width > clear.x;
      expect(overlaps).toBe(false);
    }
  });
});

describe("encodePng", () => {
  it("writes pixels that a PNG decoder reads back", async () => {
    const rgb = Uint8Array.from({ length: 3 * 2 * 3 }, (_, i) => (i * 37) % 256);
    const rgbImage = readPng(await encodePng({ width: 3, height: 2, channels: 3, pixels: rgb }));
    expect([rgbImage.width, rgbImage.height]).toEqual([3, 2]);
    expect([...rgbImage.data].filter((_, i) => i % 4 !== 3)).toEqual([...rgb]);

    const gray = Uint8Array.from([0, 64, 128, 255, 1, 2, 3, 4]);
    const grayImage = readPng(await encodePng({ width: 4, height: 2, channels: 1, pixels: gray }));
    expect([...grayImage.data].filter((_, i) => i % 4 === 0)).toEqual([...gray]);
  });

  it("refuses pixels that do not fit the size", async () => {
    await expect(encodePng({ width: 2, height: 2, channels: 3, pixels: new Uint8Array(11) })).rejects.toThrow(RangeError);
  });
});

describe("app/qrcode runs in Workers", () => {
  it("uses web APIs only: no Node imports, no Buffer, no require", () => {
    const dir = new URL("../../app/qrcode/", import.meta.url);
    for (const file of readdirSync(dir)) {
      const source = readFileSync(new URL(file, dir), "utf8");
      expect(source, file).not.toMatch(/from "node:|\bBuffer\b|\brequire\(|process\./);
      for (const [, specifier] of source.matchAll(/from "([^"]+)"/g)) {
        expect(["qrcode-svg"].includes(specifier!) || specifier!.startsWith("./"), `${file} imports ${specifier}`).toBe(true);
      }
    }
  });
});
