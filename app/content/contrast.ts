// WCAG 2.2 contrast (1.4.3): the renderer keeps a staff-chosen text colour only when it is readable on the
// article's background, else it uses black or white, whichever reads better (one of them always reaches
// 4.5:1). So a dark-blue-on-purple choice can never make a visitor page unreadable.
import { HEX_COLOR } from "./model";

function channels(hex: string): [number, number, number] {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join("") : digits;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as [number, number, number];
}

function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two #rgb/#rrggbb colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Large text in WCAG's sense: at least 24 px, or 18.66 px (14 pt) bold. */
export function isLargeText(fontSizePx: number, bold: boolean): boolean {
  return fontSizePx >= 24 || (bold && fontSizePx >= 18.66);
}

/** `color` if it meets AA on `background` at this size, else black or white. Unparseable input passes through. */
export function readableColor(color: string, background: string, fontSizePx: number, bold: boolean): string {
  if (!HEX_COLOR.test(color) || !HEX_COLOR.test(background)) return color;
  const needed = isLargeText(fontSizePx, bold) ? 3 : 4.5;
  if (contrastRatio(color, background) >= needed) return color;
  return contrastRatio("#000000", background) >= contrastRatio("#ffffff", background) ? "#000000" : "#ffffff";
}
