// The pieces of the offline answer engine's retrieval (app/questions/retrieve.ts, decision 151), and the bound's
// setting. The whole engine is measured on the question set (questions-set.test.ts).
import { describe, expect, it } from "vitest";
import { articleContentSchema } from "~/content/schema";
import { answerType, contentTerms, normalise, passagesOf, retrieve, sentences, stem } from "~/questions/retrieve";
import { questionsMonthlyFrom, QUESTIONS_MONTHLY_DEFAULT } from "~/questions/store.server";
import { pseudoTranslate } from "~/translation/engines";

const content = (elements: unknown[]) => articleContentSchema.parse([{ type: "metadatas", url: "vase", backgroundColor: "#341539" }, ...elements]);
const text = (content: string) => ({ type: "text", content });

describe("normalising and stemming", () => {
  it("drops case, accents, elisions and the pseudo engine's mark", () => {
    expect(normalise("[fr] L'Ámphóré d’Athènes, ÉTÉ 2024 !")).toBe("amphore athenes ete 2024");
    expect(normalise(pseudoTranslate("Combien d'anses a l'amphore ?", "fr"))).toBe(normalise("Combien d'anses a l'amphore ?"));
    // Invisible characters do not split a word.
    expect(normalise("amph\u00adore am\u200bphore amph\u200core")).toBe("amphore amphore amphore");
  });
  it("brings a verb's persons and a noun's plural together", () => {
    expect(stem("datent")).toBe(stem("date"));
    expect(stem("contenaient")).toBe(stem("conteneur"));
    expect(stem("anses")).toBe(stem("anse"));
    expect(stem("naviguaient")).toBe(stem("navigue"));
  });
  it("keeps what a question is about, not how it asks", () => {
    expect(contentTerms("Que nous apprend l'argile d'une amphore ?")).toEqual(["argil", "amphor"]);
    expect(contentTerms("Who made the vase?")).toEqual(["fabriq", "vas"]);
  });
});

describe("what a question asks for", () => {
  it.each([
    ["Combien d'anses a l'amphore ?", "number"],
    ["How many handles?", "number"],
    ["Quand a-t-elle été faite ?", "time"],
    ["En quelle année ?", "time"],
    ["Wann wurde sie gemacht?", "time"],
    ["Pourquoi deux anses ?", "reason"],
    ["De quoi est faite l'amphore ?", "material"],
    ["Woraus ist sie?", "material"],
    ["Qui l'a faite ?", "person"],
    ["Autour de quoi s'organise la maison ?", null],
    ["Que contenaient les amphores ?", null],
  ])("%s → %s", (question, type) => {
    expect(answerType(question)).toBe(type);
  });
});

