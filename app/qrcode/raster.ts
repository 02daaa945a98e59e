import { type QrLayout } from "./layout";
import { insidePolygon, insideRoundedRect, LOGO_BOX, logoBackground, logoMark } from "./logo";
import { type RawImage } from "./png";

type Rgb = readonly [number, number, number];

const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];
/** Samples per axis for logo pixels only; modules sit on whole pixels and need none. */
const SUPERSAMPLE = 4;

/** Draws the layout as RGB pixels: black ground, white modules, the logo antialiased. */
export function rasterise(layout: QrLayout): RawImage {
  const { size } = layout;
  const pixels = new Uint8Array(size * size * 3); // zero-filled: black

  for (const run of layout.runs) {
    for (let y = run.y; y < run.y + layout.moduleSize; y++) {
      pixels.fill(255, (y * size + run.x) * 3, (y * size + run.x + run.width) * 3);
    }
  }

  drawLogo(pixels, size, layout.logo);
  return { width: size, height: size, channels: 3, pixels };
}

function drawLogo(pixels: Uint8Array, stride: number, box: QrLayout["logo"]) {
  const background = hexToRgb(logoBackground.fill);
  const mark = hexToRgb(logoMark.fill);
  const unit = LOGO_BOX / box.size; // logo units per pixel
  const samples = SUPERSAMPLE * SUPERSAMPLE;

  for (let py = 0; py < box.size; py++) {
    for (let px = 0; px < box.size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        const y = (py + (sy + 0.5) / SUPERSAMPLE) * unit;
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          const x = (px + (sx + 0.5) / SUPERSAMPLE) * unit;
          const colour = !insideRoundedRect(x, y, logoBackground)
            ? BLACK
            : insidePolygon(x, y, logoMark.points)
              ? mark
              : background;
          r += colour[0];
          g += colour[1];
          b += colour[2];
        }
      }
      const i = ((box.y + py) * stride + box.x + px) * 3;
      pixels[i] = Math.round(r / samples);
      pixels[i + 1] = Math.round(g / samples);
      pixels[i + 2] = Math.round(b / samples);
    }
  }
}

function hexToRgb(hex: string): Rgb {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join("") : digits;
  const n = parseInt(full, 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}
