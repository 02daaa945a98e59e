import { describe, expect, it } from "vitest";
import { articleContentSchema } from "~/content/schema";
import { easyReadEnginesFrom, easyReadMessages, openAiCompatibleRewriter, pseudoRewrite, workersAiLlmRewriter } from "~/easy-read/engines";
import { fieldsToRewrite, mapFields, textFields, textHash, tidyField } from "~/easy-read/fields";
import { readConfig } from "~/config.server";
import { EngineError } from "~/translation/engines/errors";
import { displayClasses, displayCookie, displayFromForm, parseDisplay, serializeDisplay } from "~/visitor/display/choices";
import { safeBack } from "~/visitor/display/display.server";
import { fakeServer } from "./engines-helpers";

const content = articleContentSchema.parse([
  { type: "metadatas", url: "amphore" },
  { type: "text", content: "Une amphore.\nVers 530." },
  { type: "heading", content: "Le décor" },
  { type: "image", src: "/media/a.jpg", alt: "Amphore" },
  {
    type: "accordion",
    header: { content: "Plus" },
    details: [
      { type: "text", content: "Détail" },
      { type: "legendItem", src: "", alt: "", content: "Légende" },
    ],
  },
  { type: "space", size: 20 },
]);

describe("easy-read fields", () => {
  it("lists every text field with its id and kind, and maps them keeping everything else", () => {
    expect(textFields(content).map((f) => `${f.id}:${f.kind}`)).toEqual([
      "e1.content:text",
      "e2.content:heading",
      "e3.alt:alt",
      "e4.header:label",
      "e4.d0.content:text",
      "e4.d1.content:text",
      "e4.d1.alt:alt",
    ]);
    expect(fieldsToRewrite(content).map((f) => f.id)).not.toContain("e4.d1.alt");
    const mapped = mapFields(content, (text, id) => `${id}|${text}`);
    expect(mapped[3]).toMatchObject({ type: "image", src: "/media/a.jpg", alt: "e3.alt|Amphore" });
    expect(mapped[5]).toEqual(content[5]);
    expect(articleContentSchema.safeParse(mapped).success).toBe(true);
  });

  it("tidies a field: one-line kinds lose breaks, paragraphs keep one sentence per line, NFC", () => {
    expect(tidyField("  Le\ndécor \r\n antique ", "heading")).toBe("Le décor antique");
    expect(tidyField("Une.\r\n\n\n\nDeux.\u2028Trois.  ", "text")).toBe("Une.\n\nDeux.\nTrois.");
    expect(tidyField("Cafe\u0301", "text")).toBe("Café");
  });

  it("hashes texts only: a style or media change keeps the hash, a text change does not", async () => {
    const base = await textHash(content);
    const styled = content.map((e) => (e.type === "image" ? { ...e, src: "/media/b.jpg", size: 50 } : e)) as typeof content;
    expect(await textHash(styled)).toBe(base);
    expect(await textHash(mapFields(content, (t, id) => (id === "e2.content" ? "Autre" : t)))).not.toBe(base);
  });
});

