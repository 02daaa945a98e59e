// The fireworks' flags, drawn with canvas paths rather than emoji: flag emoji need a colour-emoji font with
// flag sequences, which Windows and many Linux desktops lack (they show boxes or letter pairs). Each flag
// is a short list of shapes on a 30 × 20 grid (3:2, one shape per stripe, disc, star…), simplified to what
// reads at 21–42 px: no coats of arms or lettering. A few hundred bytes of data; no font, no image file.

export const GRID_W = 30;
export const GRID_H = 20;

export type Shape =
  | { k: "rect"; x: number; y: number; w: number; h: number; c: string }
  | { k: "circle"; x: number; y: number; r: number; c: string; from?: number; to?: number }
  | { k: "ring"; x: number; y: number; r: number; w: number; c: string }
  | { k: "star"; x: number; y: number; r: number; c: string; a?: number }
  | { k: "poly"; p: number[]; c: string }
  | { k: "line"; p: number[]; w: number; c: string };

const rect = (x: number, y: number, w: number, h: number, c: string): Shape => ({ k: "rect", x, y, w, h, c });
/** Equal horizontal stripes, top to bottom. */
const rows = (...colours: string[]): Shape[] => colours.map((c, i) => rect(0, (GRID_H * i) / colours.length, GRID_W, GRID_H / colours.length, c));
/** Equal vertical stripes, hoist to fly. */
const columns = (...colours: string[]): Shape[] => colours.map((c, i) => rect((GRID_W * i) / colours.length, 0, GRID_W / colours.length, GRID_H, c));

/** Three short bars across a direction (a trigram of the Korean flag, all unbroken: simplified). */
function bars(x: number, y: number, angle: number): Shape[] {
  const [dx, dy] = [Math.cos(angle), Math.sin(angle)];
  const [px, py] = [-dy, dx];
  return [-1, 0, 1].map((i) => ({
    k: "line" as const,
    p: [x + dx * i * 0.9 - px * 1.6, y + dy * i * 0.9 - py * 1.6, x + dx * i * 0.9 + px * 1.6, y + dy * i * 0.9 + py * 1.6],
    w: 0.55,
    c: "#000000",
  }));
}

/** Twelve spokes of India's wheel (the real one has 24: too fine at this size). */
const spokes = (): Shape[] =>
  Array.from({ length: 12 }, (_, i) => {
    const a = (i * Math.PI) / 6;
    return { k: "line" as const, p: [15, 10, 15 + Math.cos(a) * 2.8, 10 + Math.sin(a) * 2.8], w: 0.25, c: "#000080" };
  });

const GREECE: Shape[] = [
  ...Array.from({ length: 9 }, (_, i) => rect(0, (GRID_H * i) / 9, GRID_W, GRID_H / 9, i % 2 ? "#ffffff" : "#0d5eaf")),
  rect(0, 0, (GRID_H * 5) / 9, (GRID_H * 5) / 9, "#0d5eaf"),
  rect((GRID_H * 2) / 9, 0, GRID_H / 9, (GRID_H * 5) / 9, "#ffffff"),
  rect(0, (GRID_H * 2) / 9, (GRID_H * 5) / 9, GRID_H / 9, "#ffffff"),
];

