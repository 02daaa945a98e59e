import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDb } from "~/db/client.server";
import { chargedChars, monthlyCharsFrom, NARRATION_MONTHLY_CHARS_DEFAULT, readBudget } from "~/narration/budget.server";
import { NARRATION_QUEUE, NARRATION_TEXT_MAX_BYTES, narrationMessage, type NarrationMessage } from "~/narration/message";
import { claimGeneration, FAILURE_BACKOFF_MS, generateOnce, narrationForVisitor, narrationTextHash, type NarrationDeps } from "~/narration/narrations.server";
import { consumeNarrationBatch, ENGINE_ATTEMPTS, engineRetrySeconds } from "~/narration/queue.server";
import { triedKey } from "~/narration/tried.server";
import { offlineSpeechEngine } from "~/speech/engines/offline";
import { SpeechEngineError, type SpeechEngine } from "~/speech/engines/types";
import worker from "../../workers/app";
import { BASE, get, publishArticle, staffSession, texts } from "./helpers";
import { mp3Bytes } from "./narration-helpers";

// Narration generation through the queue (decision 104) and the monthly bound on engine characters
// (decision 105). The app Worker's own `queue()` handler is called as the runtime calls it, against the
// real local D1, R2 and KV; the page side runs the real Worker with a queue that keeps what it is sent.

type Json = Record<string, unknown>;
const LINES = ["Le vase François", "Un cratère à volutes peint vers 570 avant notre ère par Kleitias.", "Deux cents personnages y figurent."];
const TEXT = LINES.join("\n\n");
/** What engines read of a text: its paragraphs, one call each (decision 106); the bound is settled to it. */
const readChars = (text: string) => chargedChars(text.replace(/\n+/g, ""));
const READ_CHARS = readChars(TEXT);

afterEach(() => vi.restoreAllMocks());

/** The offline engine, counting its calls (or failing them when told). */
function countingEngine(fail: false | string = false) {
  const offline = offlineSpeechEngine({ url: env.OFFLINE_SPEECH_URL });
  const engine = {
    calls: 0,
    engine: {
      ...offline,
      synthesize: async (...args: Parameters<SpeechEngine["synthesize"]>) => {
        engine.calls++;
        if (fail) throw new SpeechEngineError("offline", fail, { retryable: false, status: 503 });
        return offline.synthesize(...args);
      },
    } as SpeechEngine,
  };
  return engine;
}

function depsWith(engine: SpeechEngine, extra: Partial<NarrationDeps> = {}): NarrationDeps {
  return { db: createDb(env.DB), media: env.MEDIA, engines: [engine], waitUntil: () => undefined, kv: env.KV, ...extra };
}