describe("easy-read engines", () => {
  it("the offline rewriter puts one sentence per line", () => {
    expect(pseudoRewrite("Une amphore.  Elle date de 530 ! Vraiment ?")).toBe("▸ Une amphore.\n▸ Elle date de 530 !\n▸ Vraiment ?");
    expect(pseudoRewrite("")).toBe("");
  });

  it("asks with the rules, the language and the count", () => {
    const [system, user] = easyReadMessages(["a", "b"], "fr");
    expect(system!.content).toContain("French (fr");
    expect(system!.content).toContain("exactly 2 strings");
    expect(system!.content).toContain("one idea per sentence");
    expect(JSON.parse(user!.content)).toEqual(["a", "b"]);
  });

  it("openai-compatible: the chat-completions protocol against a local fake, and its failures", async () => {
    const server = await fakeServer((request, index) => {
      if (index === 1) return { status: 500, json: { error: { message: "boom" } } };
      if (index === 2) return { json: { choices: [{ message: { content: '["seulement un"]' } }] } };
      const texts = JSON.parse((request.body as { messages: { content: string }[] }).messages[1]!.content) as string[];
      return {
        json: {
          id: "chatcmpl-1",
          object: "chat.completion",
          choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify(texts.map((t) => `Facile : ${t}`)) }, finish_reason: "stop" }],
        },
      };
    });
    try {
      const engine = openAiCompatibleRewriter({ baseUrl: `${server.url}/v1/`, apiKey: "sk-test", model: "gpt-4o-mini" });
      expect(await engine.rewrite(["Une amphore.", "Un vase."], "fr", AbortSignal.timeout(5_000))).toEqual(["Facile : Une amphore.", "Facile : Un vase."]);
      const first = server.requests[0]!;
      expect(first.path).toBe("/v1/chat/completions");
      expect(first.headers.authorization).toBe("Bearer sk-test");
      expect(first.body).toMatchObject({ model: "gpt-4o-mini", temperature: 0.2 });
      const failed = await engine.rewrite(["x"], "fr", AbortSignal.timeout(5_000)).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(EngineError);
      expect((failed as EngineError).retryable).toBe(true);
      const short = await engine.rewrite(["x", "y"], "fr", AbortSignal.timeout(5_000)).catch((e: unknown) => e);
      expect((short as Error).message).toContain("returned 1 translations for 2 texts");
    } finally {
      await server.close();
    }
  });

  it("workers-ai-llm: the binding's { response } answer, parsed JSON or text", async () => {
    const calls: unknown[] = [];
    const ai = {
      async run(model: string, inputs: Record<string, unknown>) {
        calls.push({ model, inputs });
        return calls.length === 1 ? { response: ["Facile."] } : { response: 'Voici : ["Facile deux."]' };
      },
    };
    const engine = workersAiLlmRewriter(ai, "@cf/meta/llama-3.3-70b-instruct-fp8-fast");
    expect(await engine.rewrite(["Un."], "fr", AbortSignal.timeout(1_000))).toEqual(["Facile."]);
    expect(await engine.rewrite(["Deux."], "fr", AbortSignal.timeout(1_000))).toEqual(["Facile deux."]);
    const failing = workersAiLlmRewriter({ run: () => Promise.reject(new Error("needs to be run remotely")) }, "@cf/x/y");
    const error = (await failing.rewrite(["a"], "fr", AbortSignal.timeout(1_000)).catch((e: unknown) => e)) as EngineError;
    expect(error.retryable).toBe(false);
  });

  it("uses the LLM engines of TRANSLATION_ENGINES, in order, and pseudo; never the others", () => {
    const SECRET = { SESSION_SECRET: "unit-tests-secret-0123456789abcdef0123" };
    const config = readConfig({
      ...SECRET,
      TRANSLATION_ENGINES: "deepl,openai-compatible,workers-ai,workers-ai-llm,pseudo",
      DEEPL_API_KEY: "k",
      OPENAI_BASE_URL: "https://api.example.org/v1",
      OPENAI_MODEL: "m",
      AI: {},
    });
    expect(easyReadEnginesFrom(config, { run: async () => ({}) }).map((e) => e.id)).toEqual(["openai-compatible", "workers-ai-llm", "pseudo"]);
    expect(easyReadEnginesFrom(readConfig({ ...SECRET, TRANSLATION_ENGINES: "deepl", DEEPL_API_KEY: "k" }))).toEqual([]);
  });
});

describe("display choices", () => {
  it("parses strictly: junk gives the defaults", () => {
    expect(parseDisplay("t2.c.s")).toEqual({ text: 2, contrast: true, spacing: true });
    expect(parseDisplay("s.t1")).toEqual({ text: 1, contrast: false, spacing: true });
    for (const junk of ["t3", "t1.t2", "c.c", "C", "", undefined, null, "t1.", ".c", "t1.c.s.x", "x".repeat(40), "t1 c"]) {
      expect(parseDisplay(junk)).toEqual({ text: 0, contrast: false, spacing: false });
    }
  });

  it("round-trips, gives the classes and the cookie", () => {
    for (const text of [0, 1, 2] as const)
      for (const contrast of [false, true])
        for (const spacing of [false, true]) {
          const choices = { text, contrast, spacing };
          expect(parseDisplay(serializeDisplay(choices))).toEqual(choices);
        }
    expect(displayClasses({ text: 1, contrast: true, spacing: false })).toBe("v-text-1 v-contrast");
    expect(displayCookie({ text: 0, contrast: false, spacing: false }, true)).toBe("muselingo_display=; Max-Age=0; Path=/; SameSite=Lax; HttpOnly; Secure");
    expect(displayFromForm(new URLSearchParams("text=2&contrast=1&spacing=on"))).toEqual({ text: 2, contrast: true, spacing: false });
  });

  it("goes back only to a visitor page of this site", () => {
    expect(safeBack("/r/abc?lang=ar")).toBe("/r/abc?lang=ar");
    expect(safeBack("/v/musee/amphore")).toBe("/v/musee/amphore");
    for (const evil of [
      null,
      "",
      "//evil.example",
      "/\\evil",
      "https://evil.example/r/x",
      "/r/../dashboard",
      "/dashboard",
      "/r/%2F%2Fevil",
      "/r/a\nb",
      "/r/" + "a".repeat(3000),
    ]) {
      expect(safeBack(evil)).toBe("/");
    }
  });
});
