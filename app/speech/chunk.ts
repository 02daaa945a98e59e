/**
 * Cuts a narration's text into pieces an engine accepts in one call (OpenAI: 4,096 characters; Google:
 * 5,000 bytes of UTF-8). Cuts fall at paragraph ends, then sentence ends, then spaces; a single word
 * longer than the limit is cut between code points (never inside a surrogate pair). Pieces keep their
 * order and, joined with a space, say the same words.
 */
export interface ChunkLimit {
  /** Largest piece, measured by `measure`. */
  readonly max: number;
  /** "chars": UTF-16 code units (OpenAI counts characters); "bytes": UTF-8 bytes (Google). */
  readonly measure: "chars" | "bytes";
}

const encoder = new TextEncoder();

export function measureText(text: string, measure: ChunkLimit["measure"]): number {
  return measure === "bytes" ? encoder.encode(text).length : text.length;
}

const SENTENCE_END = /(?<=[.!?…。！？؟।])\s+/u;

function hardCut(word: string, limit: ChunkLimit): string[] {
  const out: string[] = [];
  let piece = "";
  for (const point of word) {
    if (piece !== "" && measureText(piece + point, limit.measure) > limit.max) {
      out.push(piece);
      piece = "";
    }
    piece += point;
  }
  if (piece !== "") out.push(piece);
  return out;
}

/** Packs units (already each within the limit) into as few pieces as fit, joined by `glue`. */
function pack(units: string[], glue: string, limit: ChunkLimit): string[] {
  const out: string[] = [];
  let current = "";
  for (const unit of units) {
    const candidate = current === "" ? unit : `${current}${glue}${unit}`;
    if (measureText(candidate, limit.measure) <= limit.max) current = candidate;
    else {
      if (current !== "") out.push(current);
      current = unit;
    }
  }
  if (current !== "") out.push(current);
  return out;
}

function split(text: string, level: number, limit: ChunkLimit): string[] {
  if (measureText(text, limit.measure) <= limit.max) return [text];
  const separators: [RegExp, string][] = [
    [/\n\s*\n/, "\n\n"],
    [SENTENCE_END, " "],
    [/\s+/, " "],
  ];
  if (level >= separators.length) return hardCut(text, limit);
  const [pattern, glue] = separators[level]!;
  const parts = text
    .split(pattern)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const units = parts.flatMap((part) => split(part, level + 1, limit));
  return pack(units, glue, limit);
}

export function chunkText(text: string, limit: ChunkLimit): string[] {
  if (!(limit.max > 0)) throw new RangeError("chunk limit must be positive");
  const trimmed = text.trim();
  if (trimmed === "") return [];
  return split(trimmed, 0, limit);
}

/** One piece of a narration cut at paragraphs (decision 106). */
export interface NarrationPiece {
  text: string;
  /** Index of the paragraph it belongs to (a long paragraph gives several pieces of one index). */
  paragraph: number;
}

/**
 * Cuts a narration at its paragraphs first (a blank line, as `narrationText` joins them): every paragraph
 * is its own piece, so an edit of one paragraph changes only its pieces and the others' audio can be
 * reused (decision 106). A paragraph over the limit is cut further as `chunkText` does (sentences, then
 * spaces, then code points).
 */
export function narrationPieces(text: string, limit: ChunkLimit): NarrationPiece[] {
  if (!(limit.max > 0)) throw new RangeError("chunk limit must be positive");
  const paragraphs = text
    .split(/\n[^\S\n]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  return paragraphs.flatMap((paragraph, index) => split(paragraph, 1, limit).map((piece) => ({ text: piece, paragraph: index })));
}
