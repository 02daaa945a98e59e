import { describe, expect, it } from "vitest";
import { AllEnginesFailed, EngineError, machineTranslate } from "~/translation/engines";
import { deeplBaseUrl, deeplEngine } from "~/translation/engines/deepl";
import { googleEngine } from "~/translation/engines/google";
import { libreTranslateEngine } from "~/translation/engines/libretranslate";
import { openAiCompatibleEngine } from "~/translation/engines/openai-compatible";
import { pseudoEngine } from "~/translation/engines/pseudo";
import { FAST, fakeServers } from "./engines-helpers";

const serve = fakeServers();

const signal = () => new AbortController().signal;
const upperAll = (texts: unknown) => (texts as string[]).map((t) => t.toUpperCase());

describe("deepl", () => {
  it("posts the texts with DeepL's codes and its auth header, and reads translations[].text", async () => {
    const server = await serve((req) => ({
      json: { translations: upperAll((req.body as { text: string[] }).text).map((text) => ({ detected_source_language: "FR", text })) },
    }));
    const engine = deeplEngine({ apiKey: "secret-key", baseUrl: `${server.url}/` });
    expect(await engine.translate(["bonjour", "merci"], "fr", "en", signal())).toEqual(["BONJOUR", "MERCI"]);
    const [req] = server.requests;
    expect(req!.method).toBe("POST");
    expect(req!.path).toBe("/v2/translate");
    expect(req!.headers.authorization).toBe("DeepL-Auth-Key secret-key");
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(req!.body).toEqual({ text: ["bonjour", "merci"], source_lang: "FR", target_lang: "EN-GB" });

    await engine.translate(["x"], "zh-Hant", "pt-BR", signal());
    expect(server.requests[1]!.body).toMatchObject({ source_lang: "ZH", target_lang: "PT-PT" });
    await engine.translate(["x"], "fr", "zh-TW", signal());
    expect(server.requests[2]!.body).toMatchObject({ target_lang: "ZH-HANT" });
  });

  it("serves only DeepL's languages and picks the free host for free keys", () => {
    const engine = deeplEngine({ apiKey: "k" });
    expect(engine.supports("fr", "de")).toBe(true);
    expect(engine.supports("fr", "gn")).toBe(false);
    expect(engine.supports("gn", "fr")).toBe(false);
    expect(engine.supports("fr", "xx")).toBe(false);
    expect(deeplBaseUrl("abc:fx")).toBe("https://api-free.deepl.com");
    expect(deeplBaseUrl("abc")).toBe("https://api.deepl.com");
  });

  it("calls a 456 (quota) a refusal and a 429 retryable, with Retry-After", async () => {
    const server = await serve((_req, i) => (i === 0 ? { status: 456, text: "Quota exceeded" } : { status: 429, text: "", headers: { "retry-after": "2" } }));
    const engine = deeplEngine({ apiKey: "k", baseUrl: server.url });
    const quota = (await engine.translate(["a"], "fr", "de", signal()).catch((e: unknown) => e)) as EngineError;
    expect(quota).toBeInstanceOf(EngineError);
    expect(quota.retryable).toBe(false);
    expect(quota.message).toMatch(/HTTP 456: Quota exceeded/);
    const busy = (await engine.translate(["a"], "fr", "de", signal()).catch((e: unknown) => e)) as EngineError;
    expect(busy.retryable).toBe(true);
    expect(busy.retryAfterMs).toBe(2000);
  });
});

describe("google", () => {
  it("posts q/source/target/format=text with the key in the query, and never leaks the key in errors", async () => {
    const server = await serve((req, i) =>
      i === 0
        ? { json: { data: { translations: upperAll((req.body as { q: string[] }).q).map((translatedText) => ({ translatedText })) } } }
        : { status: 400, json: { error: { message: "Bad language pair" } } },
    );
    const engine = googleEngine({ apiKey: "k&y=1", url: `${server.url}/language/translate/v2` });
    expect(await engine.translate(["un", "deux"], "nb", "zh-Hant", signal())).toEqual(["UN", "DEUX"]);
    const [req] = server.requests;
    expect(req!.path).toBe("/language/translate/v2?key=k%26y%3D1");
    expect(req!.body).toEqual({ q: ["un", "deux"], source: "no", target: "zh-TW", format: "text" });
    const error = (await engine.translate(["a"], "fr", "gn", signal()).catch((e: unknown) => e)) as EngineError;
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/HTTP 400/);
    expect(error.message).not.toMatch(/k&y|k%26y/);
  });

  it("maps codes and refuses what Google lacks", () => {
    const engine = googleEngine({ apiKey: "k", url: "https://example.test/v2" });
    expect(engine.supports("fr", "gn")).toBe(true);
    expect(engine.supports("fr", "gsw")).toBe(false);
  });
});

