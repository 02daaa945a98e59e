// `npm start` on a port another server holds (issue 16): it used to print "Muselingo at http://localhost:PORT"
// because its readiness check was answered by that other server, then die when wrangler failed to bind.
// Now it refuses the port before building or touching the database, and says which PORT to use instead.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib.mjs";
import { PortError, nextFreePort, parsePort, portBusy } from "../../scripts/lib.mjs";

const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An HTTP server that answers 200 to everything, as another Muselingo (or anything) on that port would. */
async function occupy(host: string) {
  const server = createHttpServer((_request, response) => response.end("someone else"));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen({ port: 0, host }, resolve));
  return (server.address() as AddressInfo).port;
}

function start(env: Record<string, string>) {
  const state = mkdtempSync(join(tmpdir(), "start-port-"));
  dirs.push(state);
  const persistTo = join(state, "never-created");
  const child = spawn(process.execPath, ["scripts/start.mjs", "--no-build", "--persist-to", persistTo], { cwd: ROOT, env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string; persistTo: string }>((resolve) => {
    child.on("exit", (code) => resolve({ code, stdout, stderr, persistTo }));
  });
}

describe("npm start on a port in use", () => {
  it.each(["127.0.0.1", "0.0.0.0"])(
    "refuses a port held by a server on %s, before the database, naming a free port",
    async (host) => {
      const port = await occupy(host);
      const run = await start({ PORT: String(port) });
      expect(run.stdout).not.toContain("Muselingo at");
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`port ${port} is already in use`);
      const suggested = Number(/PORT=(\d+) npm start/.exec(run.stderr)?.[1]);
      expect(suggested).toBeGreaterThan(port);
      expect(await portBusy(suggested)).toBeNull();
      // Refused up front: no migrations ran, so no local state was created.
      expect(existsSync(run.persistTo)).toBe(false);
    },
    60_000,
  );

  it.each(["abc", "0", "65536", "80 80", "8787abc", "-1"])(
    "refuses PORT=%j with a clear message",
    async (value) => {
      const run = await start({ PORT: value });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("is not a port number (1 to 65535)");
      expect(run.stdout).not.toContain("Muselingo at");
    },
    30_000,
  );
});

describe("port helpers", () => {
  it("parsePort takes 1 to 65535, spaces around allowed", () => {
    expect(parsePort(" 8787 ")).toBe(8787);
    expect(parsePort("1")).toBe(1);
    expect(parsePort("65535")).toBe(65535);
    for (const bad of ["0", "65536", "1e3", "0x50", "８７８７", "12.5"]) expect(() => parsePort(bad)).toThrow(PortError);
  });

  it("portBusy sees a plain TCP listener and reports a free port as free", async () => {
    const tcp = createTcpServer();
    await new Promise<void>((resolve) => tcp.listen({ port: 0, host: "127.0.0.1" }, resolve));
    const port = (tcp.address() as AddressInfo).port;
    expect(await portBusy(port)).toBe("EADDRINUSE");
    await new Promise((resolve) => tcp.close(resolve));
    expect(await portBusy(port)).toBeNull();
  });

  it("nextFreePort skips busy ports", async () => {
    const first = await occupy("127.0.0.1");
    const found = await nextFreePort(first - 1);
    expect(found).not.toBe(first);
    expect(await portBusy(found!)).toBeNull();
  });
});