describe("passages", () => {
  it("are the sentences of the visitor-visible text, links left out, headers as context only", () => {
    const passages = passagesOf(
      content([
        text("Un vase attique. Il servait au vin."),
        { type: "link", link: "https://example.org", content: "Le vase sur Wikipédia" },
        { type: "image", src: "", alt: "Un vase à figures noires" },
        { type: "accordion", header: { content: "Quand a-t-il été fait ?" }, details: [text("Vers 530 avant notre ère.")] },
      ]),
    );
    expect(passages.map((p) => [p.text, p.kind])).toEqual([
      ["Un vase attique.", "text"],
      ["Il servait au vin.", "text"],
      ["Un vase à figures noires", "alt"],
      ["Quand a-t-il été fait ?", "title"],
      ["Vers 530 avant notre ère.", "text"],
    ]);
    expect(passages[4]!.heading).toBe("Quand a-t-il été fait ?");
    expect(sentences("Un. Deux ! Trois ? Quatre… cinq")).toEqual(["Un.", "Deux !", "Trois ?", "Quatre…", "cinq"]);
  });

  it("an accordion that answers a question answers it, under its header", () => {
    const passages = passagesOf(
      content([
        text("Cette amphore vient d'un naufrage au large de Marseille, fouillé par des plongeurs."),
        {
          type: "accordion",
          header: { content: "Quand cette amphore a-t-elle été fabriquée ?" },
          details: [text("Elle a été fabriquée vers 50 avant notre ère.")],
        },
      ]),
    );
    const found = retrieve("Quand cette amphore a-t-elle été fabriquée ?", passages).found;
    expect(found.map((p) => p.text)).toEqual(["Elle a été fabriquée vers 50 avant notre ère."]);
    // A staff answer need not repeat the question's words, nor be long: its header is the question (decision 151).
    const staff = passagesOf(
      content([
        text("Les pièces de bronze servent aux petites dépenses du quotidien."),
        { type: "accordion", header: { content: "Quand cette pièce a-t-elle été fabriquée ?" }, details: [text("Vers 50 avant notre ère.")] },
        { type: "accordion", header: { content: "D'où vient cette amphore ?" }, details: [text("D'un atelier de la région de Marseille.")] },
      ]),
    );
    expect(retrieve("Quand cette pièce a-t-elle été fabriquée ?", staff).found.map((p) => p.text)).toEqual(["Vers 50 avant notre ère."]);
    expect(retrieve("D'où vient cette amphore ?", staff).found.map((p) => p.text)).toEqual(["D'un atelier de la région de Marseille."]);
    // Whatever the answer's words: under its own question, it answers it ("who", "why", "when" included).
    const answers = passagesOf(
      content([
        { type: "accordion", header: { content: "Qui a construit la maison ?" }, details: [text("Des maçons locaux.")] },
        { type: "accordion", header: { content: "Pourquoi les thermes ont-ils fermé ?" }, details: [text("L'aqueduc qui les alimentait s'est effondré.")] },
        { type: "accordion", header: { content: "Quand les thermes ont-ils fermé ?" }, details: [text("Sous le règne de Constantin.")] },
      ]),
    );
    expect(retrieve("Qui a construit la maison ?", answers).found.map((p) => p.text)).toEqual(["Des maçons locaux."]);
    expect(retrieve("Pourquoi les thermes ont-ils fermé ?", answers).found.map((p) => p.text)).toEqual(["L'aqueduc qui les alimentait s'est effondré."]);
    expect(retrieve("Quand les thermes ont-ils fermé ?", answers).found.map((p) => p.text)).toEqual(["Sous le règne de Constantin."]);
    // The header itself is never the answer, and a question it does not answer finds nothing.
    expect(retrieve("Combien pèse cette amphore ?", passages).found).toEqual([]);
  });

  it("a question of only function words, or about nothing written, finds nothing", () => {
    const passages = passagesOf(content([text("Un vase attique à figures noires, peint par Exékias vers 530 avant notre ère.")]));
    expect(retrieve("Qu'est-ce que c'est ?", passages)).toMatchObject({ found: [], terms: [] });
    expect(retrieve("", passages).found).toEqual([]);
    expect(retrieve("Quel est le prix du billet ?", passages).found).toEqual([]);
    expect(retrieve("Qui a peint ce vase ?", passages).found.map((p) => p.text)).toEqual([
      "Un vase attique à figures noires, peint par Exékias vers 530 avant notre ère.",
    ]);
  });
});

describe("QUESTIONS_MONTHLY", () => {
  it("defaults, reads a whole number, and refuses anything else", () => {
    expect(questionsMonthlyFrom({})).toBe(QUESTIONS_MONTHLY_DEFAULT);
    expect(questionsMonthlyFrom({ QUESTIONS_MONTHLY: "0" })).toBe(0);
    expect(questionsMonthlyFrom({ QUESTIONS_MONTHLY: "2500" })).toBe(2500);
    for (const bad of ["-1", "1.5", "lots", "99999999999"]) expect(() => questionsMonthlyFrom({ QUESTIONS_MONTHLY: bad })).toThrow(/QUESTIONS_MONTHLY/);
  });
});
