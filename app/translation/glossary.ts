import { sha256Hex } from "~/lib/crypto";
/**
 * The museum glossary's protection of engine input (DESIGN §5, decision 026). Pure: no I/O.
 *
 * Before an engine call every glossary term in a segment becomes a placeholder `⟦n⟧` that the engines
 * keep (the pseudo engine by construction, the others are asked to); after the call each placeholder
 * becomes the term itself (never translated) or the term's fixed translation in the target language.
 * An output that lost, duplicated, invented or mangled a placeholder cannot be restored: `restore`
 * answers null and the caller treats that segment as failed for that engine.
 *
 * Matching rules:
 * - case-sensitive and exact (after NFC): "Orange" the town is not "orange" the colour;
 * - whole words only: a match may not continue a word on either side (letters, digits, combining marks,
 *   connector punctuation of any script), so "Arles" is not found in "Charles". In scripts written
 *   without spaces (Han, kana, Thai, Lao, Khmer, Myanmar, Tibetan) any occurrence counts;
 * - leftmost first, then longest: "Musée d'Orsay" wins over "Orsay" where both start, and a term that
 *   starts inside an earlier match is not looked at.
 * Text that already looks like a placeholder (`⟦…⟧` in the source) is protected as itself, so it can
 * never be confused with ours.
 */

/** A glossary row as the API shows it: `lang` null means "never translated, in any language". */
export interface GlossaryTerm {
  term: string;
  lang: string | null;
  translation: string | null;
}

/** One term as it applies to one target language: what replaces it after the engine call. */
export interface GlossaryRule {
  term: string;
  output: string;
}

/**
 * The rules for target language `to`: every never-translate term, and every fixed translation into
 * `to`, which wins over a never-translate row of the same term. Longest terms first, then by term, so
 * the order (and a hash of it) does not depend on the database's.
 */
export function glossaryFor(terms: readonly GlossaryTerm[], to: string): GlossaryRule[] {
  const rules = new Map<string, string>();
  for (const { term, lang } of terms) {
    if (lang === null && !rules.has(term)) rules.set(term, term);
  }
  for (const { term, lang, translation } of terms) {
    if (lang === to && translation !== null) rules.set(term, translation);
  }
  return [...rules]
    .filter(([term]) => term.length > 0)
    .map(([term, output]) => ({ term, output }))
    .sort((a, b) => b.term.length - a.term.length || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}

const WORD = /^[\p{L}\p{N}\p{M}\p{Pc}]$/u;
const UNSPACED = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\p{sc=Tibetan}]$/u;
// A placeholder as engines may give it back: spaces inside the brackets are forgiven, nothing else.
const PLACEHOLDER = /⟦\s*(\d{1,6})\s*⟧/gu;
// Source text that looks like a placeholder: protected as itself.
const LITERAL_TOKEN = /⟦[^⟦⟧]*⟧/y;
const BRACKETS = /[⟦⟧]/g;

/** Two characters side by side that belong to one word, so a match may not end or start between them. */
function joins(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  if (!WORD.test(a) || !WORD.test(b)) return false;
  return !UNSPACED.test(a) && !UNSPACED.test(b);
}

function charBefore(text: string, index: number): string | undefined {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  if (index >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(index - 2, index);
  }
  return text[index - 1];
}

function charAt(text: string, index: number): string | undefined {
  const code = text.codePointAt(index);
  return code === undefined ? undefined : String.fromCodePoint(code);
}

const lastChar = (text: string) => charBefore(text, text.length);

interface Compiled {
  byFirst: Map<string, GlossaryRule[]>;
}

const compiledCache = new WeakMap<readonly GlossaryRule[], Compiled>();

function compile(rules: readonly GlossaryRule[]): Compiled {
  const cached = compiledCache.get(rules);
  if (cached) return cached;
  const byFirst = new Map<string, GlossaryRule[]>();
  for (const rule of rules) {
    if (rule.term.length === 0) continue;
    const first = rule.term[0]!;
    const list = byFirst.get(first) ?? [];
    list.push(rule);
    byFirst.set(first, list);
  }
  for (const list of byFirst.values()) list.sort((a, b) => b.term.length - a.term.length);
  const compiled = { byFirst };
  compiledCache.set(rules, compiled);
  return compiled;
}

interface Match {
  start: number;
  end: number;
  /** What the placeholder gives back after the engine call. */
  output: string;
  /** The term matched, or null for a literal `⟦…⟧` of the source. */
  term: string | null;
}

