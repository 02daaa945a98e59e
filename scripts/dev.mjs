// `npm run dev`: Vite with hot reload, on the same local D1/KV/R2 state as `npm start`.
// The queue consumer Worker only runs under `npm start` (scans are still queued here).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { d1Target, ensureDevVars, prepareLocalDatabase, quietEnv, ROOT } from "./lib.mjs";

ensureDevVars();
await prepareLocalDatabase(d1Target());
const port = process.env.PORT ?? "5173";
const child = spawn(join(ROOT, "node_modules", ".bin", "remix"), ["vite:dev", "--port", port, "--strictPort"], {
  cwd: ROOT,
  env: quietEnv,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
