// The emoji-flag fireworks (spec §9): flags burst in from the four edges of the window and slow down.
// Pure particle maths (tested) plus a small DOM runner; loaded with import() only when motion is allowed.

export const FLAGS = ["🇫🇷", "🇬🇧", "🇪🇸", "🇩🇪", "🇮🇹", "🇵🇹", "🇯🇵", "🇨🇳", "🇰🇷", "🇸🇦", "🇵🇾", "🇲🇬", "🇦🇱", "🇺🇦", "🇮🇳", "🇧🇷", "🇹🇷", "🇬🇷", "🇳🇱", "🇵🇱"];

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
        edge === "left" ? { flag, size, x: -size, y: along * height, vx: speed, vy: spread }
        : edge === "right" ? { flag, size, x: width, y: along * height, vx: -speed, vy: spread }
        : edge === "top" ? { flag, size, x: along * width, y: -size, vx: spread, vy: speed }
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

/** Runs one burst over the page; the layer is decorative (aria-hidden) and removes itself. */
export function runBurst(doc: Document = document): () => void {
  const win = doc.defaultView;
  if (!win) return () => {};
  const layer = doc.createElement("div");
  layer.className = "flag-burst";
  layer.setAttribute("aria-hidden", "true");
  const particles = createBurst(win.innerWidth, win.innerHeight);
  const nodes = particles.map((p) => {
    const span = doc.createElement("span");
    span.textContent = p.flag;
    span.style.fontSize = `${p.size.toFixed(0)}px`;
    layer.appendChild(span);
    return span;
  });
  doc.body.appendChild(layer);
  let frame = 0;
  let moving = particles.map(() => true);
  let ticks = 0;
  const tick = () => {
    ticks++;
    moving = particles.map((p, i) => (moving[i] ? step(p) : false));
    particles.forEach((p, i) => {
      const node = nodes[i]!;
      node.style.transform = `translate(${p.x.toFixed(1)}px, ${p.y.toFixed(1)}px)`;
      // Fades out over its last second of travel.
      node.style.opacity = String(Math.min(1, Math.hypot(p.vx, p.vy) * 2));
    });
    if (moving.some(Boolean) && ticks < 600) frame = win.requestAnimationFrame(tick);
    else layer.remove();
  };
  frame = win.requestAnimationFrame(tick);
  return () => {
    win.cancelAnimationFrame(frame);
    layer.remove();
  };
}
