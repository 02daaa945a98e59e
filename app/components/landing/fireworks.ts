// The flag fireworks (spec §9): flags burst in from the four edges of the window and slow down.
// Pure particle maths (tested) plus a one-canvas runner (in a worker where possible); loaded with import() only when motion is allowed.
// The flags are drawn with canvas paths (./flags), not emoji, so they show on systems without a flag font.
import { drawFlag, FLAGS, GRID_H, GRID_W } from "./flags";

export { FLAGS };

export const NARROW_MAX = 720;
export const COUNTS = { wide: { side: 35, edge: 50 }, narrow: { side: 15, edge: 20 } } as const;
export const SIZE_MIN = 21;
export const SIZE_MAX = 42;
export const DECAY = 0.97;
export const MIN_STEP = 0.035;

export interface Particle {
  flag: string;
  size: number;
  x: number;
  y: number;
  vx: number;
  vy: number;
}

type Edge = "left" | "right" | "top" | "bottom";

/** Per-edge counts: 35 per side and 50 per top or bottom on wide screens, 15 and 20 up to 720 px. */
export function burstCounts(width: number): Record<Edge, number> {
  const c = width <= NARROW_MAX ? COUNTS.narrow : COUNTS.wide;
  return { left: c.side, right: c.side, top: c.edge, bottom: c.edge };
}

/** Flags start on an edge and head inwards, with a random spread. */
export function createBurst(width: number, height: number, random: () => number = Math.random): Particle[] {
  const particles: Particle[] = [];
  const counts = burstCounts(width);
  for (const edge of Object.keys(counts) as Edge[]) {
    for (let i = 0; i < counts[edge]; i++) {
      const speed = 6 + random() * 10;
      const spread = (random() - 0.5) * speed;
      const size = SIZE_MIN + random() * (SIZE_MAX - SIZE_MIN);
      const flag = FLAGS[Math.floor(random() * FLAGS.length)] ?? FLAGS[0]!;
      const along = random();
      const p: Particle =
        edge === "left"
          ? { flag, size, x: -size, y: along * height, vx: speed, vy: spread }
          : edge === "right"
            ? { flag, size, x: width, y: along * height, vx: -speed, vy: spread }
            : edge === "top"
              ? { flag, size, x: along * width, y: -size, vx: spread, vy: speed }
              : { flag, size, x: along * width, y: height, vx: spread, vy: -speed };
      particles.push(p);
    }
  }
  return particles;
}

/** One frame: move, then slow down by the decay factor. False once the particle has (nearly) stopped. */
export function step(p: Particle): boolean {
  p.x += p.vx;
  p.y += p.vy;
  p.vx *= DECAY;
  p.vy *= DECAY;
  return Math.hypot(p.vx, p.vy) >= MIN_STEP;
}

const MAX_FRAMES = 600;

type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
type Sprite = HTMLCanvasElement | OffscreenCanvas;

/** Flags are drawn once at the largest size into a square this much larger, then scaled. */
const BOX = 1.25;

/** One bitmap per flag, `SIZE_MAX` wide (3:2) in the middle of its square, instead of paths per particle and frame. */
export function sprite(flag: string, scale: number, make: (side: number) => Sprite): Sprite {
  const side = Math.ceil(SIZE_MAX * BOX * scale);
  const c = make(side);
  const g = c.getContext("2d") as Context2D | null;
  if (g) {
    const width = SIZE_MAX * scale;
    drawFlag(g, flag, (side - width) / 2, (side - (width * GRID_H) / GRID_W) / 2, width);
  }
  return c;
}

export interface Stage {
  width: number;
  height: number;
  /** Device pixels per CSS pixel of the canvas. */
  scale: number;
}

/**
 * Animates one burst on a full-window canvas context: one `step` (decay 0.97, minimum step 0.035) and
 * one draw per flag and frame, until every flag has stopped (or 600 frames). Runs in a worker when the
 * browser can hand the canvas over (OffscreenCanvas), on the page otherwise.
 */
export function animate(
  g: Context2D,
  stage: Stage,
  make: (side: number) => Sprite,
  frame: (cb: () => void) => unknown,
  done: () => void,
  random: () => number = Math.random,
) {
  const { width, height, scale } = stage;
  const particles = createBurst(width, height, random);
  const sprites = new Map<string, Sprite>();
  for (const p of particles) if (!sprites.has(p.flag)) sprites.set(p.flag, sprite(p.flag, scale, make));
  g.setTransform(scale, 0, 0, scale, 0, 0);
  const pad = (SIZE_MAX * (BOX - 1)) / 2;
  let moving = particles.map(() => true);
  let ticks = 0;
  const tick = () => {
    ticks++;
    moving = particles.map((p, i) => (moving[i] ? step(p) : false));
    g.clearRect(0, 0, width, height);
    for (const p of particles) {
      // Fades out over its last second of travel.
      const alpha = Math.min(1, Math.hypot(p.vx, p.vy) * 2);
      if (alpha < 0.01) continue;
      const k = p.size / SIZE_MAX;
      g.globalAlpha = alpha;
      g.drawImage(sprites.get(p.flag)!, p.x - pad * k, p.y - pad * k, SIZE_MAX * BOX * k, SIZE_MAX * BOX * k);
    }
    if (moving.some(Boolean) && ticks < MAX_FRAMES) frame(tick);
    else done();
  };
  frame(tick);
  return particles.length;
}

/**
 * Runs one burst over the page on one decorative canvas (aria-hidden, no pointer events) that removes
 * itself when the flags have stopped. Where the browser allows it the canvas is handed to a worker, so
 * the page's main thread does no work per frame at all.
 */
export function runBurst(doc: Document = document): () => void {
  const win = doc.defaultView;
  if (!win) return () => {};
  const canvas = doc.createElement("canvas");
  const stage: Stage = { width: win.innerWidth, height: win.innerHeight, scale: Math.min(2, win.devicePixelRatio || 1) };
  canvas.className = "flag-burst";
  canvas.setAttribute("aria-hidden", "true");
  canvas.width = Math.round(stage.width * stage.scale);
  canvas.height = Math.round(stage.height * stage.scale);
  canvas.style.width = `${stage.width}px`;
  canvas.style.height = `${stage.height}px`;
  canvas.dataset.flags = String(Object.values(burstCounts(stage.width)).reduce((a, b) => a + b, 0));
  doc.body.appendChild(canvas);
  if (typeof canvas.transferControlToOffscreen === "function" && typeof Worker === "function") {
    const offscreen = canvas.transferControlToOffscreen();
    const worker = new Worker(new URL("./fireworks.worker.ts", import.meta.url), { type: "module" });
    canvas.dataset.runner = "worker";
    const stop = () => {
      worker.terminate();
      canvas.remove();
    };
    worker.onmessage = stop;
    worker.onerror = stop;
    worker.postMessage({ canvas: offscreen, stage }, [offscreen]);
    return stop;
  }
  const g = canvas.getContext("2d");
  if (!g) {
    canvas.remove();
    return () => {};
  }
  canvas.dataset.runner = "page";
  let handle = 0;
  animate(
    g,
    stage,
    (side) => Object.assign(doc.createElement("canvas"), { width: side, height: side }),
    (cb) => (handle = win.requestAnimationFrame(cb)),
    () => canvas.remove(),
  );
  return () => {
    win.cancelAnimationFrame(handle);
    canvas.remove();
  };
}
