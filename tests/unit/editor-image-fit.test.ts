import { describe, expect, it } from "vitest";
import {
  encodedFileName,
  firstFitStep,
  fitsBudget,
  IMAGE_MAX_BYTES,
  isSvgFile,
  MAX_ATTEMPTS,
  MAX_DIMENSION,
  MIN_DIMENSION,
  MIN_QUALITY,
  nextFitStep,
  START_QUALITY,
  type FitStep,
} from "~/components/editor/image-fit";

describe("image fitting", () => {
  it("has the spec's 200 KB budget, limit included", () => {
    expect(IMAGE_MAX_BYTES).toBe(204_800);
    expect(fitsBudget(204_800)).toBe(true);
    expect(fitsBudget(204_801)).toBe(false);
  });

  it("starts at the source size, or scaled so the longest side is MAX_DIMENSION", () => {
    expect(firstFitStep(800, 600)).toEqual({ width: 800, height: 600, quality: START_QUALITY, attempt: 1 });
    expect(firstFitStep(8000, 4000)).toEqual({ width: MAX_DIMENSION, height: MAX_DIMENSION / 2, quality: START_QUALITY, attempt: 1 });
    expect(firstFitStep(1000, 5000)).toMatchObject({ width: 410, height: MAX_DIMENSION });
    expect(firstFitStep(0, 100)).toBeNull();
    expect(firstFitStep(NaN, 100)).toBeNull();
  });

  it("stops as soon as the result fits", () => {
    expect(nextFitStep(firstFitStep(800, 600)!, 100_000)).toBeNull();
  });

  it("lowers the quality first, keeping the size", () => {
    const next = nextFitStep(firstFitStep(800, 600)!, 300_000)!;
    expect(next).toEqual({ width: 800, height: 600, quality: 0.75, attempt: 2 });
  });

  it("shrinks the sides once the quality is at its floor, by 10 % to 50 %", () => {
    const atFloor: FitStep = { width: 2000, height: 1000, quality: MIN_QUALITY, attempt: 5 };
    const slightly = nextFitStep(atFloor, 210_000)!;
    expect(slightly.width).toBe(1800);
    expect(slightly.quality).toBeGreaterThan(MIN_QUALITY);
    const far = nextFitStep(atFloor, 10_000_000)!;
    expect(far).toMatchObject({ width: 1000, height: 500 });
    const between = nextFitStep(atFloor, 409_600)!;
    expect(between.width).toBe(Math.round(2000 * Math.sqrt(0.5) * 0.95));
  });

  it("gives up below the smallest useful size", () => {
    expect(nextFitStep({ width: 400, height: 300, quality: MIN_QUALITY, attempt: 3 }, 5_000_000)).toBeNull();
    expect(MIN_DIMENSION).toBeGreaterThan(0);
  });

  it("always ends: a result that never fits runs out of attempts", () => {
    let step: FitStep | null = firstFitStep(100_000, 100_000);
    let attempts = 0;
    while (step) {
      attempts++;
      step = nextFitStep(step, 50_000_000);
    }
    expect(attempts).toBeLessThanOrEqual(MAX_ATTEMPTS);
  });

  it("every step tried is smaller or of lower quality than the one before", () => {
    let step = firstFitStep(4000, 3000)!;
    for (let next = nextFitStep(step, 1_000_000); next; step = next, next = nextFitStep(step, 1_000_000)) {
      const smaller = next.width < step.width;
      expect(smaller || next.quality < step.quality).toBe(true);
      expect(next.quality).toBeGreaterThanOrEqual(MIN_QUALITY);
      expect(Math.max(next.width, next.height)).toBeGreaterThanOrEqual(MIN_DIMENSION);
    }
  });

  it("recognises SVG by type or name, whatever the case", () => {
    expect(isSvgFile({ name: "logo.svg", type: "" })).toBe(true);
    expect(isSvgFile({ name: "logo.SVGZ", type: "application/octet-stream" })).toBe(true);
    expect(isSvgFile({ name: "logo", type: "image/SVG+xml" })).toBe(true);
    expect(isSvgFile({ name: "photo.jpg", type: "image/jpeg" })).toBe(false);
  });

  it("names the re-encoded file after the original", () => {
    expect(encodedFileName("Joconde.PNG", "image/webp")).toBe("Joconde.webp");
    expect(encodedFileName("salle.1.jpeg", "image/jpeg")).toBe("salle.1.jpg");
    expect(encodedFileName("", "image/jpeg")).toBe("image.jpg");
    expect(encodedFileName(".png", "image/webp")).toBe("image.webp");
  });
});
