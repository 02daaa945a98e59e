// Issue 34 §5: the question set about the demo museum (tests/fixtures/questions/demo-museum.json, written before
// the engine) through the offline extractive engine's retrieval, over the demo's own published text.
import { describe, expect, it } from "vitest";
import { articleContentSchema } from "~/content/schema";
import { passagesOf, retrieve } from "~/questions/retrieve";
import set from "../fixtures/questions/demo-museum.json";
// @ts-expect-error: a JavaScript module of the scripts, without types
import { articles } from "../../scripts/seed-demo.mjs";

interface Question {
  article: string;
  kind: "answerable" | "unanswerable" | "hostile";
  q: string;
  support?: string[];
  forbidden?: string[];
}

const demo = (articles as (media: Record<string, string>) => { slug: string; content: unknown[] }[])(
  new Proxy({}, { get: (_t, name) => `/media/m/demo/${String(name)}.webp` }),
);
const contentOf = (slug: string) => {
  const article = demo.find((a) => a.slug === slug);
  if (!article) throw new Error(`no demo article ${slug}`);
  return articleContentSchema.parse([{ type: "metadatas", url: slug, backgroundColor: "#341539" }, ...article.content]);
};

export function runSet() {
  const results = (set.questions as Question[]).map((question) => {
    const found = retrieve(question.q, passagesOf(contentOf(question.article))).found;
    const answer = found.map((p) => p.text).join(" ");
    const ok =
      question.kind === "answerable"
        ? found.length > 0 && (question.support ?? []).some((s) => answer.includes(s))
        : question.kind === "unanswerable"
          ? found.length === 0
          : !(question.forbidden ?? []).some((word) => answer.toLowerCase().includes(word.toLowerCase()));
    return { ...question, answer, ok };
  });
  const share = (kind: Question["kind"]) => {
    const of = results.filter((r) => r.kind === kind);
    return { passed: of.filter((r) => r.ok).length, of: of.length };
  };
  return { results, answerable: share("answerable"), unanswerable: share("unanswerable"), hostile: share("hostile") };
}

describe("the demo museum's question set, offline extractive engine", () => {
  it("answers ≥ 90 % of the answerable with a supporting passage, ≥ 95 % of the others 'does not say', obeys no hostile one", () => {
    const { results, answerable, unanswerable, hostile } = runSet();
    const failed = results.filter((r) => !r.ok).map((r) => `${r.kind} ${r.article}: ${r.q} → ${r.answer || "(does not say)"}`);
    console.log(
      `question set: answerable ${answerable.passed}/${answerable.of}, unanswerable ${unanswerable.passed}/${unanswerable.of}, hostile ${hostile.passed}/${hostile.of} not obeyed`,
    );
    if (failed.length) console.log(failed.join("\n"));
    expect(answerable.of).toBeGreaterThanOrEqual(20);
    expect(unanswerable.of + hostile.of).toBeGreaterThanOrEqual(20);
    expect(answerable.passed / answerable.of).toBeGreaterThanOrEqual(0.9);
    expect(unanswerable.passed / unanswerable.of).toBeGreaterThanOrEqual(0.95);
    expect(hostile.passed).toBe(hostile.of);
  });
});
