// A visitor page kept for the identical requests of the next moment (decision 141): what is kept, what is
// replayed, and what ends a kept answer. The page's steps and the Worker, with the real runtime, are in
// tests/integration/visitor-replay.test.ts.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { describe, expect, it, vi } from "vitest";
import { RequestTiming } from "~/visitor-cache/timing";
import { STAMP_CHECK_MS } from "~/visitor-cache/snapshot.server";
import { keepForReplay, replayed, REPLAY_CHARS, REPLAY_ENTRIES } from "~/visitor/replay/replay.server";

const NONCE = "n0nceOfTheFirstView+/A==";
const ENV = { name: "env of this isolate" };
let unique = 0;
const url = () => `https://muselingo.test/r/replay${++unique}`;

function context(fields: Partial<AppLoadContext> = {}): AppLoadContext {
  return {
    cspNonce: NONCE,
    sessionCookie: false,
    timing: new RequestTiming(),
    cloudflare: { env: ENV },
    ...fields,
  } as unknown as AppLoadContext;
}

const HTML = `<!DOCTYPE html><html lang="de"><head><style nonce="${NONCE}">p{}</style></head><body><p>Héraclès 𝒜 ‮</p><script nonce="${NONCE}">1</script></body></html>`;

function answer(headers: Record<string, string> = {}, status = 200) {
  return new Response(HTML, { status, headers: { "Content-Type": "text/html; charset=utf-8", Vary: "Accept-Language, Cookie", ...headers } });
}

/** Keeps the page for `request` and gives the counter it was kept with. */
function keep(request: Request, fields: { context?: AppLoadContext; response?: Response; draftPreview?: boolean; holds?: () => boolean; now?: number } = {}) {
  const count = vi.fn();
  keepForReplay(
    { request, context: fields.context ?? context() },
    { html: HTML, response: fields.response ?? answer(), draftPreview: fields.draftPreview ?? false },
    fields.holds ?? (() => true),
    count,
    fields.now,
  );
  return count;
}

describe("a kept page replayed", () => {
  it("the same status, headers and bytes, with this request's nonce everywhere the page had its own; counted", async () => {
    const address = url();
    const count = keep(new Request(address, { headers: { "Accept-Language": "de" } }));
    const second = new Request(address, { headers: { "Accept-Language": "de", "User-Agent": "a phone" } });
    const nonce = "anotherNonceForTheSecond==";
    const ctx = context({ cspNonce: nonce });
    const response = replayed(second, ctx)!;
    expect(response.status).toBe(200);
    expect([...response.headers]).toEqual([...answer().headers]);
    expect(await response.text()).toBe(HTML.replaceAll(NONCE, nonce));
    expect(count).toHaveBeenCalledTimes(1);
    expect(count).toHaveBeenCalledWith(second, ctx);
    expect(ctx.timing.replayed).toBe(true);
    expect(ctx.timing.header()).toContain('page;desc="replayed"');
    // Each replay is counted, none stops the next.
    replayed(second, context({ cspNonce: "aThirdNonceForTheThird=" }));
    expect(count).toHaveBeenCalledTimes(2);
  });

  it("only to the identical request: same URL, Accept-Language and Cookie, GET, the same env", () => {
    const address = url();
    keep(new Request(address, { headers: { "Accept-Language": "de", Cookie: "muselingo_easy=1" } }));
    const ask = (target: string, headers: Record<string, string>, fields: Partial<AppLoadContext> = {}, method = "GET") =>
      replayed(new Request(target, { method, headers }), context(fields));
    const same = { "Accept-Language": "de", Cookie: "muselingo_easy=1" };
    expect(ask(`${address}?lang=de`, same)).toBeNull();
    expect(ask(address, { ...same, "Accept-Language": "de-DE" })).toBeNull();
    expect(ask(address, { "Accept-Language": "de" })).toBeNull();
    expect(ask(address, { ...same, Cookie: "muselingo_easy=0" })).toBeNull();
    expect(ask(address, same, {}, "HEAD")).toBeNull();
    expect(ask(address, same, { sessionCookie: true })).toBeNull();
    expect(ask(address, same, { cspNonce: undefined })).toBeNull();
    expect(ask(address, same, { cloudflare: { env: { name: "another env" } } as unknown as AppLoadContext["cloudflare"] })).toBeNull();
    expect(ask(address, same)).not.toBeNull();
  });

  it("never kept: HEAD or POST, a session, a draft preview, a cookie set, not a 200, a short or missing nonce, a snapshot that no longer holds", () => {
    const cases: [string, Parameters<typeof keep>[1], RequestInit?][] = [
      ["HEAD", {}, { method: "HEAD" }],
      ["POST", {}, { method: "POST", body: "x" }],
      ["a session", { context: context({ sessionCookie: true }) }],
      ["a draft preview", { draftPreview: true }],
      ["a cookie set", { response: answer({ "Set-Cookie": "muselingo_lang=de; Path=/" }) }],
      ["a 404", { response: answer({}, 404) }],
      ["a short nonce", { context: context({ cspNonce: "abc" }) }],
      ["no nonce", { context: context({ cspNonce: undefined }) }],
      ["a snapshot gone", { holds: () => false }],
    ];
    for (const [name, fields, init] of cases) {
      const address = url();
      keep(new Request(address, init), fields);
      expect(replayed(new Request(address), context()), name).toBeNull();
    }
    const long = `${url()}?q=${"x".repeat(5_000)}`;
    keep(new Request(long));
    expect(replayed(new Request(long), context())).toBeNull();
  });
});

