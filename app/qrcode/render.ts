import { qrLayout } from "./layout";
import { LOGO_BOX, logoBackground, logoMark } from "./logo";
import { DEFAULT_QR_LOOK, LOOK_COLOURS, type QrLook } from "./looks";
import { encodePng } from "./png";
import { rasterise } from "./raster";

/**
 * A QR code image for a public link: 300×300, error correction H, a quiet zone of 4 modules, the
 * Muselingo logo in the middle (docs/decisions/013-qr-code-images.md), black on white by default or
 * the spec's white on black (decision 115). The SVG and the PNG come from one layout, so they are the
 * same picture. Pure: web APIs only, runs in Workers and in Node.
 */
export function qrSvg(data: string, look: QrLook = DEFAULT_QR_LOOK): string {
  const layout = qrLayout(data);
  const colours = LOOK_COLOURS[look];
  const { size, moduleSize: m, logo } = layout;
  const modules = layout.runs.map((r) => `M${r.x} ${r.y}h${r.width}v${m}h-${r.width}z`).join("");
  const scale = round(logo.size / LOGO_BOX);
  const points = logoMark.points.map(([x, y]) => `${x},${y}`).join(" ");
  const { width, height, rx } = logoBackground;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<rect width="${size}" height="${size}" fill="${colours.ground}"/>` +
    `<path fill="${colours.modules}" shape-rendering="crispEdges" d="${modules}"/>` +
    `<g transform="translate(${logo.x} ${logo.y}) scale(${scale})">` +
    `<rect width="${width}" height="${height}" rx="${rx}" fill="${colours.logo.ground}"/>` +
    `<polygon points="${points}" fill="${colours.logo.mark}"/>` +
    `</g></svg>`
  );
}

export function qrPng(data: string, look: QrLook = DEFAULT_QR_LOOK): Promise<Uint8Array> {
  return encodePng(rasterise(qrLayout(data), look));
}

function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
