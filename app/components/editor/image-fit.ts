// The pure half of fitting an image under the upload limit before it is sent (spec §5: 200 KB). The
// browser half (image-resize.ts) decodes and encodes; this module only decides the next attempt, so the
// search is tested in node, where there is no canvas.

export const IMAGE_MAX_BYTES = 200 * 1024;
/** Larger than any phone screen shows the image at; a bigger source is scaled down first. */
export const MAX_DIMENSION = 2048;
/** Below this the image is no longer worth showing: give up rather than send a thumbnail. */
export const MIN_DIMENSION = 320;
export const START_QUALITY = 0.85;
export const MIN_QUALITY = 0.5;
const QUALITY_STEP = 0.1;
/** Quality restarts here after a shrink: a smaller image at minimum quality looks worse than needed. */
const SHRUNK_QUALITY = 0.75;
/** Every encode costs a moment of the main thread, so the search is bounded. */
export const MAX_ATTEMPTS = 12;

export interface FitStep {
  width: number;
  height: number;
  quality: number;
  attempt: number;
}

export function fitsBudget(bytes: number, budget = IMAGE_MAX_BYTES): boolean {
  return bytes <= budget;
}

/** The first attempt: the source scaled so its longest side is at most MAX_DIMENSION. */
export function firstFitStep(width: number, height: number): FitStep | null {
  if (!(width > 0 && height > 0)) return null;
  const scale = Math.min(1, MAX_DIMENSION / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)), quality: START_QUALITY, attempt: 1 };
}

/**
 * What to try after `step` gave `bytes` over the budget, or null to give up. Lower the quality first;
 * at the minimum quality, shrink the sides by the square root of how far over the budget the result
 * was (bytes grow roughly with area), by at least 10 % and at most half.
 */
export function nextFitStep(step: FitStep, bytes: number, budget = IMAGE_MAX_BYTES): FitStep | null {
  if (fitsBudget(bytes, budget) || step.attempt >= MAX_ATTEMPTS) return null;
  const attempt = step.attempt + 1;
  const lowered = Math.round((step.quality - QUALITY_STEP) * 100) / 100;
  if (lowered >= MIN_QUALITY) return { ...step, quality: lowered, attempt };
  const factor = Math.min(0.9, Math.max(0.5, Math.sqrt(budget / bytes) * 0.95));
  const width = Math.round(step.width * factor);
  const height = Math.round(step.height * factor);
  if (Math.max(width, height) < MIN_DIMENSION) return null;
  return { width, height, quality: SHRUNK_QUALITY, attempt };
}

/** SVG can carry scripts and is refused before any upload, whatever the browser says its type is. */
export function isSvgFile(file: { name: string; type: string }): boolean {
  return file.type.toLowerCase() === "image/svg+xml" || /\.svgz?$/i.test(file.name.trim());
}

/** The re-encoded file's name: the original's stem with the new format's extension. */
export function encodedFileName(original: string, mime: "image/webp" | "image/jpeg"): string {
  const stem = original.replace(/\.[^./\\]*$/, "").trim() || "image";
  return `${stem}.${mime === "image/webp" ? "webp" : "jpg"}`;
}
