import jsQR from "jsqr";
import { PNG } from "pngjs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { qrLayout, QUIET_ZONE_MODULES } from "~/qrcode/layout";
import { qrPng, qrSvg } from "~/qrcode/render";
import { zbarDecode, zbarDecodeEach } from "../support/zbar";

// Issue 29: zbar decoded 0 of 30 served codes (white on black). Ten addresses as the app prints them (an
// 8-character link from LINK_ALPHABET after bases of every usual length, article and tour codes), each served
// as PNG and as SVG: the default look must be read by zbar as shipped and by jsQR without its inversion pass.
const BASES = [
  "http://localhost:8787",
  "https://example.org",
  "https://muselingo.example.workers.dev",
  "https://www.musee-archeologique-de-la-ville.fr",
  "https://collections.musee-des-beaux-arts-et-d-archeologie.example.org/visites/parcours-permanent",
];
const ADDRESSES = BASES.flatMap((base, i) => [
  `${base}/r/${"k3j9xq2m".slice(i)}${"abcdefgh".slice(0, i)}`,
  `${base}/t/${"zz7w4p9n".slice(i)}${"23456789".slice(0, i)}`,
]);

/** The SVG as a browser or print driver draws it at its own size (300×300), and at twice that. */
async function svgToPng(svg: string, density: number): Promise<Uint8Array> {
  return new Uint8Array(await sharp(Buffer.from(svg), { density }).flatten({ background: "#808080" }).png().toBuffer());
}

function jsQrNoInversion(png: Uint8Array): string | undefined {
  const image = PNG.sync.read(Buffer.from(png));
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height, { inversionAttempts: "dontInvert" })?.data;
}

describe("the default look (dark on light) is read by every reader", () => {
  it("zbar reads 10 of 10 PNG codes, exactly", async () => {
    // One zbarimg run for the ten images; each image's codes apart.
    const read = zbarDecodeEach(await Promise.all(ADDRESSES.map((address) => qrPng(address))));
    expect(read).toEqual(ADDRESSES.map((address) => [address]));
  });

  it("zbar reads 10 of 10 SVG codes, rasterised at 300 px and at 600 px", async () => {
    for (const density of [72, 144]) {
      const read = zbarDecodeEach(await Promise.all(ADDRESSES.map((address) => svgToPng(qrSvg(address), density))));
      expect(read, `density ${density}`).toEqual(ADDRESSES.map((address) => [address]));
    }
  });

  it("jsQR reads them without trying the inverted image", async () => {
    for (const address of ADDRESSES) {
      expect(jsQrNoInversion(await qrPng(address))).toBe(address);
      expect(jsQrNoInversion(await svgToPng(qrSvg(address), 72))).toBe(address);
    }
  });

  it("keeps a light quiet zone of 4 modules or more on every side, however long the address", async () => {
    for (const address of [...ADDRESSES, `https://example.org/${"x".repeat(140)}/r/k3j9xq2m`]) {
      const { moduleCount, moduleSize, origin } = qrLayout(address);
      expect(origin, address).toBeGreaterThanOrEqual(QUIET_ZONE_MODULES * moduleSize);
      expect(300 - origin - moduleCount * moduleSize, address).toBeGreaterThanOrEqual(QUIET_ZONE_MODULES * moduleSize);
      const image = PNG.sync.read(Buffer.from(await qrPng(address)));
      // Every pixel of the quiet zone is white: nothing dark touches the code from outside (gathered, then
      // compared once: an expect per pixel cost seconds).
      const dark: string[] = [];
      for (let y = 0; y < 300; y++) {
        for (let x = 0; x < 300; x++) {
          const inCode = x >= origin && x < origin + moduleCount * moduleSize && y >= origin && y < origin + moduleCount * moduleSize;
          if (inCode) continue;
          const i = (y * 300 + x) * 4;
          if (image.data[i] !== 255 || image.data[i + 1] !== 255 || image.data[i + 2] !== 255)
            dark.push(`${x},${y}: ${image.data[i]},${image.data[i + 1]},${image.data[i + 2]}`);
        }
      }
      expect(dark.slice(0, 10), `${address}: ${dark.length} pixels of the quiet zone are not white`).toEqual([]);
    }
  });
});

describe("the spec's look (white on black), kept on request", () => {
  it("is what zbar as shipped misses, and reads once told to try inverted codes", async () => {
    const png = await qrPng(ADDRESSES[0]!, "light-on-dark");
    const image = PNG.sync.read(Buffer.from(png));
    expect([...image.data.subarray(0, 3)]).toEqual([0, 0, 0]);
    expect(zbarDecode(png)).toEqual([]);
    // The batched reader says the same, image by image.
    expect(zbarDecodeEach([png, await qrPng(ADDRESSES[0]!)])).toEqual([[], [ADDRESSES[0]]]);
    expect(zbarDecode(png, { inverted: true })).toEqual([ADDRESSES[0]]);
    expect(zbarDecode(await svgToPng(qrSvg(ADDRESSES[1]!, "light-on-dark"), 72), { inverted: true })).toEqual([ADDRESSES[1]]);
  });
});
