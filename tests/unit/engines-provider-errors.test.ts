import { describe, expect, it } from "vitest";
import { EngineError, machineTranslate } from "~/translation/engines";
import { googleEngine } from "~/translation/engines/google";
import { isReasoningModel, openAiCompatibleEngine } from "~/translation/engines/openai-compatible";
import { pseudoEngine } from "~/translation/engines/pseudo";
import { FAST, fakeServers, type RecordedRequest, type Reply } from "./engines-helpers";

const serve = fakeServers();

const signal = () => new AbortController().signal;

type ChatBody = { model: string; temperature?: number; messages: Array<{ content: string }> };

/**
 * A chat-completions server that behaves like api.openai.com for a reasoning model: any temperature but
 * the default is refused with a 400 in OpenAI's error shape (the body reported against the real API in
 * openai/openai-python#2104, cline/cline#341, tmc/langchaingo#1355); without it, the JSON array comes back.
 */
function reasoningServer(code: "unsupported_value" | "unsupported_parameter" = "unsupported_value") {
  return serve((req) => {
    const body = req.body as ChatBody;
    if (body.temperature !== undefined && body.temperature !== 1) {
      return {
        status: 400,
        json: {
          error: {
            message:
              code === "unsupported_value"
                ? `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`
                : "Unsupported parameter: 'temperature' is not supported with this model.",
            type: "invalid_request_error",
            param: "temperature",
            code,
          },
        },
      };
    }
    const texts = JSON.parse(body.messages[1]!.content) as string[];
    return {
      json: {
        id: "chatcmpl-1",
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify(texts.map((t) => `EN:${t}`)) }, finish_reason: "stop" }],
      },
    };
  });
}

describe("openai-compatible and reasoning models", () => {
  it("knows OpenAI's reasoning models by name, with or without a router's prefix", () => {
    for (const model of ["o1", "o1-mini", "o3", "o3-mini", "o4-mini", "gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5.1", "openai/o3-mini", " GPT-5-mini "]) {
      expect(isReasoningModel(model), model).toBe(true);
    }
    for (const model of ["gpt-4o", "gpt-4o-mini", "gpt-4.1", "llama3.1:8b", "mistral-small-latest", "omni-moderation-latest", "qwen2.5", "o", ""]) {
      expect(isReasoningModel(model), model).toBe(false);
    }
  });

  it.each(["o3-mini", "gpt-5", "gpt-5-mini", "o1", "o4-mini"])("sends no temperature to %s, which answers at the first call", async (model) => {
    const server = await reasoningServer();
    const engine = openAiCompatibleEngine({ baseUrl: server.url, apiKey: "sk", model });
    expect(await engine.translate(["Bonjour"], "fr", "en", signal())).toEqual(["EN:Bonjour"]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body).not.toHaveProperty("temperature");
  });

  it("keeps temperature 0 for other models", async () => {
    const server = await serve(() => ({ json: { choices: [{ message: { content: '["x"]' } }] } }));
    await openAiCompatibleEngine({ baseUrl: server.url, model: "gpt-4o-mini" }).translate(["a"], "fr", "de", signal());
    expect((server.requests[0]!.body as ChatBody).temperature).toBe(0);
  });

  it.each(["unsupported_value", "unsupported_parameter"] as const)(
    "asks again without temperature once a model under another name refuses it (%s), and never sends it again",
    async (code) => {
      const server = await reasoningServer(code);
      // An Azure deployment or a proxy alias hides the model's real name.
      const engine = openAiCompatibleEngine({ baseUrl: server.url, model: "museum-translator" });
      expect(await engine.translate(["Bonjour"], "fr", "en", signal())).toEqual(["EN:Bonjour"]);
      expect(server.requests.map((r) => (r.body as ChatBody).temperature)).toEqual([0, undefined]);
      expect(await engine.translate(["Merci"], "fr", "en", signal())).toEqual(["EN:Merci"]);
      expect(server.requests).toHaveLength(3);
      expect(server.requests[2]!.body).not.toHaveProperty("temperature");
    },
  );

  it("inside machineTranslate, the reasoning model translates instead of silently falling to the next engine", async () => {
    const server = await reasoningServer();
    const out = await machineTranslate([openAiCompatibleEngine({ baseUrl: server.url, model: "proxy-alias" }), pseudoEngine()], ["Bonjour"], "fr", "en", FAST);
    expect(out).toEqual({ texts: ["EN:Bonjour"], engines: ["openai-compatible"] });
  });

  it("does not retry another 400 (a bad message, an unknown model)", async () => {
    const server = await serve(() => ({
      status: 400,
      json: { error: { message: "Invalid value for 'model'.", type: "invalid_request_error", param: "model", code: "invalid_value" } },
    }));
    const error = (await openAiCompatibleEngine({ baseUrl: server.url, model: "nope" })
      .translate(["a"], "fr", "de", signal())
      .catch((e: unknown) => e)) as EngineError;
    expect(error).toBeInstanceOf(EngineError);
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(400);
    expect(server.requests).toHaveLength(1);
  });
});