/** Every protected span of `text`, left to right, none overlapping. */
function findMatches(text: string, rules: readonly GlossaryRule[]): Match[] {
  const { byFirst } = compile(rules);
  const matches: Match[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === "⟦") {
      LITERAL_TOKEN.lastIndex = i;
      const literal = LITERAL_TOKEN.exec(text);
      if (literal) {
        matches.push({ start: i, end: i + literal[0].length, output: literal[0], term: null });
        i += literal[0].length;
        continue;
      }
    }
    const candidates = byFirst.get(text[i]!);
    let found: Match | undefined;
    if (candidates) {
      const before = charBefore(text, i);
      for (const rule of candidates) {
        if (!text.startsWith(rule.term, i)) continue;
        const end = i + rule.term.length;
        if (joins(before, charAt(rule.term, 0)) || joins(lastChar(rule.term), charAt(text, end))) continue;
        found = { start: i, end, output: rule.output, term: rule.term };
        break;
      }
    }
    if (found) {
      matches.push(found);
      i = found.end;
    } else {
      i += text.codePointAt(i)! > 0xffff ? 2 : 1;
    }
  }
  return matches;
}

/** The glossary terms found in `text` (whole words, as protection finds them). */
export function termsIn(text: string, rules: readonly GlossaryRule[]): string[] {
  if (rules.length === 0) return [];
  return [...new Set(findMatches(text, rules).flatMap((m) => (m.term === null ? [] : [m.term])))];
}

/** Where each glossary term sits in `text` (whole words, as protection finds them), left to right: XLIFF marks them. */
export function termSpans(text: string, rules: readonly GlossaryRule[]): { start: number; end: number; term: string; output: string }[] {
  if (rules.length === 0) return [];
  return findMatches(text, rules).flatMap((m) => (m.term === null ? [] : [{ start: m.start, end: m.end, term: m.term, output: m.output }]));
}

/** A segment ready for an engine, and what its placeholders stand for. */
export interface ProtectedText {
  /** What the engine receives. */
  text: string;
  /** Placeholder number → its replacement (index 0 unused; placeholders start at ⟦1⟧). */
  outputs: string[];
  /** How many times each placeholder occurs in `text`. */
  counts: number[];
  /** Brackets in `text` outside placeholders (a lone "⟦" of the source), which the output must keep. */
  strayBrackets: number;
}

/** Replaces every glossary term (and every `⟦…⟧` of the source) by a numbered placeholder. */
export function protect(text: string, rules: readonly GlossaryRule[]): ProtectedText {
  const matches = findMatches(text, rules);
  const outputs: string[] = [""];
  const counts: number[] = [0];
  const numberOf = new Map<string, number>();
  let out = "";
  let last = 0;
  for (const match of matches) {
    let n = numberOf.get(match.output);
    if (n === undefined) {
      n = outputs.length;
      numberOf.set(match.output, n);
      outputs.push(match.output);
      counts.push(0);
    }
    counts[n]!++;
    out += `${text.slice(last, match.start)}⟦${n}⟧`;
    last = match.end;
  }
  out += text.slice(last);
  return { text: out, outputs, counts, strayBrackets: countStray(out) };
}

function countStray(text: string): number {
  return (text.replace(PLACEHOLDER, "").match(BRACKETS) ?? []).length;
}

/**
 * The engine's output with each placeholder replaced by its term or fixed translation; null when the
 * output lost, repeated, invented or mangled a placeholder (then no text from it may be shipped).
 */
export function restore(output: string, protectedText: ProtectedText): string | null {
  const { outputs, counts, strayBrackets } = protectedText;
  if (outputs.length === 1) return output;
  const seen = new Array<number>(outputs.length).fill(0);
  let broken = false;
  const restored = output.replace(PLACEHOLDER, (_whole, digits: string) => {
    const n = Number(digits);
    if (n < 1 || n >= outputs.length) {
      broken = true;
      return "";
    }
    seen[n]!++;
    return outputs[n]!;
  });
  if (broken || countStray(output) !== strayBrackets) return null;
  for (let n = 1; n < outputs.length; n++) if (seen[n] !== counts[n]) return null;
  return restored;
}

/**
 * A short tag of the rules that matter to these segments (the terms they contain, with their
 * replacements), or "" when none does: part of a rendered page's cache key, so a glossary change that
 * touches the page gives it a new key and one that does not leaves its cache alone.
 */
export async function glossaryTag(rules: readonly GlossaryRule[], segments: readonly string[]): Promise<string> {
  if (rules.length === 0) return "";
  const used = new Set<string>();
  for (const segment of segments) for (const term of termsIn(segment.normalize("NFC"), rules)) used.add(term);
  if (used.size === 0) return "";
  const applied = rules.filter((rule) => used.has(rule.term)).map((rule) => [rule.term, rule.output]);
  return (await sha256Hex(JSON.stringify(applied))).slice(0, 16);
}

/**
 * A short tag of all the rules for one language, or "" when there are none: for caches that cannot
 * look at the text before their lookup (translated subtitle files), so any change for the language
 * gives them a new key.
 */
export async function glossaryVersion(rules: readonly GlossaryRule[]): Promise<string> {
  if (rules.length === 0) return "";
  return (await sha256Hex(JSON.stringify(rules.map((rule) => [rule.term, rule.output])))).slice(0, 16);
}
