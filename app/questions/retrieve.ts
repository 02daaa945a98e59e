// Lexical retrieval of the passages that answer a visitor's question (issue 34 §2, decision 151). Pure: no I/O.
// The question arrives in the museum's language (translated there first); the passages are the published
// text's sentences, in that language. A passage answers when its sentence, read with the rest of its
// paragraph, holds most of the question's content words, weighted by how rare each word is in the article,
// and, for a question that asks for a number, a time, a reason or a material, holds one. Otherwise nothing
// answers, and the visitor is told the text does not say: an extractive answer can only quote.
import type { ArticleContent } from "~/content/schema";
import { segmentEntries } from "~/translation/segments";

/** Where a passage comes from, for "From the label: …" and the link to its place on the page. */
export type PassageKind = "text" | "title" | "alt" | "subtitles" | "tour";

export interface Passage {
  /** The segment's id in its content (`e3.content.0`), or `vtt.{n}` for a subtitle cue, `tour.{n}` for the tour's text. */
  id: string;
  /** One sentence, as written. */
  text: string;
  kind: PassageKind;
  /** The index of the paragraph (segment) the sentence belongs to: its neighbours give it context. */
  para: number;
  /** The header of the accordion it sits in (often the very question it answers): context too. */
  heading?: string;
}

/** What a question asks for, when its words say: then a passage must hold one (decision 151). */
export type AnswerType = "number" | "time" | "reason" | "material" | "person" | null;

export interface Retrieval {
  /** The passages that answer, best first (at most `MAX_QUOTED`); empty when the text does not say. */
  found: Passage[];
  /**
   * Passages an LLM may compose from (issue 34 §2): the eligible sentences scoring at least `CANDIDATE_THRESHOLD`,
   * best first, at most `MAX_CANDIDATES`. Empty when none comes near: then no engine is asked.
   */
  candidates: Passage[];
  /** The best passage's score, 0 to 1 (the share of the question's weighted content words it holds). */
  score: number;
  type: AnswerType;
  /** The question's content words after normalisation (for the cache key and the staff's grouping). */
  terms: string[];
}

/** The share of the question's weighted content words a passage must hold. */
export const ANSWER_THRESHOLD = 0.62;
/** The least score of a passage handed to an LLM to compose from. */
export const CANDIDATE_THRESHOLD = 0.5;
export const MAX_CANDIDATES = 6;
/** Words of the rest of the paragraph count this much (a sentence's subject is often named in the one before). */
const CONTEXT_WEIGHT = 0.5;
/** An image description tells what the picture shows: it answers only when no sentence of the text does as well. */
const ALT_WEIGHT = 0.75;
/** Sentences quoted in an answer. */
export const MAX_QUOTED = 2;
/** A sentence shorter than this (in words) is a title or a caption, not an answer. */
const MIN_ANSWER_WORDS = 5;

// Function words and the words of asking, in the languages a museum most often writes in. What is left of a
// question after them is what it is about.
const STOPWORDS = new Set(
  // French
  (
    "a ai as au aux avait avaient avec ce ces cet cette ci comme comment dans de des du elle elles en est et etaient etait " +
    "etre eu fait font faisait faisaient il ils je la le les leur leurs lui ma mais me meme mes mon ne ni nous on ont ou " +
    "par pas peu peut peuvent pouvaient pouvait plus pour quand que quel quelle quelles quels qu qui quoi sa se ses si son " +
    "sont sur ta te tes toi ton tu un une vos votre vous y t il elle ils elles-ils est-ce ce-que qu-est-ce c d j l m n s " +
    "aussi alors donc tres tout tous toute toutes autre autres chose choses dit dire sait savoir voit voir apres avant " +
    "pourquoi combien ou quoi lequel laquelle lesquels lesquelles dont cela ca ceci celui celle ceux celles y-a-t-il " +
    "avoir va vont allait sera seront serait etes sommes suis es ete " +
    // the verbs of asking about a thing ("que nous apprend…", "à quoi sert…", "que montre…")
    "apprend apprennent raconte racontent montre montrent indique indiquent sert servent servait servaient servir " +
    // English
    "the an and are as at be been but by can could did do does for from had has have how in into is it its of on or " +
    "that their them there these they this those to was were what when where which who whom whose why will with would " +
    "you your about any some me my i we our us " +
    // German
    "der die das den dem des ein eine einer eines einem einen und ist sind war waren wie was wer wo woher wohin warum " +
    "wann welche welcher welches wieviel viele viel mit von zu im in am an auf fur aus bei hat haben hatte es er sie " +
    "woraus womit wozu wofur wurde wurden wird werden diese dieser dieses diesem diesen kann konnte gibt " +
    // Spanish, Italian
    "el los las una unos unas es son era fue como que quien donde cuando por para con del al lo il gli le uno della " +
    "delle degli dei di da che chi dove perche quanto quanti quale quali sono era"
  ).split(/\s+/),
);

