import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import enCommon from "../../locales/en/common.json";
import { interfaceWordsKey, visitorStrings } from "~/visitor/strings.server";
import { BASE, get, publishArticle, staffSession, texts } from "./helpers";
import { recordingEngine, settle, test, translationDeps } from "./translation-helpers";

type Session = Awaited<ReturnType<typeof staffSession>>;

// Each distinct text once: two keys may share an English text ("Back to the tour"), the engine gets it once.
/** The visitor page's own English words, which museum B copies into an article of its own. */
const INTERFACE_WORDS = [...new Set(Object.values(enCommon.visitor))];
const PHONE = "Call +1 555 0100";

async function setSourceLanguage(s: Session, sourceLang: string) {
  const response = await SELF.fetch(`${BASE}/settings`, {
    method: "POST",
    headers: { Cookie: s.cookie, Host: "localhost", Origin: BASE },
    body: new URLSearchParams({ intent: "museum", name: "Museum B", sourceLang, timezone: "Europe/Paris" }),
    redirect: "manual",
  });
  expect(response.status).toBe(200);
}

/** An article whose lines are `lines`, linked to a new code; returns its id and the code's link. */
async function publish(s: Session, lines: readonly string[]) {
  return publishArticle(s, texts([lines.join("\n")]));
}

/** Museum B writes every interface word as a line of its article and "corrects" each one's translation. */
async function museumRewritingTheInterface(lang: string) {
  const b = await staffSession();
  await setSourceLanguage(b, "en");
  const { articleId, link } = await publish(b, INTERFACE_WORDS);
  const review = (await b.read(`/api/read/translation?articleId=${articleId}&lang=${lang}`)).body as { segments: { id: string; source: string }[] };
  expect(review.segments.length).toBeGreaterThanOrEqual(INTERFACE_WORDS.length - 1);
  for (const segment of review.segments) {
    const fixed = await b.call("update_translation", { articleId, lang, segmentId: segment.id, text: `${PHONE} (${segment.source.length})` });
    expect(fixed.status).toBe(200);
  }
  return { b, link };
}

describe("the visitor page's own words", () => {
  it("never come from another museum's corrections (museum B's Yoruba 'corrections' stay off museum A's page)", async () => {
    const a = await staffSession();
    const { link: linkA } = await publish(a, ["La Joconde, peinte vers 1503."]);
    const { link: linkB } = await museumRewritingTheInterface("yo");

    // B's own page in Yoruba shows B's corrections of B's article: that is B's content, as it should be.
    const pageB = await (await get(`/r/${linkB}?lang=yo`)).text();
    expect(pageB).toContain(PHONE);

    // A's page in Yoruba: the interface words are the engines' (the pseudo engine here), never B's text.
    const pageA = await get(`/r/${linkA}?lang=yo`);
    expect(pageA.status).toBe(200);
    const html = await pageA.text();
    expect(html).not.toContain(PHONE);
    expect(html).toContain("[yo] Lá Jóçóñdé");
    expect(html).toContain("[yo] Pséúdó-tráñslátíóñ");
    // B's page has the same interface words as A's: B's memory decides B's article, not the page's frame.
    expect(pageB).toContain("[yo] Tráñslátíóñ révíéwéd bý thé múséúm");
    for (const page of [html, pageB]) expect(page).toContain("[yo] Láñgúágé:");
    // Museum B corrects every interface word, one call each (about 150): 5 s alone, but a machine busy with
    // other suites may need more than the default minute.
  }, 120_000);

  it("are not written into a museum's translation memory (nor read from it), and are cached once for all museums", async () => {
    const a = await staffSession();
    const { link } = await publish(a, ["Une amphore attique."]);
    expect((await get(`/r/${link}?lang=ig`)).status).toBe(200);
    const rows = await env.DB.prepare(
      "SELECT source_text FROM translation_memory JOIN translation_segments USING (museum_id, source_lang, source_hash) WHERE museum_id = ? AND target_lang = 'ig'",
    )
      .bind(a.user.museumId)
      .all<{ source_text: string }>();
    // Only the article's own line: no interface word in the museum's memory, so its review page never shows them.
    expect(rows.results.map((r) => r.source_text)).toEqual(["Une amphore attique."]);

    const keys = (await env.KV.list({ prefix: "ui:" })).keys.map((k) => k.name);
    expect(keys.filter((k) => k.includes(":ig:"))).toHaveLength(1);
    expect(keys.every((k) => !k.startsWith("ui:v1:"))).toBe(true);
  });

  it("50 simultaneous first views in a new language all get the translated interface", async () => {
    const a = await staffSession();
    const { link } = await publish(a, ["Une amphore attique."]);
    const responses = await Promise.all(Array.from({ length: 50 }, () => get(`/r/${link}?lang=ha`)));
    const pages = await Promise.all(responses.map((r) => r.text()));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(pages.every((p) => p.includes("[ha] Pséúdó-tráñslátíóñ"))).toBe(true);
  }, 120_000);
});

