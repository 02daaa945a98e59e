import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { generateOnce, narrationForVisitor, narrationTextHash, type NarrationDeps } from "~/narration/narrations.server";
import { consumeNarrationBatch, ENGINE_ATTEMPTS } from "~/narration/queue.server";
import { offlineSpeechEngine } from "~/speech/engines/offline";
import { SpeechEngineError, type SpeechEngine } from "~/speech/engines/types";
import { mp3DurationMs } from "~/speech/audio-types";
import { auditEntries, BASE, get, memberSession, publishArticle, staffSession, texts } from "./helpers";
import { m4aBytes, mp3Bytes, oggOpusBytes } from "./narration-helpers";
import { forgetTried, triedKey } from "~/narration/tried.server";
import { snapshotKey } from "~/visitor-cache/snapshot.server";
import worker from "../../workers/app";

type Json = Record<string, unknown>;

const LINES = ["L'amphore attique", "Vers 530 avant notre ère, le peintre Amasis décore cette amphore.", "Deux guerriers se font face."];

async function upload(cookie: string, fields: Record<string, string | File>, headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await SELF.fetch(`${BASE}/api/upload/narration`, { method: "POST", body: form, headers: { Cookie: cookie, ...headers } });
  return { status: response.status, body: (await response.json()) as Json & { error: Json } };
}

const mp3File = (frames = 40) => new File([mp3Bytes(frames)], "guide.mp3", { type: "audio/mpeg" });

async function visit(link: string, lang: string) {
  const response = await get(`/r/${link}?lang=${lang}`);
  expect(response.status).toBe(200);
  return response.text();
}

async function gzipSize(text: string) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

const audioSrc = (html: string) => /<source src="(\/narration\/[^"]+)"/.exec(html)?.[1] ?? null;

async function narrationRows(articleId: number) {
  return (
    await env.DB.prepare("SELECT lang, kind, r2_key, text_hash, engine, voice, duration_ms, bytes FROM narrations WHERE article_id = ? ORDER BY lang")
      .bind(articleId)
      .all<Json>()
  ).results;
}