// A question's kind, by its first words (after normalisation): what the answer must hold.
const TYPE_PATTERNS: readonly [Exclude<AnswerType, null>, RegExp][] = [
  ["number", /^(combien|how (many|much)|wie viele?|cuant[oa]s?|quant[ioe])\b/],
  [
    "time",
    /^(quand|depuis quand|de quand|a quelle (epoque|date)|en quelle annee|de quelle (epoque|annee)|when|what year|wann|cuando|quando)\b|\b(quel siecle|quelle epoque|quelle annee|what century|which century)\b/,
  ],
  ["reason", /^(pourquoi|why|warum|wieso|por que|perche)\b/],
  ["person", /^(qui|who|wer|quien|chi)\b/],
  [
    "material",
    /^(de quoi|en quoi)\b|\b(quel(le)?s? (materiau|matiere|metal)|fait(e|es|s)? de quoi|made of|what material|woraus|aus welchem material|de que esta hech|di che cosa)\b/,
  ],
];

const NUMBER_WORDS =
  /\b(\d+|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|quinze|vingt|trente|quarante|cinquante|soixante|cent|cents|mille|milliers|(?:dix|douz|quinz|vingt|trent|quarant|cinquant|cent)aines?|two|three|four|five|six|seven|eight|nine|ten|hundreds?|thousands?|zwei|drei|vier|funf|zehn|hundert|tausend)\b/;
const TIME_WORDS =
  /\b(\d{3,4}|siecles?|antiquite|epoque|periode|ere|annees?|jour|jours|nuit|matin|soir|ete|hiver|printemps|automne|centur(y|ies)|ancient|period|era|years?|day|night|jahrhundert|antike|jahr)\b|\b[ivxl]+e s\b/;
const REASON_WORDS = /\b(pour|car|parce|afin|permet|permettent|permettait|grace|donc|ainsi|sert|servent|because|so that|in order|allows?|weil|damit|um)\b/;
const MATERIAL_WORDS =
  /\b(terre cuite|argile|bronze|fer|cuivre|plomb|or|argent|marbre|pierre|pierres|bois|verre|brique|briques|mortier|tesselles?|ceramique|ivoire|os|cuir|laine|lin|soie|toile|papier|parchemin|huile|clay|terracotta|stone|marble|wood|glass|iron|copper|gold|silver|brick|ton|stein|holz|glas|eisen)\b/;

// People a text may name by what they did: a "who" question is answered by a name (below) or one of these.
const PERSON_WORDS =
  /\b(artisans?|artistes?|potiers?|peintres?|sculpteurs?|mosaistes?|architectes?|producteurs?|marchands?|negociants?|marins?|pecheurs?|soldats?|esclaves?|habitants?|riches|pauvres|citoyens?|romains?|grecs?|archeologues?|empereurs?|rois?|reines?|pretres?|families?|proprietaires?|craftsm[ae]n|artists?|potters?|painters?|merchants?|sailors?|owners?|emperors?|kings?|queens?)\b/;
// A name: a capitalised word that does not start the sentence.
const NAMED = /\s\p{Lu}\p{Ll}+/u;

const CHECKS: Record<Exclude<AnswerType, null>, (normalised: string, text: string) => boolean> = {
  number: (n) => NUMBER_WORDS.test(n),
  time: (n) => TIME_WORDS.test(n),
  reason: (n) => REASON_WORDS.test(n),
  material: (n) => MATERIAL_WORDS.test(n),
  person: (n, text) => PERSON_WORDS.test(n) || NAMED.test(text.replace(/^\P{L}*\p{L}+/u, "")),
};