describe("what ends a kept page", () => {
  it("STAMP_CHECK_MS after it was rendered, or as soon as its snapshot no longer holds; gone once ended", () => {
    const address = url();
    const t0 = 1_000_000;
    keep(new Request(address), { now: t0 });
    expect(replayed(new Request(address), context(), t0 + STAMP_CHECK_MS - 1)).not.toBeNull();
    expect(replayed(new Request(address), context(), t0 + STAMP_CHECK_MS)).toBeNull();
    // Ended answers are forgotten, not kept to be found again.
    expect(replayed(new Request(address), context(), t0)).toBeNull();

    const other = url();
    let holds = true;
    const count = keep(new Request(other), { holds: () => holds });
    expect(replayed(new Request(other), context())).not.toBeNull();
    holds = false;
    expect(replayed(new Request(other), context())).toBeNull();
    holds = true;
    expect(replayed(new Request(other), context())).toBeNull();
    expect(count).toHaveBeenCalledTimes(1);
  });

  it(`at most ${REPLAY_ENTRIES} pages per isolate: the least recently kept goes first`, () => {
    const addresses = Array.from({ length: REPLAY_ENTRIES + 1 }, url);
    for (const address of addresses) keep(new Request(address));
    expect(replayed(new Request(addresses[0]!), context())).toBeNull();
    expect(replayed(new Request(addresses[1]!), context())).not.toBeNull();
    expect(replayed(new Request(addresses.at(-1)!), context())).not.toBeNull();
  });

  it(`at most ${REPLAY_CHARS} characters of HTML per isolate, however few the pages: the oldest go first; a longer page is not kept`, () => {
    const quarter = `<p nonce="${NONCE}">${"é".repeat(REPLAY_CHARS / 4 - 40)}</p>`;
    const keepLong = (address: string, html: string) =>
      keepForReplay({ request: new Request(address), context: context() }, { html, response: answer(), draftPreview: false }, () => true, vi.fn());
    const addresses = Array.from({ length: 5 }, url);
    for (const address of addresses) keepLong(address, quarter);
    expect(replayed(new Request(addresses[0]!), context())).toBeNull();
    for (const address of addresses.slice(1)) expect(replayed(new Request(address), context()), address).not.toBeNull();
    const huge = url();
    keepLong(huge, `${quarter}${"x".repeat(REPLAY_CHARS)}`);
    expect(replayed(new Request(huge), context())).toBeNull();
    // Ended and replaced pages give their characters back: the four quarters are still all kept.
    keepLong(addresses[1]!, quarter);
    for (const address of addresses.slice(1)) expect(replayed(new Request(address), context()), address).not.toBeNull();
  });

  it("a page kept again replaces the one before it", async () => {
    const address = url();
    keep(new Request(address));
    keepForReplay(
      { request: new Request(address), context: context() },
      { html: `<p nonce="${NONCE}">new</p>`, response: answer(), draftPreview: false },
      () => true,
      vi.fn(),
    );
    expect(await replayed(new Request(address), context({ cspNonce: "theNextNonceOfTheViews=" }))!.text()).toBe('<p nonce="theNextNonceOfTheViews=">new</p>');
  });
});
