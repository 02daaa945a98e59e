import { describe, expect, it } from "vitest";
import { pseudoTranslate } from "~/translation/engines";
import { glossaryFor, glossaryTag, glossaryVersion, protect, restore, termsIn, type GlossaryRule, type GlossaryTerm } from "~/translation/glossary";

const never = (term: string): GlossaryTerm => ({ term, lang: null, translation: null });
const fixed = (term: string, lang: string, translation: string): GlossaryTerm => ({ term, lang, translation });
const rules = (terms: GlossaryTerm[], to = "de") => glossaryFor(terms, to);

/** Protects, runs `engine` on the protected text, restores. */
function roundTrip(text: string, r: GlossaryRule[], engine: (text: string) => string = (t) => t) {
  const guarded = protect(text, r);
  return { sent: guarded.text, back: restore(engine(guarded.text), guarded) };
}

describe("glossaryFor", () => {
  it("keeps never-translate terms and the fixed translations of the target language only", () => {
    const r = rules([never("Monet"), fixed("Nymphéas", "de", "Seerosen"), fixed("Nymphéas", "en", "Water Lilies")]);
    expect(r).toEqual([
      { term: "Nymphéas", output: "Seerosen" },
      { term: "Monet", output: "Monet" },
    ]);
    expect(glossaryFor([fixed("Nymphéas", "en", "Water Lilies")], "de")).toEqual([]);
  });

  it("lets a fixed translation win over the never-translate row of the same term, whatever the order", () => {
    const a = rules([never("Louvre"), fixed("Louvre", "de", "Louvre-Museum")]);
    const b = rules([fixed("Louvre", "de", "Louvre-Museum"), never("Louvre")]);
    expect(a).toEqual([{ term: "Louvre", output: "Louvre-Museum" }]);
    expect(b).toEqual(a);
    expect(rules([never("Louvre"), fixed("Louvre", "de", "Louvre-Museum")], "it")).toEqual([{ term: "Louvre", output: "Louvre" }]);
  });

  it("orders longest first, then by term, whatever the input order", () => {
    const r1 = rules([never("Orsay"), never("Musée d'Orsay"), never("Arles"), never("Aix")]);
    const r2 = rules([never("Aix"), never("Arles"), never("Musée d'Orsay"), never("Orsay")]);
    expect(r1.map((r) => r.term)).toEqual(["Musée d'Orsay", "Arles", "Orsay", "Aix"]);
    expect(r2).toEqual(r1);
  });
});