describe("visitorStrings, called directly", () => {
  test("simultaneous first requests in one language share one engine call, then KV serves every isolate", async () => {
    const { engine, calls } = recordingEngine();
    const results = await Promise.all(Array.from({ length: 20 }, () => visitorStrings(translationDeps([engine]), "sw")));
    // One translation of the interface (the engine may take it in several batches): every word sent once.
    expect(calls.flat()).toEqual(INTERFACE_WORDS);
    expect(results.every((r) => r.lang === "sw" && r.strings.language === "<sw> Language")).toBe(true);
    await settle();
    const keys = (await env.KV.list({ prefix: "ui:v2:sw:" })).keys;
    expect(keys).toHaveLength(1);
    expect(await env.KV.get(keys[0]!.name, "json")).toMatchObject({ language: "<sw> Language" });
    // Other engines configured: another key, so a change of engines is never served the old words.
    const other = recordingEngine({ id: "deepl" });
    expect((await visitorStrings(translationDeps([other.engine]), "sw")).strings.language).toBe("<sw> Language");
    expect(other.calls.flat()).toEqual(INTERFACE_WORDS);
  });

  test("a cached entry that is not a full set of words is ignored and made again", async () => {
    const { engine, calls } = recordingEngine({ id: "google" });
    const broken: [string, string][] = [
      ["xh", '{"language":"x"}'],
      ["st", "not json"],
      ["tn", "null"],
      ["ts", JSON.stringify({ ...enCommon.visitor, language: "" })],
    ];
    for (const [lang, value] of broken) {
      const key = await interfaceWordsKey(lang, [engine]);
      expect(key).toMatch(new RegExp(`^ui:v2:${lang}:[0-9a-f]{16}$`));
      await env.KV.put(key, value);
      expect((await visitorStrings(translationDeps([engine]), lang)).strings.language).toBe(`<${lang}> Language`);
      await settle();
      expect(await env.KV.get(key, "json")).toMatchObject({ language: `<${lang}> Language` });
    }
    expect(calls.flat()).toHaveLength(broken.length * INTERFACE_WORDS.length);
  });

  test("while the engines fail: English at once, and no engine call again during the back-off", async () => {
    const failing = recordingEngine({ id: "workers-ai", fail: true });
    const first = await visitorStrings(translationDeps([failing.engine]), "zu");
    expect(first).toEqual({ strings: enCommon.visitor, lang: "en" });
    const made = failing.calls.length;
    expect(made).toBeGreaterThanOrEqual(1);
    const again = await Promise.all(Array.from({ length: 10 }, () => visitorStrings(translationDeps([failing.engine]), "zu")));
    expect(again.every((r) => r.lang === "en")).toBe(true);
    expect(failing.calls).toHaveLength(made);
  });
});
