import { describe, expect, it } from "vitest";
import { animate } from "~/components/landing/fireworks";
import { drawFlag, FLAG_SHAPES, FLAGS, GRID_H, GRID_W } from "~/components/landing/flags";

type Call = { name: string; args: unknown[] };

/** A 2D context that records every method call and property set, and draws nothing. */
function recorder() {
  const calls: Call[] = [];
  const target: Record<string, unknown> = {};
  const g = new Proxy(target, {
    get: (_, name: string) => (name in target ? target[name] : (...args: unknown[]) => void calls.push({ name, args })),
    set: (_, name: string, value) => {
      calls.push({ name: `set ${name}`, args: [value] });
      target[name] = value;
      return true;
    },
  });
  return { g, calls };
}

const colours = (calls: Call[]) =>
  new Set(calls.filter((c) => c.name === "set fillStyle" || c.name === "set strokeStyle").map((c) => String(c.args[0]).toLowerCase()));

describe("fireworks flags", () => {
  it("are the twenty flags of the languages shown, each with its own drawing", () => {
    expect(FLAGS).toHaveLength(20);
    expect(new Set(FLAGS.map((code) => JSON.stringify(FLAG_SHAPES[code]))).size).toBe(20);
    for (const code of FLAGS) expect(code, code).toMatch(/^[a-z]{2}$/);
  });

  // Emoji flags draw as boxes or letter pairs where no flag font is installed (Windows, most Linux):
  // the burst must never depend on a font.
  it("draw every sprite with paths, never with text or a font", () => {
    const sprites: ReturnType<typeof recorder>[] = [];
    const page = recorder();
    const make = () => {
      const r = recorder();
      sprites.push(r);
      return { getContext: () => r.g } as unknown as OffscreenCanvas;
    };
    let frames = 0;
    const count = animate(
      page.g as unknown as CanvasRenderingContext2D,
      { width: 1280, height: 800, scale: 2 },
      make,
      (cb) => frames++ < 3 && cb(),
      () => {},
    );
    expect(count).toBe(170);
    // One sprite per flag drawn in this burst (random picks among the 20).
    expect(sprites.length).toBeGreaterThan(10);
    for (const { calls } of [...sprites, page]) {
      expect(calls.filter((c) => /fillText|strokeText|measureText|set font/.test(c.name))).toEqual([]);
    }
    for (const { calls } of sprites) {
      expect(calls.some((c) => c.name === "fillRect" || c.name === "fill")).toBe(true);
      expect(calls.filter((c) => c.name === "save")).toHaveLength(calls.filter((c) => c.name === "restore").length);
    }
    expect(page.calls.filter((c) => c.name === "drawImage").length).toBeGreaterThan(100);
  });

  it("draw each flag in its colours, inside its 3:2 rectangle", () => {
    const palette: Record<string, string[]> = {
      fr: ["#0055a4", "#ffffff", "#ef4135"],
      de: ["#000000", "#dd0000", "#ffce00"],
      ua: ["#0057b7", "#ffd700"],
      jp: ["#ffffff", "#bc002d"],
      in: ["#ff9933", "#ffffff", "#138808", "#000080"],
    };
    for (const [code, expected] of Object.entries(palette)) {
      const { g, calls } = recorder();
      drawFlag(g as unknown as CanvasRenderingContext2D, code, 10, 20, 42);
      for (const colour of expected) expect(colours(calls), `${code} ${colour}`).toContain(colour);
      // Placed at (10, 20), scaled to 42 px wide, clipped to the flag.
      expect(calls.find((c) => c.name === "translate")?.args).toEqual([10, 20]);
      expect(calls.find((c) => c.name === "scale")?.args).toEqual([42 / GRID_W, 42 / GRID_W]);
      expect(calls.map((c) => c.name)).toContain("clip");
    }
    for (const code of FLAGS) {
      for (const shape of FLAG_SHAPES[code]!) {
        const xs = shape.k === "rect" ? [shape.x, shape.x + shape.w] : "p" in shape ? shape.p.filter((_, i) => i % 2 === 0) : [shape.x];
        const ys = shape.k === "rect" ? [shape.y, shape.y + shape.h] : "p" in shape ? shape.p.filter((_, i) => i % 2 === 1) : [shape.y];
        for (const x of xs) expect(x >= 0 && x <= GRID_W + 1e-9, `${code} x=${x}`).toBe(true);
        for (const y of ys) expect(y >= 0 && y <= GRID_H + 1e-9, `${code} y=${y}`).toBe(true);
      }
    }
  });

  it("draw nothing for an unknown code", () => {
    const { g, calls } = recorder();
    drawFlag(g as unknown as CanvasRenderingContext2D, "🇫🇷", 0, 0, 42);
    drawFlag(g as unknown as CanvasRenderingContext2D, "__proto__", 0, 0, 42);
    expect(calls).toEqual([]);
  });
});
