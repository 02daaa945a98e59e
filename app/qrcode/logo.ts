/**
 * The Muselingo logo (public/favicon.svg) as plain geometry, so the SVG writer and the PNG rasteriser
 * draw the same shapes: a rounded square and the "M" as one polygon, in a 64×64 box.
 * The polygon is the favicon's path `M14 46V18h7l11 16 11-16h7v28h-7V30l-11 15-11-15v16z` with
 * every relative step resolved to an absolute point.
 */
export type Point = readonly [x: number, y: number];

export const LOGO_BOX = 64;

/** The rounded square; its colours and the "M"'s depend on the look (looks.ts). */
export const logoBackground = { width: 64, height: 64, rx: 14 } as const;

export const logoMark = {
  points: [
    [14, 46],
    [14, 18],
    [21, 18],
    [32, 34],
    [43, 18],
    [50, 18],
    [50, 46],
    [43, 46],
    [43, 30],
    [32, 45],
    [21, 30],
    [21, 46],
  ] as const satisfies readonly Point[],
} as const;