/** Simplified flags by ISO 3166 code, in the order the fireworks pick from. */
export const FLAG_SHAPES: Record<string, Shape[]> = {
  fr: columns("#0055a4", "#ffffff", "#ef4135"),
  gb: [
    rect(0, 0, 30, 20, "#012169"),
    { k: "line", p: [0, 0, 30, 20], w: 4, c: "#ffffff" },
    { k: "line", p: [0, 20, 30, 0], w: 4, c: "#ffffff" },
    { k: "line", p: [0, 0, 30, 20], w: 1.3, c: "#c8102e" },
    { k: "line", p: [0, 20, 30, 0], w: 1.3, c: "#c8102e" },
    rect(11.7, 0, 6.6, 20, "#ffffff"),
    rect(0, 6.7, 30, 6.6, "#ffffff"),
    rect(13, 0, 4, 20, "#c8102e"),
    rect(0, 8, 30, 4, "#c8102e"),
  ],
  es: [rect(0, 0, 30, 20, "#aa151b"), rect(0, 5, 30, 10, "#f1bf00")],
  de: rows("#000000", "#dd0000", "#ffce00"),
  it: columns("#009246", "#ffffff", "#ce2b37"),
  pt: [
    rect(0, 0, 12, 20, "#006600"),
    rect(12, 0, 18, 20, "#ff0000"),
    { k: "ring", x: 12, y: 10, r: 3.6, w: 1, c: "#ffcc00" },
    rect(10.6, 7.8, 2.8, 4, "#ffffff"),
    rect(11.1, 8.3, 1.8, 3, "#ff0000"),
  ],
  jp: [rect(0, 0, 30, 20, "#ffffff"), { k: "circle", x: 15, y: 10, r: 6, c: "#bc002d" }],
  cn: [
    rect(0, 0, 30, 20, "#ee1c25"),
    { k: "star", x: 5, y: 5, r: 3, c: "#ffff00" },
    { k: "star", x: 10, y: 2, r: 1, c: "#ffff00" },
    { k: "star", x: 12, y: 4, r: 1, c: "#ffff00" },
    { k: "star", x: 12, y: 7, r: 1, c: "#ffff00" },
    { k: "star", x: 10, y: 9, r: 1, c: "#ffff00" },
  ],
  kr: [
    rect(0, 0, 30, 20, "#ffffff"),
    { k: "circle", x: 15, y: 10, r: 5, c: "#cd2e3a", from: Math.PI, to: 2 * Math.PI },
    { k: "circle", x: 15, y: 10, r: 5, c: "#0047a0", from: 0, to: Math.PI },
    { k: "circle", x: 12.5, y: 10, r: 2.5, c: "#cd2e3a" },
    { k: "circle", x: 17.5, y: 10, r: 2.5, c: "#0047a0" },
    ...bars(6, 4.5, Math.atan2(5.5, 9)),
    ...bars(24, 15.5, Math.atan2(5.5, 9)),
    ...bars(24, 4.5, Math.atan2(-5.5, 9)),
    ...bars(6, 15.5, Math.atan2(-5.5, 9)),
  ],
  sa: [
    rect(0, 0, 30, 20, "#006c35"),
    { k: "line", p: [8, 8.5, 10, 6, 12, 8.5, 14, 6, 16, 8.5, 18, 6, 20, 8.5, 22, 6], w: 0.9, c: "#ffffff" },
    rect(7, 13.2, 16, 0.9, "#ffffff"),
    rect(21, 12.2, 0.9, 2.9, "#ffffff"),
  ],
  py: [...rows("#d52b1e", "#ffffff", "#0038a8"), { k: "ring", x: 15, y: 10, r: 2.6, w: 0.6, c: "#1a6a2f" }, { k: "star", x: 15, y: 10, r: 1.2, c: "#fedd00" }],
  mg: [rect(0, 0, 10, 20, "#ffffff"), rect(10, 0, 20, 10, "#fc3d32"), rect(10, 10, 20, 10, "#007e3a")],
  al: [
    rect(0, 0, 30, 20, "#e41e20"),
    // A double-headed eagle reduced to its silhouette: feathered wings, body, tail, two heads facing out.
    { k: "poly", p: [14, 8, 7, 3.8, 7.8, 5.6, 6.3, 6.4, 7.6, 7.6, 6.5, 8.9, 8.2, 9.8, 7.6, 11.3, 9.6, 11.4, 10.2, 12.8, 13.8, 12], c: "#000000" },
    { k: "poly", p: [16, 8, 23, 3.8, 22.2, 5.6, 23.7, 6.4, 22.4, 7.6, 23.5, 8.9, 21.8, 9.8, 22.4, 11.3, 20.4, 11.4, 19.8, 12.8, 16.2, 12], c: "#000000" },
    { k: "poly", p: [13.6, 7, 16.4, 7, 16.4, 12.6, 17.4, 16.2, 15, 14.8, 12.6, 16.2, 13.6, 12.6], c: "#000000" },
    { k: "poly", p: [14.6, 7.4, 13.4, 4.6, 11.8, 4.2, 10.6, 4.9, 12.2, 5.3, 12.8, 7.4], c: "#000000" },
    { k: "poly", p: [15.4, 7.4, 16.6, 4.6, 18.2, 4.2, 19.4, 4.9, 17.8, 5.3, 17.2, 7.4], c: "#000000" },
  ],
  ua: rows("#0057b7", "#ffd700"),
  in: [...rows("#ff9933", "#ffffff", "#138808"), { k: "ring", x: 15, y: 10, r: 2.8, w: 0.45, c: "#000080" }, ...spokes()],
  br: [
    rect(0, 0, 30, 20, "#009c3b"),
    { k: "poly", p: [2.5, 10, 15, 2.2, 27.5, 10, 15, 17.8], c: "#ffdf00" },
    { k: "circle", x: 15, y: 10, r: 5, c: "#002776" },
    { k: "line", p: [10.1, 9, 19.9, 11], w: 0.8, c: "#ffffff" },
  ],
  tr: [
    rect(0, 0, 30, 20, "#e30a17"),
    { k: "circle", x: 11, y: 10, r: 5, c: "#ffffff" },
    { k: "circle", x: 12.25, y: 10, r: 4, c: "#e30a17" },
    { k: "star", x: 17.3, y: 10, r: 2.5, c: "#ffffff", a: Math.PI },
  ],
  gr: GREECE,
  nl: rows("#ae1c28", "#ffffff", "#21468b"),
  pl: rows("#ffffff", "#dc143c"),
};

