import { env } from "cloudflare:test";
import { it } from "vitest";
import { createDb } from "~/db/client.server";
import { glossaryRules } from "~/models/glossary.server";
import type { TranslationEngine } from "~/translation/engines";
import type { TranslationDeps } from "~/translation/translate.server";

// Background writes (the KV cache) must finish inside each test: isolated storage is popped before afterEach.
const pending: Promise<unknown>[] = [];

/** A `waitUntil` for tests: the promise is awaited by `settle` or at the end of `test`. */
const background = (promise: Promise<unknown>) => void pending.push(promise);

/** Waits for the background writes handed to `waitUntil` so far. */
export const settle = () => Promise.all(pending.splice(0));

/** `it`, settling the background writes before the test ends, whatever its outcome. */
export function test(name: string, body: () => Promise<void>, timeout?: number) {
  it(
    name,
    async () => {
      try {
        await body();
      } finally {
        await Promise.allSettled(pending.splice(0));
      }
    },
    timeout,
  );
}

/** The pipeline's dependencies on the real local D1 and KV, with these engines. */
export function translationDeps(engines: TranslationEngine[]): TranslationDeps {
  const db = createDb(env.DB);
  return { db, kv: env.KV, engines, waitUntil: background, glossary: (museumId, to) => glossaryRules(db, museumId, to) };
}

/**
 * An engine that records every call. `translate` decides each answer (a tag before the text by default);
 * `fail` makes it throw, `delayMs` makes it slow, `until` holds every answer until that promise settles (an
 * engine slower than anything the test waits for, released by the test). `answered()` counts the answers given.
 */
export function recordingEngine(
  opts: { id?: TranslationEngine["id"]; delayMs?: number; fail?: boolean; translate?: (text: string, to: string) => string; until?: Promise<unknown> } = {},
) {
  const calls: string[][] = [];
  let answered = 0;
  const answer = opts.translate ?? ((t: string, to: string) => `<${to}> ${t}`);
  const engine: TranslationEngine = {
    id: opts.id ?? "libretranslate",
    supports: () => true,
    async translate(texts, _from, to) {
      calls.push([...texts]);
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      if (opts.until) await opts.until;
      if (opts.fail) throw new Error("engine down");
      answered += 1;
      return texts.map((t) => answer(t, to));
    },
  };
  return { engine, calls, segments: () => calls.flat(), answered: () => answered };
}