let sequence = 0;
/** Delivers bodies to the consumer as the runtime would (one batch), with the runtime's ack/retry record. */
async function deliver(deps: NarrationDeps, bodies: readonly unknown[], attempts = 1) {
  const batch = createMessageBatch(
    NARRATION_QUEUE,
    bodies.map((body) => ({ id: `n-${++sequence}`, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  // The runtime's record keeps which messages were retried, not the delay asked: noted here on the way.
  const delays: (number | undefined)[] = [];
  const messages = batch.messages.map((m) => ({
    id: m.id,
    body: m.body,
    attempts: m.attempts,
    ack: () => m.ack(),
    retry: (options?: { delaySeconds?: number }) => {
      delays.push(options?.delaySeconds);
      m.retry(options);
    },
  }));
  const summary = await consumeNarrationBatch(messages, deps);
  return { summary, delays, result: await getQueueResult(batch, ctx) };
}

/** The app Worker's env with a NARRATIONS queue that keeps what it is sent (a copy, as the queue would). */
function recordingApp() {
  const sent: NarrationMessage[] = [];
  const queue = {
    send: async (body: unknown) => void sent.push(JSON.parse(JSON.stringify(body)) as NarrationMessage),
    sendBatch: async () => {
      throw new Error("not used");
    },
  } as unknown as Queue;
  const appEnv = { ...env, NARRATIONS: queue } as typeof env;
  const view = async (path: string) => {
    const ctx = createExecutionContext();
    const response = await worker.fetch!(new Request(`${BASE}${path}`) as Request<unknown, IncomingRequestCfProperties>, appEnv, ctx);
    const html = await response.text();
    await waitOnExecutionContext(ctx);
    expect(response.status, path).toBe(200);
    return html;
  };
  return { sent, view, appEnv };
}

const audioSrc = (html: string) => /<source src="(\/narration\/[^"]+)"/.exec(html)?.[1] ?? null;

async function narrationRows(articleId: number) {
  return (
    await env.DB.prepare("SELECT lang, kind, r2_key, text_hash, engine, voice, bytes FROM narrations WHERE article_id = ? ORDER BY lang")
      .bind(articleId)
      .all<Json>()
  ).results;
}
const spend = async (museumId: number, month: string) =>
  (await env.DB.prepare("SELECT chars FROM narration_spend WHERE museum_id = ? AND month = ?").bind(museumId, month).first<number>("chars")) ?? 0;
const thisMonth = () => new Date().toISOString().slice(0, 7);

async function until<T>(check: () => Promise<T | undefined | null | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("narration generation through the queue (decision 104)", () => {
  it("a first view sends one message with the text it shows; the Worker's queue() makes the narration; the next view plays it", async () => {
    const s = await staffSession();
    const { articleId, link } = await publishArticle(s, texts(LINES));
    const app = recordingApp();
    const first = await app.view(`/r/${link}?lang=de`);
    expect(audioSrc(first)).toBeNull();
    expect(first).toContain('id="v-read"');
    expect(app.sent).toHaveLength(1);
    const message = app.sent[0]!;
    expect(message).toMatchObject({ v: 1, museumId: s.user.museumId, articleId, lang: "de", voice: "de" });
    expect(message.hash).toBe(await narrationTextHash(message.text));
    // The pseudo engine's German of the published text, in page order.
    expect(message.text.split("\n\n")).toHaveLength(3);
    // Nothing happened yet: the page never generates.
    expect(await narrationRows(articleId)).toHaveLength(0);

    // The app Worker's queue handler, as the runtime calls it.
    const batch = createMessageBatch(NARRATION_QUEUE, [{ id: "m-1", timestamp: new Date(), attempts: 1, body: message }]);
    const ctx = createExecutionContext();
    await worker.queue!(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["m-1"]);
    expect(result.retryMessages).toEqual([]);
    const [row] = await narrationRows(articleId);
    expect(row).toMatchObject({ lang: "de", kind: "generated", engine: "offline", text_hash: message.hash });
    expect((await env.MEDIA.head(row!.r2_key as string))?.size).toBe(row!.bytes);
    // Counted against the month's bound: the characters engines read (the paragraphs, not what joins them).
    expect(await spend(s.user.museumId, thisMonth())).toBe(readChars(message.text));

    const second = await app.view(`/r/${link}?lang=de`);
    expect(audioSrc(second)).toBe(`/narration/${row!.r2_key as string}`);
    expect(app.sent).toHaveLength(1);
    const audio = await SELF.fetch(`${BASE}${audioSrc(second)!}`, { headers: { Range: "bytes=0-3" } });
    expect(audio.status).toBe(206);
    // An MP3 frame header (decision 120): MPEG-2 layer III, no CRC (0xFF 0xF3), not eSpeak's WAV.
    expect([...new Uint8Array(await audio.arrayBuffer())].slice(0, 2)).toEqual([0xff, 0xf3]);
  });

  it("through the real local queue: a view, then the consumer in this Worker, then the player (npm start and e2e run the same way)", async () => {
    const s = await staffSession();
    const { articleId, link } = await publishArticle(s, texts(LINES));
    expect(audioSrc(await (await get(`/r/${link}?lang=nl`)).text())).toBeNull();
    const [row] = await until(async () => {
      const rows = await narrationRows(articleId);
      return rows.length > 0 && rows;
    });
    expect(row).toMatchObject({ lang: "nl", kind: "generated" });
    const page = await until(async () => {
      const html = await (await get(`/r/${link}?lang=nl`)).text();
      return audioSrc(html) && html;
    });
    expect(audioSrc(page)).toBe(`/narration/${row!.r2_key as string}`);
  });

  it("50 parallel first views send few messages and make one engine run", async () => {
    const s = await staffSession();
    const { articleId, link } = await publishArticle(s, texts(LINES));
    const app = recordingApp();
    const pages = await Promise.all(Array.from({ length: 50 }, () => app.view(`/r/${link}?lang=es`)));
    expect(pages.every((html) => audioSrc(html) === null)).toBe(true);
    // One isolate checks and notes its attempt with no await between: the views interleaved here send one
    // (other isolates each may send one more; the claim keeps it to one engine run, below).
    expect(app.sent).toHaveLength(1);
    // Even 50 copies of the message, delivered at once, run the engine once.
    const counting = countingEngine();
    const deps = depsWith(counting.engine);
    const copies = Array.from({ length: 50 }, () => app.sent[0]!);
    const { summary, result } = await deliver(deps, copies);
    // One run: one engine call per paragraph (decision 106).
    expect(counting.calls).toBe(LINES.length);
    expect(summary.done).toEqual({ generated: 1, claimed_elsewhere: 49 });
    expect(result.explicitAcks).toHaveLength(50);
    expect(await env.MEDIA.list({ prefix: `n/${s.user.museumId}/${articleId}/` }).then((l) => l.objects.length)).toBe(1);
    expect(await spend(s.user.museumId, thisMonth())).toBe(readChars(app.sent[0]!.text));
  });

  it("a failing engine: retried after 30 s and 2 min, then the failure is kept (15 min back-off) and the message acknowledged", async () => {
    const s = await staffSession();
    const { articleId } = await publishArticle(s, texts(LINES));
    const failing = countingEngine("HTTP 503: busy");
    const deps = depsWith(failing.engine);
    const body = narrationMessage({ museumId: s.user.museumId, articleId, lang: "de", text: TEXT, hash: await narrationTextHash(TEXT), voice: "de" })!;
    const claim = () =>
      env.DB.prepare("SELECT failure, expires_at FROM narration_claims WHERE article_id = ? AND lang = 'de'")
        .bind(articleId)
        .first<{ failure: string | null; expires_at: number }>();

    for (let attempt = 1; attempt < ENGINE_ATTEMPTS; attempt++) {
      const { result, delays } = await deliver(deps, [body], attempt);
      expect(result.explicitAcks).toEqual([]);
      expect(result.retryMessages).toHaveLength(1);
      expect(delays).toEqual([engineRetrySeconds(attempt)]);
      expect(failing.calls).toBe(attempt);
      // The claim is free for the retry, and the characters were given back (no audio came of it).
      expect((await claim())!.expires_at).toBeLessThanOrEqual(Date.now());
      expect(await spend(s.user.museumId, thisMonth())).toBe(0);
      // Meanwhile visitors send nothing more: the note covers the retry's wait.
      const note = (await env.KV.get(triedKey({ museumId: s.user.museumId, articleId, lang: "de" }), "json")) as { until: number };
      expect(note.until).toBeGreaterThan(Date.now() + engineRetrySeconds(attempt) * 1000);
    }
    expect([engineRetrySeconds(1), engineRetrySeconds(2)]).toEqual([30, 120]);
    const last = await deliver(deps, [body], ENGINE_ATTEMPTS);
    expect(last.result.retryMessages).toEqual([]);
    expect(last.result.explicitAcks).toHaveLength(1);
    expect(failing.calls).toBe(ENGINE_ATTEMPTS);
    const kept = (await claim())!;
    expect(kept.failure).toContain("busy");
    expect(kept.expires_at).toBeGreaterThan(Date.now() + FAILURE_BACKOFF_MS - 60_000);
    // A new message in the back-off (another view) does not call the engine.
    const again = await deliver(deps, [body]);
    expect(again.summary.done).toEqual({ claimed_elsewhere: 1 });
    expect(failing.calls).toBe(ENGINE_ATTEMPTS);
    expect(await narrationRows(articleId)).toHaveLength(0);
    expect(await spend(s.user.museumId, thisMonth())).toBe(0);
    // Staff see it failed.
    const listed = (await s.read(`/api/read/narrations?articleId=${articleId}&lang=de`)).body as { pending: Json[] };
    expect(listed.pending).toMatchObject([{ lang: "de", failure: expect.stringContaining("busy") }]);
  });

  it("malformed messages are acknowledged and logged, never retried, and call no engine", async () => {
    const s = await staffSession();
    const { articleId } = await publishArticle(s, texts(LINES));
    const other = await staffSession();
    const { articleId: foreignArticle } = await publishArticle(other, texts(LINES));
    const counting = countingEngine();
    const deps = depsWith(counting.engine);
    const hash = await narrationTextHash(TEXT);
    const good = { v: 1, museumId: s.user.museumId, articleId, lang: "de", hash, voice: "de", text: TEXT };
    const long = "é".repeat(NARRATION_TEXT_MAX_BYTES / 2 + 1);
    const bodies: unknown[] = [
      null,
      "text",
      42,
      [],
      {},
      { ...good, v: 2 },
      { ...good, museumId: 0 },
      { ...good, articleId: -1 },
      { ...good, articleId: 1.5 },
      { ...good, lang: "xx-nowhere" },
      { ...good, lang: "DE" },
      { ...good, lang: "de\u202e" },
      { ...good, hash: "0".repeat(64) },
      { ...good, hash: hash.toUpperCase() },
      { ...good, text: "" },
      { ...good, text: `${TEXT} ` },
      { ...good, text: long, hash: await narrationTextHash(long) },
      { ...good, extra: true },
      { ...good, voice: "" },
      // Another museum's article under this museum (and the reverse): tenancy.
      { ...good, articleId: foreignArticle },
      { ...good, museumId: other.user.museumId },
      // An article that does not exist.
      { ...good, articleId: 2_000_000_000 },
    ];
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { summary, result } = await deliver(deps, bodies);
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toHaveLength(bodies.length);
    expect(summary.dropped).toBe(bodies.length);
    expect(counting.calls).toBe(0);
    const logged = warn.mock.calls.map((c) => JSON.parse(String(c[0])) as Json).filter((l) => l.event === "narration_message_dropped");
    expect(logged).toHaveLength(bodies.length);
    expect(logged.every((l) => typeof l.reason === "string" && (l.reason as string).length > 0)).toBe(true);
    expect(await narrationRows(articleId)).toHaveLength(0);
    expect(await narrationRows(foreignArticle)).toHaveLength(0);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM narration_claims WHERE article_id IN (?, ?)").bind(articleId, foreignArticle).first("n")).toBe(0);

    // A deleted article (moved to the trash meanwhile): dropped too.
    expect((await s.call("delete_item", { id: articleId, type: "article" })).status).toBe(200);
    const gone = await deliver(deps, [good]);
    expect(gone.summary.dropped).toBe(1);
    expect(counting.calls).toBe(0);

    // A batch from a queue the app does not consume is retried as a whole (it ends in that queue's dead letters).
    const stray = createMessageBatch("muselingo-other", [{ id: "x-1", timestamp: new Date(), attempts: 1, body: good }]);
    const ctx = createExecutionContext();
    await worker.queue!(stray, env, ctx);
    expect((await getQueueResult(stray, ctx)).retryBatch).toMatchObject({ retry: true });
  });

  it("D1 trouble while generating retries the message with backoff (the dead-letter queue takes it after max_retries)", async () => {
    const s = await staffSession();
    const { articleId } = await publishArticle(s, texts(LINES));
    const counting = countingEngine();
    const broken = new Proxy(env.DB, {
      get(target, key) {
        // Thrown, not `Promise.reject(...)` returned: workerd reports a rejected promise that has no handler yet (decision 129).
        if (key === "batch")
          return async () => {
            throw new Error("D1_ERROR: simulated outage");
          };
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const deps = depsWith(counting.engine, { db: createDb(broken) });
    const body = narrationMessage({ museumId: s.user.museumId, articleId, lang: "de", text: TEXT, hash: await narrationTextHash(TEXT), voice: "de" });
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { result, delays } = await deliver(deps, [body], 3);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toHaveLength(1);
    expect(delays).toEqual([40]);
    expect(counting.calls).toBe(0);
  });

  it("a text beyond the queue's limit sends nothing: read-aloud stays (staff may upload a recording)", async () => {
    const s = await staffSession();
    const { articleId } = await publishArticle(s, texts(LINES));
    const sent: unknown[] = [];
    const scheduled: Promise<unknown>[] = [];
    const deps = depsWith(countingEngine().engine, {
      queue: { send: async (m: unknown) => void sent.push(m) } as unknown as NarrationDeps["queue"],
      waitUntil: (p) => void scheduled.push(p),
    });
    const at = { museumId: s.user.museumId, articleId, lang: "it" };
    const justIn = "a".repeat(NARRATION_TEXT_MAX_BYTES);
    expect(narrationMessage({ ...at, text: justIn, hash: "h", voice: "v" })).not.toBeNull();
    expect(await narrationForVisitor(deps, { ...at, text: `${justIn}b` })).toBeNull();
    // CJK: 3 bytes a character, so a third of the characters.
    expect(await narrationForVisitor(deps, { ...at, lang: "zh", text: "字".repeat(NARRATION_TEXT_MAX_BYTES / 3 + 1) })).toBeNull();
    expect(sent).toHaveLength(0);
    expect(scheduled).toHaveLength(0);
    expect(await narrationForVisitor(deps, { ...at, text: TEXT })).toBeNull();
    // The send is handed to waitUntil: settled, it has been sent.
    await Promise.all(scheduled);
    expect(sent).toHaveLength(1);
  });
});

describe("the monthly bound on characters sent to speech engines (decision 105)", () => {
  it("50 parallel claims stop exactly at the bound", async () => {
    const s = await staffSession();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await publishArticle(s, texts(LINES))).articleId);
    const langs = ["de", "en", "es", "it", "nl", "pt", "ja", "zh", "ko", "ar"];
    const chars = 1_000;
    const limit = 12_345; // room for 12 claims, not 13
    const now = Date.UTC(2026, 10, 15, 12);
    const claims = await Promise.all(
      ids.flatMap((articleId) =>
        langs.map((lang) =>
          claimGeneration(createDb(env.DB), { museumId: s.user.museumId, articleId, lang, hash: "a".repeat(64), voice: "v", chars }, now, limit),
        ),
      ),
    );
    expect(claims).toHaveLength(50);
    expect(claims.filter((c) => c.token !== null)).toHaveLength(12);
    expect(claims.filter((c) => c.token === null && c.refused === "over_budget")).toHaveLength(38);
    expect(await spend(s.user.museumId, "2026-11")).toBe(12_000);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM narration_claims WHERE museum_id = ?").bind(s.user.museumId).first("n")).toBe(12);
    // Another museum's count is its own.
    const other = await staffSession();
    const { articleId } = await publishArticle(other, texts(LINES));
    const theirs = await claimGeneration(
      createDb(env.DB),
      { museumId: other.user.museumId, articleId, lang: "de", hash: "a".repeat(64), voice: "v", chars },
      now,
      limit,
    );
    expect(theirs.token).not.toBeNull();
  });

  it("after an edit of one paragraph the month counts that paragraph only: reused paragraphs are given back", async () => {
    const s = await staffSession();
    const { articleId } = await publishArticle(s, texts(LINES));
    const counting = countingEngine();
    const deps = depsWith(counting.engine);
    const now = Date.UTC(2027, 2, 10, 9);
    const target = async (text: string) => ({ museumId: s.user.museumId, articleId, lang: "de", text, hash: await narrationTextHash(text), voice: "de" });
    expect((await generateOnce(deps, await target(TEXT), now)).status).toBe("generated");
    expect(await spend(s.user.museumId, "2027-03")).toBe(READ_CHARS);
    const edited = [LINES[0]!, "Un cratère à volutes peint vers 570 avant notre ère par Kleitias et Ergotimos.", LINES[2]!];
    const outcome = await generateOnce(deps, await target(edited.join("\n\n")), now + 60_000);
    expect(outcome).toMatchObject({ status: "generated", reused: 2, synthesized: 1, synthesizedChars: chargedChars(edited[1]!) });
    expect(counting.calls).toBe(LINES.length + 1);
    expect(await spend(s.user.museumId, "2027-03")).toBe(READ_CHARS + chargedChars(edited[1]!));
  });

  it("over the bound: no engine run, visitors keep read-aloud, recordings still play; the next month starts from zero", async () => {
    const s = await staffSession();
    const { articleId, link } = await publishArticle(s, texts(LINES));
    const counting = countingEngine();
    const limit = READ_CHARS + chargedChars(TEXT) - 1; // one generation fits, not a second claim of the whole text
    const deps = depsWith(counting.engine, { monthlyChars: limit });
    const hash = await narrationTextHash(TEXT);
    const lastOfJanuary = Date.UTC(2027, 0, 31, 23, 59);
    const target = (lang: string) => ({ museumId: s.user.museumId, articleId, lang, text: TEXT, hash, voice: "de" });
    expect((await generateOnce(deps, target("de"), lastOfJanuary)).status).toBe("generated");
    expect(await spend(s.user.museumId, "2027-01")).toBe(READ_CHARS);
    const refused = await generateOnce(deps, target("es"), lastOfJanuary + 1_000);
    expect(refused.status).toBe("over_budget");
    expect(counting.calls).toBe(LINES.length);
    expect(await spend(s.user.museumId, "2027-01")).toBe(READ_CHARS);
    // Views stop sending for a while, at most until the month ends.
    const note = (await env.KV.get(triedKey({ museumId: s.user.museumId, articleId, lang: "es" }), "json")) as { until: number };
    expect(note.until).toBe(Date.UTC(2027, 1, 1));
    // February: the count starts again.
    expect((await generateOnce(deps, target("es"), Date.UTC(2027, 1, 1, 0, 0, 1))).status).toBe("generated");
    expect(await spend(s.user.museumId, "2027-02")).toBe(READ_CHARS);
    expect(counting.calls).toBe(2 * LINES.length);

    // A failure gives its characters back (none of them became audio).
    const failing = countingEngine("HTTP 500");
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect((await generateOnce(depsWith(failing.engine), target("it"), Date.UTC(2027, 1, 2))).status).toBe("failed");
    expect(failing.calls).toBe(1);
    expect(await spend(s.user.museumId, "2027-02")).toBe(READ_CHARS);

    // The deployment's bound set to 0 (this month, through the real Worker): no generation, read-aloud;
    // a recording uploads and plays; staff see the count and "regenerate" says why it queued nothing.
    const app = recordingApp();
    const zero = { ...app.appEnv, NARRATION_MONTHLY_CHARS: "0" } as typeof env;
    const ctxView = createExecutionContext();
    const viewed = await worker.fetch!(new Request(`${BASE}/r/${link}?lang=pt`) as Request<unknown, IncomingRequestCfProperties>, zero, ctxView);
    const html = await viewed.text();
    await waitOnExecutionContext(ctxView);
    expect(audioSrc(html)).toBeNull();
    expect(html).toContain('id="v-read"');
    // The page itself cannot know the bound (it reads no D1): its message is refused by the consumer.
    expect(app.sent).toHaveLength(1);
    const zeroDeps = depsWith(counting.engine, { monthlyChars: monthlyCharsFrom({ NARRATION_MONTHLY_CHARS: "0" }) });
    expect((await deliver(zeroDeps, app.sent)).summary.done).toEqual({ over_budget: 1 });
    expect(counting.calls).toBe(2 * LINES.length);

    const form = new FormData();
    form.append("articleId", String(articleId));
    form.append("lang", "pt");
    form.append("narration", new File([mp3Bytes()], "pt.mp3"));
    const ctxUpload = createExecutionContext();
    const uploaded = await worker.fetch!(
      new Request(`${BASE}/api/upload/narration`, { method: "POST", body: form, headers: { Cookie: s.cookie } }) as Request<
        unknown,
        IncomingRequestCfProperties
      >,
      zero,
      ctxUpload,
    );
    expect(uploaded.status).toBe(200);
    const { url } = (await uploaded.json()) as { url: string };
    await waitOnExecutionContext(ctxUpload);
    expect(audioSrc(await app.view(`/r/${link}?lang=pt`))).toBe(url);

    const ctxRegen = createExecutionContext();
    const regen = await worker.fetch!(
      new Request(`${BASE}/api/manage/regenerate_narration`, {
        method: "POST",
        body: JSON.stringify({ articleId, lang: "nl" }),
        headers: { Cookie: s.cookie, "Content-Type": "application/json" },
      }) as Request<unknown, IncomingRequestCfProperties>,
      zero,
      ctxRegen,
    );
    expect(await regen.json()).toEqual({ scheduled: false, reason: "over_budget" });
    await waitOnExecutionContext(ctxRegen);
    const ctxRead = createExecutionContext();
    const read = await worker.fetch!(
      new Request(`${BASE}/api/read/narrations?articleId=${articleId}&lang=nl`, { headers: { Cookie: s.cookie } }) as Request<
        unknown,
        IncomingRequestCfProperties
      >,
      zero,
      ctxRead,
    );
    const listed = (await read.json()) as { budget: Json };
    await waitOnExecutionContext(ctxRead);
    expect(listed.budget).toMatchObject({ month: thisMonth(), used: 0, limit: 0 });
    // Another museum's article stays 404 whatever the bound.
    const other = await staffSession();
    expect((await other.read(`/api/read/narrations?articleId=${articleId}`)).status).toBe(404);
  });

  it("staff's read shows this month's count under the deployment's bound; regenerate is counted like any generation", async () => {
    const s = await staffSession();
    const { articleId } = await publishArticle(s, texts(LINES));
    const before = (await s.read(`/api/read/narrations?articleId=${articleId}&lang=de`)).body as { budget: Json };
    expect(before.budget).toMatchObject({ month: thisMonth(), used: 0, limit: NARRATION_MONTHLY_CHARS_DEFAULT });
    expect((await s.call("regenerate_narration", { articleId, lang: "de" })).body).toEqual({ scheduled: true });
    await until(async () => (await narrationRows(articleId)).length === 1);
    const after = (await s.read(`/api/read/narrations?articleId=${articleId}&lang=de`)).body as { budget: { used: number } };
    expect(after.budget.used).toBeGreaterThan(0);
    expect(after.budget.used).toBe((await readBudget(createDb(env.DB), s.user.museumId, NARRATION_MONTHLY_CHARS_DEFAULT)).used);
  });

  it("NARRATION_MONTHLY_CHARS: a whole number, default when absent, refused otherwise", () => {
    expect(monthlyCharsFrom({})).toBe(NARRATION_MONTHLY_CHARS_DEFAULT);
    expect(monthlyCharsFrom({ NARRATION_MONTHLY_CHARS: "" })).toBe(NARRATION_MONTHLY_CHARS_DEFAULT);
    expect(monthlyCharsFrom({ NARRATION_MONTHLY_CHARS: "500_000" })).toBe(500_000);
    expect(monthlyCharsFrom({ NARRATION_MONTHLY_CHARS: "0" })).toBe(0);
    for (const bad of ["-1", "1e6", "2.5", "lots", "99999999999", "１２"])
      expect(() => monthlyCharsFrom({ NARRATION_MONTHLY_CHARS: bad })).toThrow(/NARRATION_MONTHLY_CHARS/);
    // Code points, not UTF-16 units: an emoji is one character.
    expect(chargedChars("a😀é")).toBe(3);
  });
});
