// What the benchmarks share: a local `npm start` of their own (port, state) and percentiles.
import { spawn } from "node:child_process";
import { ROOT } from "../../scripts/lib.mjs";

/** The value at the p-th percentile of sorted numbers. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Starts `scripts/start.mjs --no-build` on `port` with its state under `persistTo` (extra `env` passed on),
 * and resolves once `/session` answers. `stop()` ends it and its wrangler children.
 */
export async function startServer({ port, persistTo, env = {} }) {
  const child = spawn("node", ["scripts/start.mjs", "--no-build", "--persist-to", persistTo], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: "ignore",
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/session`)).ok) return { stop, pid: child.pid };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  stop();
  throw new Error("the local server did not start within 90 s");
}

/** Logs a staff member in through `POST /login` from `address`; resolves with the session cookie (`name=value`). */
export async function logIn(base, { email, password }, address) {
  const response = await fetch(`${base}/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": address },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`login of ${email}: HTTP ${response.status}`);
  return /muselingo_session=[^;]+/.exec(response.headers.get("Set-Cookie") ?? "")?.[0] ?? "";
}
