// The generated museum of `npm run bench:size` (tests/bench/d1-size.mjs): articles built with the editor's
// own element defaults (app/content/schema.ts), segmented by the visitor's own code
// (app/translation/segments.ts), and translations whose UTF-8 size follows the target script. Bundled by
// esbuild at run time, so it uses the app's modules exactly as the Worker does.
import { articleContentSchema, newElement, type ArticleContent } from "~/content/schema";
import { translationMessages } from "~/translation/engines/llm";
import { splitBatches } from "~/translation/engines/run";
import { articleSegments, mapSegments, segmentEntries, segmentHash } from "~/translation/segments";

/** A small deterministic generator (mulberry32): the same seed gives the same museum. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Common French words with their real lengths (museum labels are French by default: source_lang "fr").
const WORDS = (
  "le la les un une des du de et à au aux en dans sur sous par pour avec sans entre vers chez " +
  "tableau peinture sculpture portrait paysage atelier artiste peintre musée collection salle œuvre " +
  "siècle époque règne roi reine église abbaye château ville campagne rivière lumière couleur toile " +
  "bronze marbre bois huile pigment vernis cadre restauration donation acquisition exposition " +
  "représente montre évoque rappelle témoigne illustre commande réalise achève expose conserve " +
  "célèbre ancien nouveau grand petit premier dernier noble religieux populaire mythologique " +
  "composition perspective détail visage regard main geste drapé fond horizon ciel nuage mer " +
  "famille marchand mécène élève maître influence style manière technique inventaire provenance"
).split(" ");

function words(rand: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)]!);
  const text = out.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1) + ".";
}

/** Sentences of about `count` words. */
function prose(rand: () => number, count: number): string {
  const sentences: string[] = [];
  let left = count;
  while (left > 0) {
    const n = Math.min(left, 8 + Math.floor(rand() * 14));
    sentences.push(words(rand, n));
    left -= n;
  }
  return sentences.join(" ");
}

const media = (kind: string, n: number) => `/media/museum/${kind}-${n.toString(16).padStart(8, "0")}.webp`;

/**
 * One article of about `targetWords` words (title, paragraphs, images with alt texts, a legend item, an
 * accordion, a link), validated by the stored content's own schema.
 */
export function article(rand: () => number, index: number, targetWords: number): { slug: string; name: string; content: ArticleContent } {
  const slug = `oeuvre-${index + 1}`;
  const paragraph = () => prose(rand, Math.round(targetWords * (0.1 + rand() * 0.08)));
  const title = words(rand, 3 + Math.floor(rand() * 4)).slice(0, -1);
  const elements: unknown[] = [
    { type: "metadatas", url: slug },
    { ...newElement("text"), content: title, fontSize: 28, bold: true },
    { ...newElement("image"), src: media("img", index * 4), alt: words(rand, 8 + Math.floor(rand() * 6)) },
    // Multi-line texts: each line is a segment of its own.
    { ...newElement("text"), content: `${paragraph()}\n${paragraph()}` },
    { ...newElement("text"), content: `${paragraph()}\n\n${paragraph()}` },
    { ...newElement("legendItem"), src: media("img", index * 4 + 1), alt: words(rand, 8), content: prose(rand, 25) },
    {
      ...newElement("accordion"),
      header: { ...newElement("accordion").header, content: words(rand, 4).slice(0, -1) },
      details: [
        { ...newElement("text"), content: paragraph() },
        { ...newElement("text"), content: paragraph() },
        { ...newElement("image"), src: media("img", index * 4 + 2), alt: words(rand, 10) },
      ],
    },
    { ...newElement("text"), content: paragraph() },
    { ...newElement("link"), link: "https://example.org/collection", content: words(rand, 4).slice(0, -1) },
  ];
  return { slug, name: title, content: articleContentSchema.parse(elements) };
}

/** Bytes per character and length relative to French, by script: what a translation weighs in UTF-8. */
const SCRIPTS: Record<string, { alphabet: string; ratio: number; spaces: boolean }> = {
  latin: { alphabet: "abcdefghijklmnopqrstuvwxyzáéíóúäöüßçñøåłšžčěőű", ratio: 1.05, spaces: true },
  cyrillic: { alphabet: "абвгдежзийклмнопрстуфхцчшщыэюяії", ratio: 1.05, spaces: true },
  greek: { alphabet: "αβγδεζηθικλμνξοπρστυφχψωάέήίόύώ", ratio: 1.1, spaces: true },
  arabic: { alphabet: "ابتثجحخدذرزسشصضطظعغفقكلمنهوي", ratio: 0.85, spaces: true },
  hebrew: { alphabet: "אבגדהוזחטיכלמנסעפצקרשת", ratio: 0.8, spaces: true },
  cjk: {
    alphabet:
      "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实",
    ratio: 0.3,
    spaces: false,
  },
  kana: {
    alphabet: "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん美術館絵画作品時代",
    ratio: 0.5,
    spaces: false,
  },
  hangul: { alphabet: "가나다라마바사아자차카타파하의는이에을를로과와한그림작품미술관시대", ratio: 0.45, spaces: true },
  indic: { alphabet: "कखगघचछजझटठडढणतथदधनपफबभमयरलवशषसहािीुूेैोौं", ratio: 1.0, spaces: true },
  thai: { alphabet: "กขคงจฉชซญดตถทธนบปผพฟภมยรลวศษสหอฮะาิีึืุูเแโใไ่้๊๋", ratio: 1.0, spaces: false },
  ethiopic: { alphabet: "ሀለሐመሠረሰሸቀበተቸኀነኘአከኸወዐዘዠየደጀገጠጨጰጸፀፈፐ", ratio: 0.7, spaces: true },
  caucasus: { alphabet: "აბგდევზთიკლმნოპჟრსტუფქღყშჩცძწჭხჯჰաբգդեզէըթժիլխծկհձղճմյնշոչպջռսվտրցւփքօֆ", ratio: 1.05, spaces: true },
};