describe("protect and restore", () => {
  it("replaces a term by a placeholder and puts the term back", () => {
    const r = rules([never("Claude Monet")]);
    const { sent, back } = roundTrip("Une toile de Claude Monet, 1899.", r);
    expect(sent).toBe("Une toile de ⟦1⟧, 1899.");
    expect(back).toBe("Une toile de Claude Monet, 1899.");
  });

  it("puts the fixed translation in place of the term after the engine call", () => {
    const r = rules([fixed("Nymphéas", "de", "Seerosen"), never("Monet")]);
    const { sent, back } = roundTrip("Les Nymphéas de Monet.", r, (t) => pseudoTranslate(t, "de"));
    expect(sent).toBe("Les ⟦1⟧ de ⟦2⟧.");
    expect(back).toBe("[de] Lés Seerosen dé Monet.");
  });

  it("matches whole words only, in any script", () => {
    const r = rules([never("Arles"), never("Ra"), never("Москва"), never("Kunst")]);
    expect(termsIn("Charles vit à Arles.", r)).toEqual(["Arles"]);
    expect(termsIn("Arlesienne, Arles", r)).toEqual(["Arles"]);
    expect(termsIn("Rame, Ra, Râ", r)).toEqual(["Ra"]);
    expect(termsIn("Москвой и Москва.", r)).toEqual(["Москва"]);
    expect(termsIn("Kunsthalle", r)).toEqual([]);
    // A combining mark after the term makes it another letter, not the term.
    expect(termsIn("Arle\u0301s", rules([never("Arle")]))).toEqual([]);
    // Digits and underscores continue a word too.
    expect(termsIn("Arles2 Arles_ _Arles", r)).toEqual([]);
  });

  it("treats apostrophes, hyphens and punctuation as word edges", () => {
    const r = rules([never("Orangerie"), never("Denis")]);
    expect(protect("l'Orangerie, l’Orangerie et Saint-Denis.", r).text).toBe("l'⟦1⟧, l’⟦1⟧ et Saint-⟦2⟧.");
  });

  it("finds terms inside text written without spaces", () => {
    const r = rules([never("東京"), never("กรุงเทพ")]);
    expect(protect("東京国立博物館", r).text).toBe("⟦1⟧国立博物館");
    expect(protect("ที่กรุงเทพมหานคร", r).text).toBe("ที่⟦1⟧มหานคร");
  });

  it("is case-sensitive", () => {
    const r = rules([never("Orange")]);
    expect(protect("Orange, orange, ORANGE", r).text).toBe("⟦1⟧, orange, ORANGE");
  });

  it("prefers the longest term where several start, and the leftmost where they overlap", () => {
    const r = rules([never("Orsay"), never("Musée d'Orsay"), never("New York"), never("York Minster")]);
    expect(protect("Le Musée d'Orsay et Orsay.", r).text).toBe("Le ⟦1⟧ et ⟦2⟧.");
    expect(protect("New York Minster", r).text).toBe("⟦1⟧ Minster");
    expect(roundTrip("Le Musée d'Orsay et Orsay.", r).back).toBe("Le Musée d'Orsay et Orsay.");
  });

  it("gives one placeholder per term, repeated as often as the term", () => {
    const r = rules([never("Monet")]);
    const guarded = protect("Monet, encore Monet.", r);
    expect(guarded.text).toBe("⟦1⟧, encore ⟦1⟧.");
    expect(restore("⟦1⟧, again ⟦1⟧.", guarded)).toBe("Monet, again Monet.");
    expect(restore("⟦1⟧, again.", guarded)).toBeNull();
    expect(restore("⟦1⟧, ⟦1⟧, ⟦1⟧.", guarded)).toBeNull();
  });

  it("accepts reordered placeholders and spaces inside the brackets", () => {
    const r = rules([never("Monet"), never("Giverny")]);
    const guarded = protect("Monet à Giverny", r);
    expect(restore("In ⟦ 2 ⟧ malte ⟦1⟧", guarded)).toBe("In Giverny malte Monet");
  });

  it("refuses an output that lost, invented or mangled a placeholder", () => {
    const r = rules([never("Monet"), never("Giverny")]);
    const guarded = protect("Monet à Giverny", r);
    expect(restore("⟦1⟧ in Giverny", guarded)).toBeNull(); // lost ⟦2⟧ (the engine translated it out)
    expect(restore("⟦1⟧ in ⟦2⟧ ⟦3⟧", guarded)).toBeNull(); // invented
    expect(restore("⟦1⟧ in ⟦0⟧ ⟦2⟧", guarded)).toBeNull(); // ⟦0⟧ is never ours
    expect(restore("⟦1⟧ in [[2]]", guarded)).toBeNull(); // brackets replaced
    expect(restore("⟦1⟧ in ⟦2", guarded)).toBeNull(); // half a bracket
    expect(restore("⟦1⟧ in ⟦2⟧⟧", guarded)).toBeNull(); // a stray bracket added
    expect(restore("⟦Monet⟧ in ⟦2⟧", guarded)).toBeNull(); // term put inside the brackets
  });

  it("leaves text without terms alone, whatever the engine does", () => {
    const r = rules([never("Monet")]);
    const guarded = protect("Une aquarelle.", r);
    expect(guarded.text).toBe("Une aquarelle.");
    expect(restore("A watercolour ⟦1⟧", guarded)).toBe("A watercolour ⟦1⟧");
  });

  it("protects placeholder-like text of the source as itself, so it cannot pass for a term", () => {
    const r = rules([never("Monet")]);
    const guarded = protect("⟦1⟧ Monet ⟦x⟧ ⟦", r);
    expect(guarded.text).toBe("⟦1⟧ ⟦2⟧ ⟦3⟧ ⟦");
    expect(restore(guarded.text, guarded)).toBe("⟦1⟧ Monet ⟦x⟧ ⟦");
    expect(restore("⟦1⟧ ⟦2⟧ ⟦3⟧", guarded)).toBeNull(); // the source's lone bracket was dropped
    expect(roundTrip("⟦1⟧ Monet ⟦x⟧ ⟦", r, (t) => pseudoTranslate(t, "de")).back).toBe("[de] ⟦1⟧ Monet ⟦x⟧ ⟦");
  });

  it("keeps an RTL target's order: the fixed Arabic text or the Latin name lands where the engine put the placeholder", () => {
    const r = glossaryFor([never("Monet"), fixed("Nymphéas", "ar", "زنابق الماء")], "ar");
    const guarded = protect("Les Nymphéas de Monet", r);
    expect(guarded.text).toBe("Les ⟦1⟧ de ⟦2⟧");
    const restored = restore("⟦1⟧ للفنان ⟦2⟧", guarded);
    expect(restored).toBe("زنابق الماء للفنان Monet");
    // No direction marks or isolates are added: the page sets dir="rtl" and the text stays plain.
    expect(restored).not.toMatch(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/u);
  });

  it("handles characters outside the BMP around and inside terms", () => {
    const r = rules([never("𝒜rt"), never("Monet")]);
    expect(protect("🎨Monet 𝒜rt", r).text).toBe("🎨⟦1⟧ ⟦2⟧");
    expect(protect("𝐀Monet", r).text).toBe("𝐀Monet"); // a mathematical letter continues the word
  });

  it("returns the text unchanged without rules", () => {
    expect(protect("Monet", []).text).toBe("Monet");
    expect(restore("anything ⟦1⟧", protect("Monet", []))).toBe("anything ⟦1⟧");
  });
});

describe("cache tags", () => {
  it("depends only on the rules the segments contain", async () => {
    const base = rules([never("Monet")]);
    const more = rules([never("Monet"), never("Degas")]);
    const changed = rules([fixed("Monet", "de", "Monet (Maler)")]);
    const segments = ["Une toile de Monet."];
    expect(await glossaryTag([], segments)).toBe("");
    expect(await glossaryTag(rules([never("Degas")]), segments)).toBe("");
    const tag = await glossaryTag(base, segments);
    expect(tag).toMatch(/^[0-9a-f]{16}$/);
    expect(await glossaryTag(more, segments)).toBe(tag);
    expect(await glossaryTag(changed, segments)).not.toBe(tag);
  });

  it("versions every rule of a language", async () => {
    expect(await glossaryVersion([])).toBe("");
    const a = await glossaryVersion(rules([never("Monet")]));
    expect(a).not.toBe(await glossaryVersion(rules([never("Monet"), never("Degas")])));
    expect(a).toBe(await glossaryVersion(rules([never("Monet")])));
  });
});
