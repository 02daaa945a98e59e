/**
 * Per-request figures for the `Server-Timing` header (decision 039): the D1 and KV bindings and the
 * translation engines are wrapped once per request, so every call through them is counted and timed
 * without timers in the code that uses them. Only counts and milliseconds, never a key, a query or a text.
 *
 * Times are wall time around each call; calls that overlap add up, so `d1;dur` can exceed the response's
 * own duration. In a deployed Worker the clock only moves on I/O (Cloudflare's Spectre mitigation), so
 * CPU-only work such as rendering reads as 0 there; I/O figures are real everywhere.
 */
export class RequestTiming {
  d1 = { count: 0, ms: 0 };
  kv = { count: 0, ms: 0 };
  engine = { count: 0, ms: 0 };
  render = { ms: 0 };
  /** Where the page's address came from: `isolate`, `kv` or `d1` (snapshot miss), or undefined. */
  snapshot: "isolate" | "kv" | "d1" | undefined;
  /** The answer was a page kept for replay in this isolate (decision 141): nothing matched, read or rendered. */
  replayed = false;

  async measure<T>(bucket: { count: number; ms: number }, call: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    bucket.count += 1;
    try {
      return await call();
    } finally {
      bucket.ms += performance.now() - t0;
    }
  }

  /** Runs synchronous work (a render) and adds its time to `render`. */
  rendering<T>(work: () => T): T {
    const t0 = performance.now();
    try {
      return work();
    } finally {
      this.render.ms += performance.now() - t0;
    }
  }

  /**
   * The header's value: `d1;dur=…;desc="n"`, `kv`, `engine`, `render`, where the snapshot came from, and
   * whether the page was replayed.
   */
  header(): string {
    const dur = (ms: number) => Math.round(ms * 10) / 10;
    const parts = [
      `d1;dur=${dur(this.d1.ms)};desc="${this.d1.count}"`,
      `kv;dur=${dur(this.kv.ms)};desc="${this.kv.count}"`,
      `engine;dur=${dur(this.engine.ms)};desc="${this.engine.count}"`,
      `render;dur=${dur(this.render.ms)}`,
    ];
    if (this.snapshot) parts.push(`snapshot;desc="${this.snapshot}"`);
    if (this.replayed) parts.push(`page;desc="replayed"`);
    return parts.join(", ");
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The D1 binding, counted and timed: every statement run (`first`, `all`, `run`, `raw`), every `batch`
 * (one round trip, counted as one) and `exec`. `delayMs` > 0 holds each round trip back that long first:
 * the bench's "D1 far away" switch, only ever non-zero on a local run (see `d1DelayFor`).
 */
export function timedD1(d1: D1Database, timing: RequestTiming, delayMs = 0): D1Database {
  const roundTrip = <T>(call: () => Promise<T>) => timing.measure(timing.d1, async () => (delayMs > 0 ? sleep(delayMs).then(call) : call()));
  const statement = (inner: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(inner, {
      get(target, name) {
        if (name === "bind") return (...values: unknown[]) => statement(target.bind(...values));
        if (name === "first" || name === "all" || name === "run" || name === "raw") {
          const method = target[name] as (...args: unknown[]) => Promise<unknown>;
          return (...args: unknown[]) => roundTrip(() => method.apply(target, args));
        }
        const value = Reflect.get(target, name, target) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  // The statements handed to batch must be the binding's own (workerd checks their class).
  const unwrapped = new WeakMap<object, D1PreparedStatement>();
  const wrap = (inner: D1PreparedStatement) => {
    const outer = statement(inner);
    unwrapped.set(outer, inner);
    return outer;
  };
  return new Proxy(d1, {
    get(target, name) {
      if (name === "prepare") return (query: string) => wrap(target.prepare(query));
      if (name === "batch") return (statements: D1PreparedStatement[]) => roundTrip(() => target.batch(statements.map((s) => unwrapped.get(s) ?? s)));
      if (name === "exec") return (query: string) => roundTrip(() => target.exec(query));
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The KV binding, counted and timed (get, getWithMetadata, put, delete, list). */
export function timedKv(kv: KVNamespace, timing: RequestTiming): KVNamespace {
  return new Proxy(kv, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (typeof value !== "function") return value;
      const method = (value as (...a: unknown[]) => Promise<unknown>).bind(target);
      if (name === "get" || name === "getWithMetadata" || name === "put" || name === "delete" || name === "list")
        return (...args: unknown[]) => timing.measure(timing.kv, () => method(...args));
      return method;
    },
  });
}

/** The engines, each call to `translate` counted and timed. */
export function timedEngines<E extends { translate(texts: readonly string[], from: string, to: string, signal: AbortSignal): Promise<string[]> }>(
  engines: readonly E[],
  timing: RequestTiming,
): E[] {
  return engines.map(
    (engine) =>
      new Proxy(engine, {
        get(target, name) {
          if (name === "translate")
            return (texts: readonly string[], from: string, to: string, signal: AbortSignal) =>
              timing.measure(timing.engine, () => target.translate(texts, from, to, signal));
          const value = Reflect.get(target, name, target) as unknown;
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      }),
  );
}

const MAX_DELAY_MS = 1_000;

/**
 * The bench's artificial D1 distance for this request: the `X-Dev-D1-Delay-Ms` header, honoured only when
 * the local-only var `DEV_D1_DELAY` is "allow" (set by `npm run bench`, never in wrangler.toml) AND the
 * request is addressed to this machine (localhost / 127.0.0.1). Anything else: 0.
 */
export function d1DelayFor(request: Request, env: Record<string, unknown>): number {
  if (env.DEV_D1_DELAY !== "allow") return 0;
  const host = new URL(request.url).hostname;
  if (host !== "127.0.0.1" && host !== "localhost" && host !== "[::1]") return 0;
  const ms = Number(request.headers.get("X-Dev-D1-Delay-Ms") ?? "0");
  return Number.isInteger(ms) && ms > 0 ? Math.min(ms, MAX_DELAY_MS) : 0;
}
