import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import type { EngineId, TranslationEngine } from "~/translation/engines";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

export type Reply = { status?: number; json?: unknown; text?: string; headers?: Record<string, string> } | "hang";

/** A local HTTP server standing in for a provider: each request is recorded, then answered by `reply`. */
export async function fakeServer(reply: (request: RecordedRequest, index: number) => Reply | Promise<Reply>) {
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = raw;
      try {
        body = raw === "" ? undefined : JSON.parse(raw);
      } catch {
        // Kept as text.
      }
      const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      requests.push(request);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const answer = await reply(request, requests.length - 1);
      if (answer === "hang") return;
      inFlight--;
      res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
      res.end(answer.text ?? JSON.stringify(answer.json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An in-memory engine: `behave` decides each call's fate; calls and peak parallelism are counted. */
export function fakeEngine(
  id: EngineId,
  behave: (texts: readonly string[], call: number, signal: AbortSignal) => Promise<string[]> | string[],
  options: { supports?: (from: string, to: string) => boolean; maxTexts?: number; maxChars?: number } = {},
) {
  const calls: string[][] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const engine: TranslationEngine = {
    id,
    limits: { maxTexts: options.maxTexts ?? 50, maxChars: options.maxChars ?? 10_000 },
    supports: options.supports ?? (() => true),
    async translate(texts, _from, _to, signal) {
      calls.push([...texts]);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        return await behave(texts, calls.length - 1, signal);
      } finally {
        inFlight--;
      }
    },
  };
  return { engine, calls, maxInFlight: () => maxInFlight };
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Fast settings for tests: short backoff, timeouts and deadline. */
export const FAST = { timeoutMs: 500, retries: 2, concurrency: 4, deadlineMs: 3_000, backoffMs: 5 };

/**
 * `serve(reply)` starts a fake server (fakeServer) for one test; every server a test started is closed
 * after it. Call once at the top of a test file.
 */
export function fakeServers() {
  const servers: Array<{ close: () => Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async function serve(reply: (request: RecordedRequest, index: number) => Reply | Promise<Reply>) {
    const server = await fakeServer(reply);
    servers.push(server);
    return server;
  };
}
