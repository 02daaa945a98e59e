import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { get, publishArticle, staffSession, texts } from "./helpers";

type Session = Awaited<ReturnType<typeof staffSession>>;

const publish = (s: Session, lines: string[]) => publishArticle(s, texts(lines));

/** The segment's staff row in the memory and its review row, straight from D1. */
async function rows(articleId: number, museumId: number, lang: string) {
  const memory = await env.DB.prepare("SELECT text, origin FROM translation_memory WHERE museum_id = ? AND target_lang = ? AND origin = 'edited'")
    .bind(museumId, lang)
    .all<{ text: string; origin: string }>();
  const reviews = await env.DB.prepare("SELECT text FROM translation_reviews WHERE article_id = ? AND target_lang = ?")
    .bind(articleId, lang)
    .all<{ text: string }>();
  return { memory: memory.results, reviews: reviews.results };
}

describe("reset_translation racing update_translation (issue 16)", () => {
  it.each([
    ["reset_translation", (articleId: number) => ({ articleId, lang: "de" })],
    ["reset_traductions", (articleId: number) => ({ articleId })],
  ] as const)(
    "%s never leaves an acknowledged correction without its review row, over several rounds",
    async (resetCall, resetBody) => {
      const s = await staffSession();
      // Many segments make the reset's memory delete and its review delete far apart without one batch.
      const texts = Array.from({ length: 200 }, (_, i) => `Phrase numéro ${i + 1} du cartel.`);
      const { articleId, link } = await publish(s, texts);
      let bothKept = 0;
      let bothGone = 0;
      for (let round = 0; round < 10; round++) {
        await get(`/r/${link}?lang=de`);
        const text = `Korrektur ${round}.`;
        const [reset, update] = await Promise.all([
          s.call(resetCall, resetBody(articleId)),
          s.call("update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text }),
        ]);
        expect([reset.status, update.status]).toEqual([200, 200]);
        const { memory, reviews } = await rows(articleId, s.user.museumId, "de");
        // Either the reset came last (both gone) or the correction did (both there): never one without the other.
        if (memory.length === 0) {
          expect(reviews, `round ${round}: review row without its correction`).toEqual([]);
          bothGone++;
        } else {
          expect(memory).toEqual([{ text, origin: "edited" }]);
          expect(reviews, `round ${round}: correction kept without its review row`).toEqual([{ text }]);
          bothKept++;
        }
      }
      expect(bothKept + bothGone).toBe(10);
    },
    120_000,
  );
});