/**
 * Google Cloud Translation's quota errors, as documented (https://cloud.google.com/translate/quotas: a 403
 * whose message is "User Rate Limit Exceeded" for a per-minute quota, "Daily Limit Exceeded" for a daily
 * one) in Google's JSON error format with `errors[].domain` "usageLimits" and `errors[].reason`.
 */
function googleError(reason: string, message: string): Reply {
  return { status: 403, json: { error: { code: 403, message, errors: [{ message, domain: "usageLimits", reason }] } } };
}
const googleOk = (req: RecordedRequest): Reply => ({
  json: { data: { translations: (req.body as { q: string[] }).q.map((q) => ({ translatedText: `de:${q}` })) } },
});

describe("google quota errors", () => {
  it.each([
    ["userRateLimitExceeded", "User Rate Limit Exceeded"],
    ["rateLimitExceeded", "Rate Limit Exceeded"],
  ])("a 403 %s is a rate limit: retried with back-off on Google, not passed to the next engine", async (reason, message) => {
    const server = await serve((req, i) => (i < 2 ? googleError(reason, message) : googleOk(req)));
    const engine = googleEngine({ apiKey: "k", url: server.url });
    const first = (await engine.translate(["a"], "fr", "de", signal()).catch((e: unknown) => e)) as EngineError;
    expect(first.retryable).toBe(true);
    expect(first.code).toBe(reason);
    expect(first.status).toBe(403);
    const out = await machineTranslate([engine, pseudoEngine()], ["Hallo"], "fr", "de", FAST);
    expect(out).toEqual({ texts: ["de:Hallo"], engines: ["google"] });
    expect(server.requests).toHaveLength(3);
  });

  it("a 403 without a reason but with Google's per-minute message is a rate limit too", async () => {
    const server = await serve(() => ({ status: 403, json: { error: { code: 403, message: "User Rate Limit Exceeded" } } }));
    const error = (await googleEngine({ apiKey: "k", url: server.url })
      .translate(["a"], "fr", "de", signal())
      .catch((e: unknown) => e)) as EngineError;
    expect(error.retryable).toBe(true);
  });

  it.each([
    ["dailyLimitExceeded", "Daily Limit Exceeded"],
    ["accessNotConfigured", "Cloud Translation API has not been used in project 1 before or it is disabled."],
    ["forbidden", "The caller does not have permission"],
  ])("a 403 %s is a refusal: the next engine at once", async (reason, message) => {
    const server = await serve(() => googleError(reason, message));
    const out = await machineTranslate([googleEngine({ apiKey: "k", url: server.url }), pseudoEngine()], ["Hallo"], "fr", "de", FAST);
    expect(out.engines).toEqual(["pseudo"]);
    expect(server.requests).toHaveLength(1);
  });

  it("a 403 that is not JSON stays a refusal", async () => {
    const server = await serve(() => ({ status: 403, text: "<html>Forbidden</html>" }));
    const error = (await googleEngine({ apiKey: "k", url: server.url })
      .translate(["a"], "fr", "de", signal())
      .catch((e: unknown) => e)) as EngineError;
    expect(error.retryable).toBe(false);
    expect(error.code).toBeUndefined();
  });
});