/** Lower case, no diacritics, elisions and apostrophes opened, the pseudo engine's `[xx] ` mark removed. */
export function normalise(text: string): string {
  return text
    .replace(/[\u00ad\u061c\u200b-\u200d\u2060]/g, "")
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/^\s*\[[a-z]{2,3}(-[a-z0-9]+)?\]\s*/, "")
    .replace(/\b(l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu)['’]/g, "")
    .replace(/['’]/g, " ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

// Suffixes taken off a word before it is cut to its first six letters: enough to bring a verb's persons,
// a noun's plural and an adjective's agreement together in French, English and German, without a dictionary.
const SUFFIXES = [
  "issements",
  "issement",
  "ements",
  "ement",
  "ations",
  "ation",
  "aient",
  "ions",
  "ait",
  "ant",
  "ent",
  "ees",
  "ee",
  "es",
  "er",
  "ez",
  "en",
  "e",
  "s",
  "x",
];

export function stem(word: string): string {
  let out = word;
  if (out.length > 3) {
    for (const suffix of SUFFIXES) {
      if (out.endsWith(suffix) && out.length - suffix.length >= 3) {
        out = out.slice(0, -suffix.length);
        break;
      }
    }
  }
  return out.slice(0, 6);
}

// Verbs of making, one meaning for the question's words and the text's ("how was it made", "who produced it"),
// listed as written and compared by their stems.
const SAME_MEANING: Readonly<Record<string, string>> = Object.fromEntries(
  [
    "fabriquer",
    "fabrique",
    "fait",
    "faite",
    "realiser",
    "produire",
    "produit",
    "confectionner",
    "construire",
    "made",
    "make",
    "manufactured",
    "hergestellt",
    "gemacht",
  ].map((word) => [stem(word), "fabriq"]),
);

/** A text's content words, stemmed, in order (repeats kept). */
export function contentTerms(text: string): string[] {
  return normalise(text)
    .split(" ")
    .filter((word) => word !== "" && !STOPWORDS.has(word) && !(word.length < 2 && !/\d/.test(word)))
    .map((word) => {
      const stemmed = stem(word);
      return SAME_MEANING[stemmed] ?? stemmed;
    });
}

// The words that say a question asks for a material ("de quoi est-elle faite", "en quel métal"): what the answer
// must hold, so not what the question is about.
const MATERIAL_FRAME = new Set([
  "fait",
  "faite",
  "faites",
  "faits",
  "fabrique",
  "fabriquee",
  "fabriquees",
  "matiere",
  "materiau",
  "materiaux",
  "metal",
  "metaux",
  "made",
  "material",
  "besteht",
  "gemacht",
]);

/** The question's kind by its words (what its answer must hold), or null. */
export function answerType(question: string): AnswerType {
  const text = normalise(question);
  for (const [type, pattern] of TYPE_PATTERNS) if (pattern.test(text)) return type;
  return null;
}

/** Sentences of one segment: cut after `.`, `!`, `?` or `…` followed by a space. */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…。！？])\s+/u)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/**
 * The article's passages: each visitor-visible text of the content (paragraphs, legends, accordion headers and
 * details, image descriptions) cut into sentences, in content order. Link labels are left out: they name a
 * page elsewhere, not the work. `extra` adds subtitle cues and a tour's own text, each its own paragraph.
 */
export function passagesOf(content: ArticleContent, extra: readonly { id: string; text: string; kind: PassageKind }[] = []): Passage[] {
  const out: Passage[] = [];
  let para = 0;
  for (const { id, source } of segmentEntries(content)) {
    const element = content[Number(/^e(\d+)\./.exec(id)?.[1])];
    if (!element || element.type === "link") continue;
    const kind: PassageKind = /\.alt\.\d+$/.test(id) ? "alt" : element.type === "heading" || /\.header\.\d+$/.test(id) ? "title" : "text";
    // An accordion's details are read under its header (often the question they answer).
    const heading = element.type === "accordion" && kind !== "title" ? element.header.content : undefined;
    for (const text of sentences(source)) out.push({ id, text, kind, para, ...(heading ? { heading } : {}) });
    para += 1;
  }
  for (const item of extra) {
    for (const text of sentences(item.text)) out.push({ id: item.id, text, kind: item.kind, para });
    para += 1;
  }
  return out;
}

/**
 * The passages that answer `question` (in the passages' language), best first; none when the text does not
 * say. Deterministic: equal scores keep content order.
 */
export function retrieve(question: string, passages: readonly Passage[]): Retrieval {
  const type = answerType(question);
  const words =
    type === "material"
      ? normalise(question)
          .split(" ")
          .filter((w) => !MATERIAL_FRAME.has(w))
          .join(" ")
      : question;
  const terms = [...new Set(contentTerms(words))];
  if (terms.length === 0 || passages.length === 0) return { found: [], candidates: [], score: 0, type, terms };

  const sentenceTerms = passages.map((p) => new Set(contentTerms(p.text)));
  const paraTerms = new Map<number, Set<string>>();
  passages.forEach((p, i) => {
    const set = paraTerms.get(p.para) ?? new Set<string>();
    sentenceTerms[i]!.forEach((t) => set.add(t));
    paraTerms.set(p.para, set);
  });
  // A word's weight: how rare it is among the sentences (a word absent from them all weighs the most).
  const n = passages.length;
  const weight = new Map(terms.map((t) => [t, Math.log(1 + n / (1 + sentenceTerms.filter((s) => s.has(t)).length))]));
  const total = terms.reduce((sum, t) => sum + weight.get(t)!, 0);
  const normalisedTexts = passages.map((p) => ` ${normalise(p.text)} `);
  const headingCoverage = (heading: string) => {
    const held = new Set(contentTerms(heading));
    return terms.reduce((sum, t) => sum + (held.has(t) ? weight.get(t)! : 0), 0) / total;
  };

  const scored = passages.map((passage, i) => {
    // An accordion's text is read with its header as one: a question and its answer (decision 151), whose answer
    // ("Vers 50 avant notre ère.") need not repeat the question's words, nor be long.
    const own = passage.heading ? new Set([...sentenceTerms[i]!, ...contentTerms(passage.heading)]) : sentenceTerms[i]!;
    const around = paraTerms.get(passage.para)!;
    let held = 0;
    for (const t of terms) held += own.has(t) ? weight.get(t)! : around.has(t) ? CONTEXT_WEIGHT * weight.get(t)! : 0;
    const ownHeld = terms.some((t) => own.has(t));
    const words = normalisedTexts[i]!.trim().split(" ").length;
    // Under a header that is the question itself (a staff answer), the text answers it whatever its words: "Des
    // maçons locaux." answers "Qui a construit la maison ?" though it names no one the checks would know.
    const asked = passage.heading !== undefined && answerType(passage.heading) === type && headingCoverage(passage.heading) >= ANSWER_THRESHOLD;
    const typed = type === null || asked || CHECKS[type](normalisedTexts[i]!, passage.text);
    const score = (held / total) * (passage.kind === "alt" ? ALT_WEIGHT : 1);
    return { passage, score, eligible: ownHeld && typed && (words >= MIN_ANSWER_WORDS || passage.heading !== undefined) && passage.kind !== "title", index: i };
  });
  const eligible = scored.filter((s) => s.eligible).sort((a, b) => b.score - a.score || a.index - b.index);
  const candidates = eligible
    .filter((s) => s.score >= CANDIDATE_THRESHOLD)
    .slice(0, MAX_CANDIDATES)
    .map((s) => s.passage);
  const best = eligible[0];
  if (!best || best.score < ANSWER_THRESHOLD) return { found: [], candidates, score: best?.score ?? 0, type, terms };
  // A second sentence is quoted when it answers nearly as well and says something else.
  const second = eligible.find((s) => s !== best && s.score >= Math.max(ANSWER_THRESHOLD, best.score - 0.1) && s.passage.text !== best.passage.text);
  const found = [best, ...(second && MAX_QUOTED > 1 ? [second] : [])].sort((a, b) => a.index - b.index).map((s) => s.passage);
  return { found, candidates, score: best.score, type, terms };
}