describe("libretranslate", () => {
  const languages = [
    { code: "en", name: "English", targets: ["fr", "zh-Hans", "de"] },
    { code: "fr", name: "French", targets: ["en", "zh-Hans", "de"] },
    { code: "zh-Hans", name: "Chinese", targets: ["en", "fr"] },
    { code: "de", name: "German", targets: ["en", "fr"] },
  ];

  it("reads /languages once, then posts q as a list with the server's codes and the api key", async () => {
    const server = await serve((req) =>
      req.path === "/languages" ? { json: languages } : { json: { translatedText: upperAll((req.body as { q: string[] }).q) } },
    );
    const engine = libreTranslateEngine({ url: `${server.url}/`, apiKey: "lt-key" });
    expect(await engine.translate(["bonjour", "chat"], "fr", "zh", signal())).toEqual(["BONJOUR", "CHAT"]);
    expect(await engine.translate(["oui"], "fr", "de", signal())).toEqual(["OUI"]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /languages", "POST /translate", "POST /translate"]);
    expect(server.requests[1]!.body).toEqual({ q: ["bonjour", "chat"], source: "fr", target: "zh-Hans", format: "text", api_key: "lt-key" });
  });

  it("uses an older server's codes and refuses, without retry, a pair it has no model for", async () => {
    const server = await serve((req) =>
      req.path === "/languages"
        ? {
            json: [
              { code: "en", targets: ["zh", "zt"] },
              { code: "zh", targets: ["en"] },
              { code: "zt", targets: ["en"] },
            ],
          }
        : { json: { translatedText: ["好"] } },
    );
    const engine = libreTranslateEngine({ url: server.url });
    await engine.translate(["good"], "en", "zh", signal());
    expect(server.requests[1]!.body).toMatchObject({ target: "zh" });
    expect(server.requests[1]!.body).not.toHaveProperty("api_key");
    await engine.translate(["good"], "en", "zh-Hant", signal());
    expect(server.requests[2]!.body).toMatchObject({ target: "zt" });
    const missing = (await engine.translate(["x"], "zh", "zh-Hant", signal()).catch((e: unknown) => e)) as EngineError;
    expect(missing.retryable).toBe(false);
    expect(missing.message).toMatch(/no model for zh → zh-Hant/);
    expect(engine.supports("fr", "gn")).toBe(false);
  });

  it("asks /languages again after a failed look-up", async () => {
    const server = await serve((req, i) =>
      req.path === "/languages" ? (i === 0 ? { status: 503, text: "starting" } : { json: languages }) : { json: { translatedText: ["X"] } },
    );
    const engine = libreTranslateEngine({ url: server.url });
    await expect(engine.translate(["x"], "fr", "en", signal())).rejects.toMatchObject({ retryable: true, status: 503 });
    expect(await engine.translate(["x"], "fr", "en", signal())).toEqual(["X"]);
  });
});

describe("openai-compatible", () => {
  it("sends the JSON-array prompt with the model and bearer key, and reads the array back", async () => {
    const server = await serve((req) => {
      const texts = JSON.parse((req.body as { messages: Array<{ content: string }> }).messages[1]!.content) as string[];
      return { json: { choices: [{ message: { role: "assistant", content: "```json\n" + JSON.stringify(upperAll(texts)) + "\n```" } }] } };
    });
    const engine = openAiCompatibleEngine({ baseUrl: `${server.url}/v1/`, apiKey: "sk-test", model: "tiny" });
    expect(await engine.translate(["a", "b\nc"], "fr", "gn", signal())).toEqual(["A", "B\nC"]);
    const [req] = server.requests;
    expect(req!.path).toBe("/v1/chat/completions");
    expect(req!.headers.authorization).toBe("Bearer sk-test");
    const body = req!.body as { model: string; temperature: number; messages: Array<{ role: string; content: string }> };
    expect(body.model).toBe("tiny");
    expect(body.temperature).toBe(0);
    expect(body.messages[0]!.role).toBe("system");
    expect(body.messages[0]!.content).toMatch(/French \(fr.*Guarani \(gn.*exactly 2/s);
    expect(body.messages[0]!.content).toContain("⟦");
    expect(JSON.parse(body.messages[1]!.content)).toEqual(["a", "b\nc"]);
  });

  it("sends no authorization header without a key", async () => {
    const server = await serve(() => ({ json: { choices: [{ message: { content: '["x"]' } }] } }));
    await openAiCompatibleEngine({ baseUrl: server.url, model: "m" }).translate(["a"], "fr", "de", signal());
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("retries an answer with the wrong count or no JSON, then succeeds", async () => {
    const answers = ['["only one"]', "Sure! Here is the translation.", '["A","B"]'];
    const server = await serve((_req, i) => ({ json: { choices: [{ message: { content: answers[i] } }] } }));
    const engine = openAiCompatibleEngine({ baseUrl: server.url, model: "m" });
    const out = await machineTranslate([engine], ["a", "b"], "fr", "de", FAST);
    expect(out.texts).toEqual(["A", "B"]);
    expect(server.requests).toHaveLength(3);
  });
});

describe("engines over HTTP inside machineTranslate", () => {
  it("retries 500s, then falls back to the next engine", async () => {
    const down = await serve(() => ({ status: 500, text: "boom" }));
    const deepl = deeplEngine({ apiKey: "k", baseUrl: down.url });
    const out = await machineTranslate([deepl, pseudoEngine()], ["Bonjour"], "fr", "de", FAST);
    expect(out).toEqual({ texts: ["[de] Bóñjóúr"], engines: ["pseudo"] });
    expect(down.requests).toHaveLength(3);
  });

  it("retries a 429 and bad JSON on the same engine", async () => {
    const server = await serve((req, i) =>
      i === 0
        ? { status: 429, text: "slow down" }
        : i === 1
          ? { text: "<html>oops</html>" }
          : { json: { translations: (req.body as { text: string[] }).text.map((t) => ({ text: `de:${t}` })) } },
    );
    const out = await machineTranslate([deeplEngine({ apiKey: "k", baseUrl: server.url })], ["a"], "fr", "de", FAST);
    expect(out.texts).toEqual(["de:a"]);
    expect(server.requests).toHaveLength(3);
  });

  it("gives up on a server that never answers within the timeout, and falls back", async () => {
    // The server never answers: without the timeout this test would hang until vitest's own limit.
    const silent = await serve(() => "hang");
    const out = await machineTranslate([libreTranslateEngine({ url: silent.url }), pseudoEngine()], ["chat"], "fr", "en", {
      ...FAST,
      timeoutMs: 100,
      retries: 1,
    });
    expect(out.engines).toEqual(["pseudo"]);
    expect(silent.requests).toHaveLength(2);
  });

  it("throws AllEnginesFailed at the deadline when the only engine hangs", async () => {
    const silent = await serve(() => "hang");
    const error = await machineTranslate([googleEngine({ apiKey: "k", url: silent.url })], ["a"], "fr", "de", {
      ...FAST,
      timeoutMs: 1_000,
      deadlineMs: 150,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AllEnginesFailed);
    expect((error as AllEnginesFailed).reason).toBe("deadline");
  });

  it("bounds parallel requests to one provider and batches by its limits", async () => {
    const server = await serve(async (req) => {
      await new Promise((r) => setTimeout(r, 20));
      return { json: { translations: (req.body as { text: string[] }).text.map((t) => ({ text: t })) } };
    });
    const texts = Array.from({ length: 230 }, (_, i) => `segment ${i}`);
    await machineTranslate([deeplEngine({ apiKey: "k", baseUrl: server.url })], texts, "fr", "de", { ...FAST, concurrency: 2 });
    expect(server.requests.map((r) => (r.body as { text: string[] }).text.length)).toEqual([50, 50, 50, 50, 30]);
    expect(server.maxInFlight()).toBe(2);
  });
});