const SCRIPT_OF: Record<string, keyof typeof SCRIPTS> = {
  ru: "cyrillic",
  uk: "cyrillic",
  bg: "cyrillic",
  sr: "cyrillic",
  mk: "cyrillic",
  kk: "cyrillic",
  mn: "cyrillic",
  el: "greek",
  ar: "arabic",
  fa: "arabic",
  ur: "arabic",
  he: "hebrew",
  "zh-Hans": "cjk",
  "zh-Hant": "cjk",
  ja: "kana",
  ko: "hangul",
  hi: "indic",
  bn: "indic",
  ta: "indic",
  te: "indic",
  ne: "indic",
  si: "indic",
  th: "thai",
  am: "ethiopic",
  ka: "caucasus",
  hy: "caucasus",
};

/** A stand-in translation of `source` into `lang`, with that language's typical length and UTF-8 width. */
export function translate(source: string, lang: string, rand: () => number): string {
  const script = SCRIPTS[SCRIPT_OF[lang] ?? "latin"]!;
  const length = Math.max(1, Math.round(source.length * script.ratio));
  let out = "";
  while (out.length < length) {
    const word = 2 + Math.floor(rand() * 7);
    for (let i = 0; i < word; i++) out += script.alphabet[Math.floor(rand() * script.alphabet.length)];
    if (script.spaces) out += " ";
  }
  return out.trim() + ".";
}

export interface GeneratedArticle {
  slug: string;
  name: string;
  /** The stored JSON (articles.content). */
  json: string;
  segments: { source: string; hash: string }[];
}

export async function generateArticle(rand: () => number, index: number, targetWords: number): Promise<GeneratedArticle> {
  const { slug, name, content } = article(rand, index, targetWords);
  const sources = articleSegments(content);
  const segments = await Promise.all(sources.map(async (source) => ({ source, hash: await segmentHash(source) })));
  return { slug, name, json: JSON.stringify(content), segments };
}

/** The rendered article in one language (what the visitor page caches in KV): its JSON's UTF-8 size. */
export function renderedBytes(json: string, translations: Map<string, string>): number {
  const content = JSON.parse(json) as ArticleContent;
  const rendered = mapSegments(content, (segment) => translations.get(segment) ?? segment);
  return new TextEncoder().encode(JSON.stringify(rendered)).byteLength;
}

/** Every segment position of a stored article (what a staff review is keyed by). */
export function positions(json: string): { id: string; source: string }[] {
  return segmentEntries(JSON.parse(json) as ArticleContent);
}

export const utf8Bytes = (text: string) => new TextEncoder().encode(text).byteLength;
/** Characters as the engines bill them: Unicode code points (DeepL, Google). */
export const codePoints = (text: string) => [...text].length;

/**
 * What translating these segments into `to` sends to each engine, with the engines' own batch limits
 * (app/translation/engines/*.ts): characters billed by DeepL and Google (code points of the texts), calls
 * to m2m100 (one text per call) and its input characters, and the LLM's calls and prompt characters
 * (system + user message of each batch, `translationMessages`).
 */
export function engineLoad(sources: readonly string[], from: string, to: string) {
  const billed = sources.reduce((sum, text) => sum + codePoints(text), 0);
  const llmBatches = splitBatches(sources, { maxTexts: 20, maxChars: 3_000 });
  const llmPromptChars = llmBatches.reduce((sum, batch) => sum + translationMessages(batch, from, to).reduce((s, m) => s + codePoints(m.content), 0), 0);
  return {
    billed,
    deeplRequests: splitBatches(sources, { maxTexts: 50, maxChars: 30_000 }).length,
    googleRequests: splitBatches(sources, { maxTexts: 100, maxChars: 10_000 }).length,
    m2m100Calls: sources.length,
    llmCalls: llmBatches.length,
    llmPromptChars,
  };
}
