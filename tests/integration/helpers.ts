import { env } from "cloudflare:test";

// The integration tests' shared helpers: the requests (./http.ts), the builders of museums, members, articles,
// QR codes, tours and the audit reader (./builders.ts, decision 138), and the SCANS queue that keeps a copy.

export { BASE, get, logIn, postJson, sessionCookieFrom } from "./http";
export {
  auditEntries,
  createArticle,
  createArticleRow,
  createMember,
  createMuseum,
  createMuseumWithUser,
  createQrCode,
  createTour,
  DEFAULT_PASSWORD,
  defaultPasswordHash,
  lastAuditId,
  memberSession,
  publishArticle,
  publishNow,
  removeMuseum,
  signIn,
  staffSession,
  texts,
  type AuditEntry,
  type Member,
  type Museum,
  type Session,
  type StaffSession,
  type TestUser,
} from "./builders";

/**
 * The app Worker's env with its real local SCANS queue, each message also kept as the queue would deliver it
 * (a copy through JSON): call `worker.fetch(request, scans.env, ctx)`, await the context, read `scans.sent`
 * and hand it to the consumer (workers/stats-consumer) with createMessageBatch. The consumer is another Worker,
 * which the test runtime does not run (wrangler.toml binds only the producer here): the test delivers what the
 * real binding took. Decision 126.
 */
export function recordingScans<T>() {
  const sent: T[] = [];
  const queue = {
    send: async (body: unknown, options?: QueueSendOptions) => {
      await env.SCANS.send(body, options);
      sent.push(JSON.parse(JSON.stringify(body)) as T);
    },
    sendBatch: async (messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) => {
      const list = [...messages];
      await env.SCANS.sendBatch(list, options);
      for (const m of list) sent.push(JSON.parse(JSON.stringify(m.body)) as T);
    },
  } as unknown as Queue;
  return { sent, env: { ...env, SCANS: queue } as typeof env };
}