/** Waits for the generation scheduled after an answer (waitUntil) to land in D1. */
async function until<T>(check: () => Promise<T | undefined | null | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A narrations queue that hands each message straight to the consumer as its last attempt (an engine
 * failure is kept at once, as after the queue's retries); `scheduled` holds one consumption per message.
 */
function directQueue(deps: () => NarrationDeps, scheduled: Promise<unknown>[]): NarrationDeps["queue"] {
  return {
    send: async (body: unknown) => {
      const message = {
        id: crypto.randomUUID(),
        body: JSON.parse(JSON.stringify(body)) as unknown,
        attempts: ENGINE_ATTEMPTS,
        ack: () => undefined,
        retry: () => undefined,
      };
      scheduled.push(consumeNarrationBatch([message], deps()));
    },
  } as unknown as NarrationDeps["queue"];
}

/**
 * One request to the app Worker with the real local narrations queue, whose sends are also noted. Returns once
 * the answer and everything it scheduled (waitUntil, where a message is sent) have settled: "no message" is
 * then known without waiting for a consumer that would have nothing to do.
 */
async function openNotingQueue(path: string, headers: Record<string, string> = {}) {
  const sent: unknown[] = [];
  const narrations = {
    send: (body: unknown, options?: QueueSendOptions) => (sent.push(body), env.NARRATIONS.send(body, options)),
    sendBatch: (messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) => {
      const list = [...messages];
      sent.push(...list.map((m) => m.body));
      return env.NARRATIONS.sendBatch(list, options);
    },
  } as Queue;
  const ctx = createExecutionContext();
  const response = await worker.fetch!(
    new Request(`${BASE}${path}`, { headers }) as Request<unknown, IncomingRequestCfProperties>,
    { ...env, NARRATIONS: narrations },
    ctx,
  );
  const html = await response.text();
  await waitOnExecutionContext(ctx);
  return { status: response.status, html, sent };
}

async function objectsUnder(prefix: string) {
  return (await env.MEDIA.list({ prefix })).objects.map((o) => o.key);
}

describe("generated narrations on the visitor page", () => {
  it("the first view does not wait and offers read-aloud; the narration made meanwhile plays on the next view, with Range", async () => {
    const s = await staffSession();
    const { articleId, link } = await publishArticle(s, texts(LINES));
    const first = await visit(link, "de");
    expect(audioSrc(first)).toBeNull();
    expect(first).toContain('id="v-read"');

    const [row] = await until(async () => {
      const rows = await narrationRows(articleId);
      return rows.length > 0 && rows;
    });
    expect(row).toMatchObject({ lang: "de", kind: "generated", engine: "offline", voice: "de" });
    expect(row!.duration_ms as number).toBeGreaterThan(2000);

    const second = await visit(link, "de");
    const src = audioSrc(second);
    expect(src).toBe(`/narration/${row!.r2_key as string}`);
    expect(second).toMatch(/<audio id="v-audio" controls="" preload="none"/);
    expect(second).toMatch(/<time dateTime="PT\d+S">\d+:\d\d<\/time>/i);
    // A narration plays: the browser's read-aloud is not offered beside it.
    // (It is in the page, hidden: the script shows it only when this browser cannot play the narration, decision 119.)
    expect(second).toMatch(/<button type="button" id="v-read"[^>]* hidden=""/);
    // The page stays within the visitor budget (≤ 14 KB gzip) with the player.
    const [withPlayer, without] = [await gzipSize(second), await gzipSize(first)];
    console.log(`visitor page gzip: ${withPlayer} B with the player, ${without} B without (${second.length} / ${first.length} B raw)`);
    expect(withPlayer).toBeLessThanOrEqual(14 * 1024);

    const whole = await SELF.fetch(`${BASE}${src}`);
    expect(whole.status).toBe(200);
    // Stored and served compressed (decision 120): MP3 at 32 kbit/s, about 0.24 MB a minute, not eSpeak's WAV.
    expect(whole.headers.get("Content-Type")).toBe("audio/mpeg");
    expect(whole.headers.get("Accept-Ranges")).toBe("bytes");
    const bytes = new Uint8Array(await whole.arrayBuffer());
    expect(bytes.length).toBe(row!.bytes);
    expect(mp3DurationMs(bytes)).toBe(row!.duration_ms);
    expect(bytes.length / ((row!.duration_ms as number) / 60_000)).toBeLessThan(250_000);
    expect(row!.r2_key as string).toMatch(/\.mp3$/);

    const part = await SELF.fetch(`${BASE}${src}`, { headers: { Range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 0-99/${bytes.length}`);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
    const tail = await SELF.fetch(`${BASE}${src}`, { headers: { Range: `bytes=${bytes.length}-` } });
    expect(tail.status).toBe(416);
    expect(tail.headers.get("Content-Range")).toBe(`bytes */${bytes.length}`);
    await tail.body?.cancel();
    const head = await SELF.fetch(`${BASE}${src}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Length")).toBe(String(bytes.length));
  });

  it("50 parallel first views generate the narration once", async () => {
    const s = await staffSession();
    const { articleId, link } = await publishArticle(s, texts(LINES));
    // The local workerd serves them interleaved: the later ones may already find the narration made.
    const pages = await Promise.all(Array.from({ length: 50 }, () => visit(link, "es")));
    expect(audioSrc(pages[0]!)).toBeNull();
    await until(async () => (await narrationRows(articleId)).length === 1);
    // The consumer has finished once it drops its note for the other isolates (after the row, with the claim
    // released in the same batch): only then are the files counted.
    await until(async () => (await env.KV.get(triedKey({ museumId: s.user.museumId, articleId, lang: "es" }))) === null);
    expect(await objectsUnder(`n/${s.user.museumId}/${articleId}/`)).toHaveLength(1);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM narration_claims WHERE article_id = ?").bind(articleId).first("n")).toBe(0);
  });

  it("50 parallel generations of one text: one engine run, the others find the claim", async () => {
    const s = await staffSession();
    const { articleId } = await publishArticle(s, texts(LINES));
    let calls = 0;
    const offline = offlineSpeechEngine({ url: env.OFFLINE_SPEECH_URL });
    const counting: SpeechEngine = { ...offline, synthesize: (...args) => (calls++, offline.synthesize(...args)) };
    const deps: NarrationDeps = { db: createDb(env.DB), media: env.MEDIA, engines: [counting], waitUntil: () => undefined };
    const text = LINES.join("\n\n");
    const hash = await narrationTextHash(text);
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => generateOnce(deps, { museumId: s.user.museumId, articleId, lang: "it", text, hash, voice: "it" })),
    );
    expect(outcomes.filter((o) => o.status === "generated")).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === "claimed_elsewhere")).toHaveLength(49);
    expect(calls).toBe(LINES.length); // one run: one call per paragraph (decision 106)
  });

  it("an edit regenerates the narration from the new text; the old file goes", async () => {
    const s = await staffSession();
    const { articleId, link, edit } = await publishArticle(s, texts(LINES));
    await visit(link, "de");
    const [before] = await until(async () => {
      const rows = await narrationRows(articleId);
      return rows.length > 0 && rows;
    });
    await edit(texts([...LINES, "Une troisième scène montre Dionysos."]));
    // The old narration no longer matches the text: not played, a new one is made.
    const stale = await visit(link, "de");
    expect(audioSrc(stale)).toBeNull();
    const [after] = await until(async () => {
      const rows = await narrationRows(articleId);
      return rows[0] && rows[0].text_hash !== before!.text_hash && rows;
    });
    expect(after!.r2_key).not.toBe(before!.r2_key);
    expect(after!.duration_ms as number).toBeGreaterThan(before!.duration_ms as number);
    expect(await env.MEDIA.head(before!.r2_key as string)).toBeNull();
    expect(audioSrc(await visit(link, "de"))).toBe(`/narration/${after!.r2_key as string}`);
  });

  it("an engine that fails gives no player, and is not tried again at every view", async () => {
    const s = await staffSession();
    const { articleId } = await publishArticle(s, texts(LINES));
    let calls = 0;
    const failing: SpeechEngine = {
      ...offlineSpeechEngine({ url: env.OFFLINE_SPEECH_URL }),
      id: "google",
      synthesize: async () => {
        calls++;
        throw new SpeechEngineError("google", "HTTP 403: quota", { retryable: false, status: 403 });
      },
    };
    const scheduled: Promise<unknown>[] = [];
    let clock = Date.now();
    const deps: NarrationDeps = { db: createDb(env.DB), media: env.MEDIA, engines: [failing], waitUntil: (p) => void p, clock: () => clock };
    deps.queue = directQueue(() => deps, scheduled);
    const target = { museumId: s.user.museumId, articleId, lang: "de", text: LINES.join("\n\n") };
    expect(await narrationForVisitor(deps, target)).toBeNull();
    await until(async () => scheduled.length === 1);
    await Promise.all(scheduled);
    expect(calls).toBe(1);
    const claim = await env.DB.prepare("SELECT failure, expires_at FROM narration_claims WHERE article_id = ?")
      .bind(articleId)
      .first<{ failure: string; expires_at: number }>();
    expect(claim?.failure).toContain("quota");
    expect(await narrationForVisitor(deps, target)).toBeNull();
    expect(scheduled).toHaveLength(1);
    expect(await narrationRows(articleId)).toHaveLength(0);
    // After the back-off the next view tries again.
    clock = claim!.expires_at + 1;
    expect(await narrationForVisitor(deps, target, clock)).toBeNull();
    await until(async () => scheduled.length === 2);
    await Promise.all(scheduled);
    expect(calls).toBe(2);
  });

  it("a draft preview never narrates the draft", async () => {
    const s = await staffSession();
    const { articleId, slug } = await publishArticle(s, texts(LINES));
    const museum = await env.DB.prepare("SELECT slug FROM museums WHERE id = ?").bind(s.user.museumId).first<string>("slug");
    const preview = await openNotingQueue(`/v/${museum}/${slug}?preview=draft&lang=de`, { Cookie: s.cookie });
    expect(preview.status).toBe(200);
    expect(audioSrc(preview.html)).toBeNull();
    // Nothing sent to the narrations queue once the answer's work has settled: nothing will be generated.
    expect(preview.sent).toEqual([]);
    expect(await narrationRows(articleId)).toHaveLength(0);
  });
});

describe("recorded narrations", () => {
  async function setup() {
    const s = await staffSession();
    const published = await publishArticle(s, texts(LINES));
    return { s, ...published };
  }

  it("accepts MP3, M4A and Ogg Opus by their bytes; the recording wins over generation", async () => {
    const { s, articleId, link } = await setup();
    const mp3 = await upload(s.cookie, { articleId: String(articleId), lang: "de", durationMs: "83000", narration: mp3File() });
    expect(mp3.status).toBe(200);
    // The file's own length (40 frames of 26.1 ms) wins over the figure sent with it (decision 119).
    expect(mp3.body).toMatchObject({ lang: "de", kind: "recorded", contentType: "audio/mpeg", durationMs: 1045, bytes: 40 * 417 });
    const { status, html, sent } = await openNotingQueue(`/r/${link}?lang=de`);
    expect(status).toBe(200);
    expect(audioSrc(html)).toBe(mp3.body.url);
    expect(html).toContain("0:01</time>");
    expect(html).toContain('type="audio/mpeg"');
    // Nothing generated while a recording plays: no message sent once the view's work has settled.
    expect(sent).toEqual([]);
    expect(await narrationRows(articleId)).toMatchObject([{ lang: "de", kind: "recorded" }]);

    const m4a = await upload(s.cookie, { narration: new File([m4aBytes()], "a.m4a"), articleId: String(articleId), lang: "en" });
    expect(m4a.body).toMatchObject({ contentType: "audio/mp4" });
    const opus = await upload(s.cookie, { articleId: String(articleId), lang: "ar", narration: new File([oggOpusBytes()], "a.opus") });
    expect(opus.body).toMatchObject({ contentType: "audio/ogg; codecs=opus" });
    // Arabic: the page (and the player's label) right to left.
    const arabic = await visit(link, "ar");
    expect(arabic).toMatch(/<html[^>]*dir="rtl"/);
    expect(audioSrc(arabic)).toBe(opus.body.url);

    // A new recording replaces the previous one and its file.
    const again = await upload(s.cookie, { articleId: String(articleId), lang: "de", narration: mp3File(10) });
    expect(again.status).toBe(200);
    const oldKey = (mp3.body.url as string).replace("/narration/", "");
    expect(await env.MEDIA.head(oldKey)).toBeNull();
    expect((await SELF.fetch(`${BASE}${mp3.body.url as string}`)).status).toBe(404);

    const listed = (await s.read(`/api/read/narrations?articleId=${articleId}`)).body as { narrations: Json[]; speaks: Json };
    expect(listed.narrations.map((n) => n.lang)).toEqual(["ar", "de", "en"]);
    expect(listed.speaks).toMatchObject({ de: "offline" });
  });

  it("accepts what browsers, recorders and phones make (WebM/Opus, WAV, FLAC and more), serves it as sent, and reads its duration", async () => {
    const { s, articleId, link } = await setup();
    // Real files (tests/fixtures/audio/README.md); `ms`: what ffmpeg decodes them to; `slack`: a frame.
    const cases: [string, string, number, number][] = [
      ["chromium-mediarecorder.webm", "audio/webm; codecs=opus", 1980, 20],
      ["piped.webm", "audio/webm; codecs=opus", 2000, 20],
      ["tone.webm", "audio/webm; codecs=opus", 2000, 20],
      ["tone.wav", "audio/wav", 2000, 0],
      ["tone-24bit.wav", "audio/wav", 1000, 0],
      ["piped.wav", "audio/wav", 2000, 0],
      ["tone.flac", "audio/flac", 2000, 0],
      ["piped.flac", "audio/flac", 2000, 0],
      ["tone.mp3", "audio/mpeg", 2000, 0],
      ["tone.m4a", "audio/mp4", 2000, 64],
      ["fragmented.m4a", "audio/mp4", 2000, 120],
      ["tone.aac", "audio/aac", 2000, 120],
      ["tone.opus", "audio/ogg; codecs=opus", 2000, 0],
      ["tone.ogg", "audio/ogg", 2000, 0],
    ];
    for (const [name, contentType, ms, slack] of cases) {
      const bytes = Uint8Array.from(atob(env.AUDIO_FIXTURES[name]!), (c) => c.charCodeAt(0));
      // Sent as a browser would, with the type the browser guesses (often none, or a wrong one).
      const r = await upload(s.cookie, { articleId: String(articleId), lang: "de", narration: new File([bytes], name, { type: "application/octet-stream" }) });
      expect([name, r.status, r.body.contentType]).toEqual([name, 200, contentType]);
      expect([name, Math.abs((r.body.durationMs as number) - ms) <= slack]).toEqual([name, true]);
      // Stored as uploaded, served with its type; the listing and the visitor page say its length.
      const served = await SELF.fetch(`${BASE}${r.body.url as string}`);
      expect(served.headers.get("content-type")).toBe(contentType);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
      const listed = (await s.read(`/api/read/narrations?articleId=${articleId}&lang=de`)).body as { narrations: Json[] };
      expect(listed.narrations[0]).toMatchObject({ contentType, durationMs: r.body.durationMs });
      const html = await visit(link, "de");
      expect(html).toContain(`type="${contentType}"`);
      expect(html).toContain(`0:0${Math.floor((r.body.durationMs as number) / 1000)}</time>`);
    }
    // A video is not a narration: refused after it streamed, and its file removed.
    const video = Uint8Array.from(atob(env.AUDIO_FIXTURES["video.webm"]!), (c) => c.charCodeAt(0));
    const refused = await upload(s.cookie, { articleId: String(articleId), lang: "fr", narration: new File([video], "clip.webm") });
    expect([refused.status, refused.body.error?.field]).toEqual([415, "narration"]);
    expect(await objectsUnder(`n/${s.user.museumId}/rec/`)).toHaveLength(1);
    // 50 identical browser recordings at once: each measured alike, one plays, one file more in storage.
    const webm = Uint8Array.from(atob(env.AUDIO_FIXTURES["chromium-mediarecorder.webm"]!), (c) => c.charCodeAt(0));
    const same = await Promise.all(
      Array.from({ length: 50 }, () => upload(s.cookie, { articleId: String(articleId), lang: "it", narration: new File([webm], "rec.webm") })),
    );
    expect(new Set(same.map((r) => `${r.status} ${r.body.durationMs as number}`))).toEqual(new Set([`200 ${same[0]!.body.durationMs as number}`]));
    expect(await objectsUnder(`n/${s.user.museumId}/rec/`)).toHaveLength(2);
  });

  it("20 parallel uploads for one language: one recording plays and no other file is left in storage", async () => {
    const { s, articleId, link } = await setup();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => upload(s.cookie, { articleId: String(articleId), lang: "it", narration: mp3File(5 + i) })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const rows = await narrationRows(articleId);
    expect(rows).toHaveLength(1);
    const stored = await env.MEDIA.list({ prefix: `n/${s.user.museumId}/rec/` });
    expect(stored.objects.map((o) => o.key)).toEqual([rows[0]!.r2_key]);
    expect(audioSrc(await visit(link, "it"))).toBe(`/narration/${rows[0]!.r2_key as string}`);
  });

  it("a trashed article's narration is not served; restoring the article brings it back", async () => {
    const { s, articleId } = await setup();
    const uploaded = await upload(s.cookie, { articleId: String(articleId), lang: "de", narration: mp3File() });
    expect(uploaded.status).toBe(200);
    const url = `${BASE}${uploaded.body.url as string}`;
    const before = await SELF.fetch(url);
    expect(before.status).toBe(200);
    await before.body?.cancel();
    expect((await s.call("delete_item", { type: "article", id: articleId, pathArray: [] })).status).toBe(200);
    const gone = await SELF.fetch(url);
    expect(gone.status).toBe(404);
    await gone.body?.cancel();
    expect((await s.call("restore_item", { type: "article", id: articleId })).status).toBe(200);
    const back = await SELF.fetch(url);
    expect(back.status).toBe(200);
    await back.body?.cancel();
  });

  it("refuses what is not audio, malformed fields and other museums' articles", async () => {
    const { s, articleId } = await setup();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(100).fill(0)]);
    const cases: [Record<string, string | File>, number, string?][] = [
      [{ articleId: String(articleId), lang: "de", narration: new File([png], "fake.mp3", { type: "audio/mpeg" }) }, 415, "narration"],
      [{ articleId: String(articleId), lang: "de", narration: new File([new Uint8Array(0)], "empty.mp3") }, 400, "narration"],
      [
        { articleId: String(articleId), lang: "de", narration: new File([new TextEncoder().encode("ID3 not really an mp3 at all....")], "x.mp3") },
        415,
        "narration",
      ],
      [{ articleId: String(articleId), narration: mp3File() }, 400, "lang"],
      [{ articleId: String(articleId), lang: "xx-nowhere", narration: mp3File() }, 400, "lang"],
      [{ articleId: String(articleId), lang: "de\u202e", narration: mp3File() }, 400, "lang"],
      [{ articleId: "12abc", lang: "de", narration: mp3File() }, 400, "articleId"],
      [{ articleId: String(articleId), lang: "de", durationMs: "-5", narration: mp3File() }, 400, "durationMs"],
      [{ articleId: String(articleId), lang: "de", durationMs: "99999999", narration: mp3File() }, 400, "durationMs"],
      [{ articleId: String(articleId), lang: "de", other: "x", narration: mp3File() }, 400],
      [{ articleId: String(articleId), lang: "de" }, 400, "narration"],
    ];
    for (const [fields, status, field] of cases) {
      const r = await upload(s.cookie, fields);
      expect([r.status, r.body.error?.field]).toEqual([status, field ?? r.body.error?.field]);
    }
    const other = await staffSession();
    const foreign = await upload(other.cookie, { articleId: String(articleId), lang: "de", narration: mp3File() });
    expect(foreign.status).toBe(404);
    expect((await other.call("delete_narration", { articleId, lang: "de" })).status).toBe(404);
    expect((await other.call("regenerate_narration", { articleId, lang: "de" })).status).toBe(404);
    expect((await other.read(`/api/read/narrations?articleId=${articleId}`)).status).toBe(404);
    // Nothing was stored for any refusal.
    expect(await objectsUnder(`n/${s.user.museumId}/rec/`)).toHaveLength(0);
    expect(await objectsUnder(`n/${other.user.museumId}/rec/`)).toHaveLength(0);
    expect(await narrationRows(articleId)).toHaveLength(0);
    expect((await SELF.fetch(`${BASE}/narration/n/${s.user.museumId}/rec/${crypto.randomUUID()}.mp3`)).status).toBe(404);
    expect((await SELF.fetch(`${BASE}/narration/`)).status).toBe(404);
  });

  it("refuses a declared body over 50 MB before reading it (413)", async () => {
    const { s, articleId } = await setup();
    const boundary = "----narration";
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="articleId"\r\n\r\n${articleId}\r\n--${boundary}--\r\n`;
    const response = await SELF.fetch(`${BASE}/api/upload/narration`, {
      method: "POST",
      body,
      headers: { Cookie: s.cookie, "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": String(51 * 1024 * 1024) },
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: Json }).error).toMatchObject({ code: "too_large", field: "narration" });
  });

  it("streams a file past the limit and stops at 50 MB (413), storing nothing", async () => {
    const { s, articleId } = await setup();
    const boundary = "----big";
    const enc = new TextEncoder();
    const chunk = new Uint8Array(1024 * 1024);
    chunk.set(mp3Bytes(2));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0)
          controller.enqueue(
            enc.encode(
              `--${boundary}\r\nContent-Disposition: form-data; name="articleId"\r\n\r\n${articleId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="lang"\r\n\r\nde\r\n--${boundary}\r\nContent-Disposition: form-data; name="narration"; filename="big.mp3"\r\n\r\n`,
            ),
          );
        if (sent >= 52) {
          controller.enqueue(enc.encode(`\r\n--${boundary}--\r\n`));
          controller.close();
          return;
        }
        controller.enqueue(chunk);
        sent++;
      },
    });
    const response = await SELF.fetch(`${BASE}/api/upload/narration`, {
      method: "POST",
      body: stream,
      headers: { Cookie: s.cookie, "Content-Type": `multipart/form-data; boundary=${boundary}` },
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    await response.body?.cancel();
    expect(await objectsUnder(`n/${s.user.museumId}/rec/`)).toHaveLength(0);
  });

  it("remove and regenerate: audit entries, 409 while a recording plays, 404 when nothing to remove", async () => {
    const { s, articleId, link } = await setup();
    expect((await upload(s.cookie, { articleId: String(articleId), lang: "de", narration: mp3File() })).status).toBe(200);
    const blocked = await s.call("regenerate_narration", { articleId, lang: "de" });
    expect(blocked.status).toBe(409);
    expect(blocked.body.error).toMatchObject({ reason: "recorded", field: "lang" });
    expect((await s.call("delete_narration", { articleId, lang: "de" })).status).toBe(200);
    expect((await s.call("delete_narration", { articleId, lang: "de" })).status).toBe(404);
    // Back to generation: the next view schedules it.
    expect(audioSrc(await visit(link, "de"))).toBeNull();
    const [generated] = await until(async () => {
      const rows = await narrationRows(articleId);
      return rows.length > 0 && rows;
    });
    const regenerated = await s.call("regenerate_narration", { articleId, lang: "de" });
    expect(regenerated.status).toBe(200);
    expect(regenerated.body).toEqual({ scheduled: true });
    const [fresh] = await until(async () => {
      const rows = await narrationRows(articleId);
      return rows[0] && rows[0].r2_key !== generated!.r2_key && rows;
    });
    expect(fresh!.text_hash).toBe(generated!.text_hash);
    expect(await env.MEDIA.head(generated!.r2_key as string)).toBeNull();
    const actions = await auditEntries(s.user, { action: "narration.%" });
    expect(actions.map((a) => a.action)).toEqual(["narration.upload", "narration.delete", "narration.regenerate"]);
    expect(actions.every((a) => a.target === `article:${articleId}` && a.detail.lang === "de")).toBe(true);
    // Bad input names its field.
    expect((await s.call("regenerate_narration", { articleId, lang: 7 })).body.error).toMatchObject({ field: "lang" });
    expect((await s.call("delete_narration", { articleId: "x", lang: "de" })).body.error).toMatchObject({ field: "articleId" });
  });

  it("translators work on their languages' narrations only", async () => {
    const { s, articleId } = await setup();
    const { cookie } = await memberSession(s.user, { role: "translator", languages: ["de"] });
    expect((await upload(cookie, { articleId: String(articleId), lang: "es", narration: mp3File() })).status).toBe(403);
    expect((await upload(cookie, { articleId: String(articleId), lang: "de", narration: mp3File() })).status).toBe(200);
    expect((await upload(s.cookie, { articleId: String(articleId), lang: "es", narration: mp3File() })).status).toBe(200);
    const call = (name: string, body: unknown) =>
      SELF.fetch(`${BASE}/api/manage/${name}`, { method: "POST", body: JSON.stringify(body), headers: { Cookie: cookie, "Content-Type": "application/json" } });
    expect((await call("delete_narration", { articleId, lang: "es" })).status).toBe(403);
    expect((await call("regenerate_narration", { articleId, lang: "es" })).status).toBe(403);
    expect((await get(`/api/read/narrations?articleId=${articleId}&lang=es`, cookie)).status).toBe(403);
    const mine = (await (await get(`/api/read/narrations?articleId=${articleId}`, cookie)).json()) as { narrations: Json[] };
    expect(mine.narrations.map((n) => n.lang)).toEqual(["de"]);
    expect((await call("delete_narration", { articleId, lang: "de" })).status).toBe(200);
    expect(await objectsUnder(`n/${s.user.museumId}/rec/`)).toHaveLength(1);
  });
});

/** Server-Timing's D1 round trips and where the target came from (decision 039). */
function edgeTiming(response: Response) {
  const header = response.headers.get("Server-Timing") ?? "";
  return { d1: /(?:^|, )d1;[^,]*desc="(\d+)"/.exec(header)?.[1], snapshot: /snapshot;[^,]*desc="([^"]*)"/.exec(header)?.[1] };
}

async function timedVisit(link: string, lang: string) {
  const response = await get(`/r/${link}?lang=${lang}`);
  expect(response.status).toBe(200);
  return { t: edgeTiming(response), html: await response.text() };
}

/** Views until one comes from the snapshot (D1 once, then the translation cache filling). */
async function cachedVisit(link: string, lang: string) {
  let last = await timedVisit(link, lang);
  for (let i = 0; i < 4 && last.t.d1 !== "0"; i++) {
    await new Promise((r) => setTimeout(r, 5));
    last = await timedVisit(link, lang);
  }
  return last;
}

describe("narrations in the visitor snapshot (decision 098)", () => {
  it("a cached view of a narrated article reads nothing from D1 and plays; upload and delete show on the next view", async () => {
    const s = await staffSession();
    const { articleId, link } = await publishArticle(s, texts(LINES));
    const recorded = await upload(s.cookie, { articleId: String(articleId), lang: "de", durationMs: "83000", narration: mp3File() });
    expect(recorded.status).toBe(200);
    const first = await timedVisit(link, "de");
    expect(first.t.d1).not.toBe("0");
    expect(audioSrc(first.html)).toBe(recorded.body.url);
    const cached = await cachedVisit(link, "de");
    expect(cached.t.d1).toBe("0");
    expect(cached.t.snapshot).toMatch(/^(isolate|kv)$/);
    expect(audioSrc(cached.html)).toBe(recorded.body.url);

    // A new recording replaces it at once (the upload marks the museum changed).
    const again = await upload(s.cookie, { articleId: String(articleId), lang: "de", narration: mp3File(10) });
    expect(again.status).toBe(200);
    const replaced = await timedVisit(link, "de");
    expect(replaced.t.d1).not.toBe("0");
    expect(audioSrc(replaced.html)).toBe(again.body.url);
    expect(audioSrc((await cachedVisit(link, "de")).html)).toBe(again.body.url);

    // Removed: the next view no longer plays it (a generated one is made after that view).
    expect((await s.call("delete_narration", { articleId, lang: "de" })).status).toBe(200);
    const removed = await timedVisit(link, "de");
    expect(removed.t.d1).not.toBe("0");
    expect(audioSrc(removed.html)).toBeNull();
    const [generated] = await until(async () => {
      const rows = await narrationRows(articleId);
      return rows.length > 0 && rows[0]!.kind === "generated" && rows;
    });
    const playing = await cachedVisit(link, "de");
    expect(playing.t.d1).toBe("0");
    expect(audioSrc(playing.html)).toBe(`/narration/${generated!.r2_key as string}`);
  });

  it("a snapshot made before narrations were kept in it reads as none; the page heals without a new generation", async () => {
    const s = await staffSession();
    const { articleId, link } = await publishArticle(s, texts(LINES));
    const recorded = await upload(s.cookie, { articleId: String(articleId), lang: "de", narration: mp3File() });
    await visit(link, "de");
    // The snapshot as an older deployment wrote it: no `narrations` field; this isolate forgets its copy.
    const key = await snapshotKey(`r/${link}`);
    let stored: { target: Json } | null = null;
    for (let i = 0; i < 100 && !(stored = await env.KV.get<{ target: Json }>(key, "json")); i++) await new Promise((r) => setTimeout(r, 10));
    expect(stored!.target.narrations).toMatchObject({ de: { kind: "recorded" } });
    delete stored!.target.narrations;
    await env.KV.put(key, JSON.stringify(stored));
    (globalThis as unknown as Record<symbol, Map<string, unknown>>)[Symbol.for("muselingo.visitor-cache.snapshots")]!.delete(`r/${link}`);
    const old = await timedVisit(link, "de");
    expect(old.t.snapshot).toBe("kv");
    expect(audioSrc(old.html)).toBeNull();
    // The background check finds the recording, generates nothing and ends the old snapshot.
    const healed = await until(async () => {
      const next = await timedVisit(link, "de");
      return audioSrc(next.html) === recorded.body.url && next;
    });
    expect(healed.t.snapshot).toBe("d1");
    expect(await narrationRows(articleId)).toMatchObject([{ lang: "de", kind: "recorded" }]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM narration_claims WHERE article_id = ?").bind(articleId).first("n")).toBe(0);
  });

  it("an attempt noted in KV holds back other isolates; the note lives at least KV's 60 s minimum; regenerate runs regardless and success drops it", async () => {
    const s = await staffSession();
    const { articleId } = await publishArticle(s, texts(LINES));
    let calls = 0;
    const failing: SpeechEngine = {
      ...offlineSpeechEngine({ url: env.OFFLINE_SPEECH_URL }),
      synthesize: async () => {
        calls++;
        throw new SpeechEngineError("offline", "HTTP 503: busy", { retryable: false, status: 503 });
      },
    };
    const scheduled: Promise<unknown>[] = [];
    const deps: NarrationDeps = { db: createDb(env.DB), media: env.MEDIA, engines: [failing], waitUntil: (p) => void p, kv: env.KV };
    deps.queue = directQueue(() => deps, scheduled);
    const at = { museumId: s.user.museumId, articleId, lang: "pt" };
    const target = { ...at, text: LINES.join("\n\n") };
    expect(await narrationForVisitor(deps, target)).toBeNull();
    await until(async () => scheduled.length === 1);
    await Promise.all(scheduled);
    expect(calls).toBe(1);
    const listed = await env.KV.list({ prefix: triedKey(at) });
    expect(listed.keys).toHaveLength(1);
    expect(listed.keys[0]!.expiration! * 1000).toBeGreaterThanOrEqual(Date.now() + 60_000 - 2_000);
    // Another isolate: nothing in its memory (this one forgets), the KV note holds it back.
    await forgetTried(undefined, at);
    expect(await narrationForVisitor(deps, target)).toBeNull();
    expect(scheduled).toHaveLength(1);
    // Notes of another article, language or text do not.
    expect(await narrationForVisitor(deps, { ...target, text: `${target.text} Encore.` })).toBeNull();
    await until(async () => scheduled.length === 2);
    await Promise.all(scheduled);
    // A note that is not ours (malformed) is ignored rather than trusted.
    await env.KV.put(triedKey({ ...at, lang: "nl" }), '{"hash":1}');
    expect(await narrationForVisitor(deps, { ...target, lang: "nl" })).toBeNull();
    await until(async () => scheduled.length === 3);
    await Promise.all(scheduled);
    // Staff's regenerate does not wait for the back-off (the configured engine runs at once), and a
    // finished generation drops the note.
    expect((await s.call("regenerate_narration", { articleId, lang: "pt" })).status).toBe(200);
    await until(async () => (await narrationRows(articleId)).find((row) => row.lang === "pt"));
    await until(async () => (await env.KV.get(triedKey(at))) === null);
  });
});
