import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageSize } from "~/models/image-size";

const blank = () => sharp({ create: { width: 37, height: 21, channels: 3, background: "#341539" } });

describe("imageSize", () => {
  it.each([
    ["png", () => blank().png().toBuffer()],
    ["jpeg", () => blank().jpeg().toBuffer()],
    ["progressive jpeg", () => blank().jpeg({ progressive: true }).toBuffer()],
    ["gif", () => blank().gif().toBuffer()],
    ["lossy webp", () => blank().webp().toBuffer()],
    ["lossless webp", () => blank().webp({ lossless: true }).toBuffer()],
    [
      "webp with alpha (VP8X)",
      () =>
        sharp({ create: { width: 37, height: 21, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } })
          .webp()
          .toBuffer(),
    ],
    ["avif", () => blank().avif().toBuffer()],
  ])("reads %s", async (_name, make) => {
    expect(imageSize(new Uint8Array(await make()))).toEqual({ width: 37, height: 21 });
  });

  it("says nothing for junk, truncated headers and zero sizes", () => {
    expect(imageSize(new Uint8Array(0))).toBeNull();
    expect(imageSize(new TextEncoder().encode("WEBVTT\n\n"))).toBeNull();
    expect(imageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]))).toBeNull();
    const png = new Uint8Array(24);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    expect(imageSize(png)).toBeNull();
  });
});
