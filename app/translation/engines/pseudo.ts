import { findLanguage } from "../languages";
import { sleep } from "./run";
import type { TranslationEngine } from "./types";

const ACCENTED: Readonly<Record<string, string>> = {
  a: "á",
  e: "é",
  i: "í",
  o: "ó",
  u: "ú",
  y: "ý",
  c: "ç",
  n: "ñ",
  A: "Á",
  E: "É",
  I: "Í",
  O: "Ó",
  U: "Ú",
  Y: "Ý",
  C: "Ç",
  N: "Ñ",
};

// Left exactly as written: ⟦…⟧ placeholders (protected terms), web and e-mail addresses. A real engine is
// asked to keep them too, and the glossary feature proves its protection works against this engine.
const PROTECTED = /⟦[^⟦⟧]*⟧|(?:https?:\/\/|www\.)[^\s⟦⟧]+|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu;

function accent(text: string): string {
  return text.replace(/[aeiouycnAEIOUYCN]/g, (letter) => ACCENTED[letter] ?? letter);
}

/**
 * The pseudo-translation of one text: "[de] " then the text with its vowels (and c, n, y) accented.
 * Deterministic, reversible by eye, and visibly different from the source, so tests and the local
 * visitor page can tell translated text from original. Whitespace, digits and protected tokens are kept.
 */
export function pseudoTranslate(text: string, to: string): string {
  if (text.trim() === "") return text;
  let out = "";
  let last = 0;
  for (const match of text.matchAll(PROTECTED)) {
    out += accent(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  out += accent(text.slice(last));
  return `[${findLanguage(to)?.code ?? to}] ${out}`;
}

/** Offline, for local use and tests; serves every catalogue language. `delayMs` imitates a slow engine. */
export function pseudoEngine({ delayMs = 0 }: { delayMs?: number } = {}): TranslationEngine {
  return {
    id: "pseudo",
    limits: { maxTexts: 200, maxChars: 100_000 },
    supports: (from, to) => findLanguage(from) !== undefined && findLanguage(to) !== undefined,
    async translate(texts, _from, to, signal) {
      if (delayMs > 0) await sleep(delayMs, signal);
      signal.throwIfAborted();
      return texts.map((text) => pseudoTranslate(text, to));
    },
  };
}