export const FLAGS = Object.keys(FLAG_SHAPES);

type Context2D = Pick<
  CanvasRenderingContext2D,
  "save" | "restore" | "translate" | "scale" | "beginPath" | "rect" | "clip" | "fill" | "stroke" | "arc" | "moveTo" | "lineTo" | "closePath" | "fillRect"
> & { fillStyle: unknown; strokeStyle: unknown; lineWidth: number; lineCap: CanvasLineCap; lineJoin: CanvasLineJoin };

function path(g: Context2D, points: number[], close: boolean) {
  g.beginPath();
  for (let i = 0; i + 1 < points.length; i += 2) (i === 0 ? g.moveTo : g.lineTo).call(g, points[i]!, points[i + 1]!);
  if (close) g.closePath();
}

function drawShape(g: Context2D, s: Shape) {
  switch (s.k) {
    case "rect":
      g.fillStyle = s.c;
      g.fillRect(s.x, s.y, s.w, s.h);
      return;
    case "circle":
      g.fillStyle = s.c;
      g.beginPath();
      g.arc(s.x, s.y, s.r, s.from ?? 0, s.to ?? 2 * Math.PI);
      g.fill();
      return;
    case "ring":
      g.strokeStyle = s.c;
      g.lineWidth = s.w;
      g.beginPath();
      g.arc(s.x, s.y, s.r, 0, 2 * Math.PI);
      g.stroke();
      return;
    case "star": {
      // Five points; the first one up unless `a` turns it.
      const start = s.a ?? -Math.PI / 2;
      const points: number[] = [];
      for (let i = 0; i < 10; i++) {
        const r = i % 2 ? s.r * 0.382 : s.r;
        const a = start + (i * Math.PI) / 5;
        points.push(s.x + Math.cos(a) * r, s.y + Math.sin(a) * r);
      }
      g.fillStyle = s.c;
      path(g, points, true);
      g.fill();
      return;
    }
    case "poly":
      g.fillStyle = s.c;
      path(g, s.p, true);
      g.fill();
      return;
    case "line":
      g.strokeStyle = s.c;
      g.lineWidth = s.w;
      g.lineCap = "butt";
      g.lineJoin = "round";
      path(g, s.p, false);
      g.stroke();
      return;
  }
}

/**
 * Draws one flag `width` wide (3:2) with its top-left corner at (x, y), clipped to its rectangle and
 * edged with a faint line so white stripes show on a white page. Unknown codes draw nothing.
 */
export function drawFlag(g: Context2D, code: string, x: number, y: number, width: number) {
  if (!Object.prototype.hasOwnProperty.call(FLAG_SHAPES, code)) return;
  const shapes = FLAG_SHAPES[code]!;
  const k = width / GRID_W;
  g.save();
  g.translate(x, y);
  g.scale(k, k);
  g.beginPath();
  g.rect(0, 0, GRID_W, GRID_H);
  g.clip();
  for (const shape of shapes) drawShape(g, shape);
  g.strokeStyle = "rgba(0, 0, 0, 0.3)";
  // Twice a pixel wide: the clip keeps the inner half.
  g.lineWidth = 2 / k;
  g.beginPath();
  g.rect(0, 0, GRID_W, GRID_H);
  g.stroke();
  g.restore();
}
