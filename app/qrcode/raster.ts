import { type QrLayout } from "./layout";
import { LOGO_BOX, logoBackground, logoMark, type Point } from "./logo";
import { LOOK_COLOURS, type QrLook } from "./looks";
import { type RawImage } from "./png";

type Rgb = readonly [number, number, number];

/** Scanlines per pixel row for the logo's antialiasing; modules sit on whole pixels and need none. */
const SUBROWS = 4;

/** Draws the layout as RGB pixels in the look's colours (ground, then the modules), the logo antialiased. */
export function rasterise(layout: QrLayout, look: QrLook): RawImage {
  const { size } = layout;
  const ground = hexToRgb(LOOK_COLOURS[look].ground);
  const modules = hexToRgb(LOOK_COLOURS[look].modules);
  const pixels = new Uint8Array(size * size * 3);
  for (let i = 0; i < pixels.length; i += 3) pixels.set(ground, i);

  for (const run of layout.runs) {
    for (let y = run.y; y < run.y + layout.moduleSize; y++) {
      for (let x = run.x; x < run.x + run.width; x++) pixels.set(modules, (y * size + x) * 3);
    }
  }

  drawLogo(pixels, size, layout.logo, LOOK_COLOURS[look].logo);
  return { width: size, height: size, channels: 3, pixels };
}

/**
 * Antialiased by coverage: each pixel row is cut into SUBROWS scanlines, and on each scanline the
 * exact spans inside the rounded square and inside the "M" add their horizontal overlap with every
 * pixel. Far cheaper than point sampling (about 0.2 ms against 15 ms for 4×4 samples).
 */
function drawLogo(pixels: Uint8Array, stride: number, box: QrLayout["logo"], colours: { ground: string; mark: string }) {
  const background = hexToRgb(colours.ground);
  const mark = hexToRgb(colours.mark);
  const scale = box.size / LOGO_BOX; // px per logo unit
  const square = new Float32Array(box.size);
  const inMark = new Float32Array(box.size);
  const weight = 1 / SUBROWS;

  for (let py = 0; py < box.size; py++) {
    square.fill(0);
    inMark.fill(0);
    for (let s = 0; s < SUBROWS; s++) {
      const y = (py + (s + 0.5) / SUBROWS) / scale;
      const squareSpan = roundedRectSpan(y, logoBackground);
      if (squareSpan) addSpan(square, squareSpan[0] * scale, squareSpan[1] * scale, weight);
      const crossings = polygonCrossings(y, logoMark.points);
      for (let i = 0; i + 1 < crossings.length; i += 2) {
        addSpan(inMark, crossings[i]! * scale, crossings[i + 1]! * scale, weight);
      }
    }
    for (let px = 0; px < box.size; px++) {
      // The "M" lies inside the square, so its coverage is part of the square's.
      // Outside the rounded square (its corners, antialiased edges) the ground already drawn shows through.
      const m = inMark[px]!;
      const inSquare = Math.min(1, square[px]!);
      const bg = Math.max(0, inSquare - m);
      const i = ((box.y + py) * stride + box.x + px) * 3;
      for (let c = 0; c < 3; c++) pixels[i + c] = Math.round(pixels[i + c]! * (1 - inSquare) + background[c]! * bg + mark[c]! * m);
    }
  }
}

/** Adds the overlap of [from, to) (px) with each pixel, times weight. */
function addSpan(cover: Float32Array, from: number, to: number, weight: number) {
  const a = Math.max(0, from);
  const b = Math.min(cover.length, to);
  if (b <= a) return;
  const first = Math.floor(a);
  const last = Math.min(Math.ceil(b) - 1, cover.length - 1);
  if (first === last) {
    cover[first]! += (b - a) * weight;
    return;
  }
  cover[first]! += (first + 1 - a) * weight;
  for (let x = first + 1; x < last; x++) cover[x]! += weight;
  cover[last]! += (b - last) * weight;
}

/** Where the horizontal line at y enters and leaves the rounded square, if it meets it. */
function roundedRectSpan(y: number, r: { width: number; height: number; rx: number }): [number, number] | undefined {
  if (y < 0 || y > r.height) return undefined;
  const dy = Math.max(r.rx - y, y - (r.height - r.rx), 0);
  const inset = r.rx - Math.sqrt(r.rx * r.rx - dy * dy);
  return [inset, r.width - inset];
}

/** The x where the horizontal line at y crosses the polygon's edges, sorted: inside between pairs (even-odd). */
function polygonCrossings(y: number, points: readonly Point[]): number[] {
  const xs: number[] = [];
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i]!;
    const [xj, yj] = points[j]!;
    if (yi > y !== yj > y) xs.push(xi + ((y - yi) * (xj - xi)) / (yj - yi));
  }
  return xs.sort((a, b) => a - b);
}

function hexToRgb(hex: string): Rgb {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join("") : digits;
  const n = parseInt(full, 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}
