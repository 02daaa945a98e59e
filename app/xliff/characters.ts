// A translator's target as one segment line (decision 109): whitespace a tool wrote as a control character
// is kept as what the tool meant, and a character a segment cannot hold is named with its place. Pure.
import { TEXT_MAX_LENGTH } from "~/content/defaults";
import { segmentTextSchema } from "~/models/translation-input";
import type { TargetProblem } from "./report";

// Line and paragraph breaks of any kind (a tool's `&#xD;`, `&#x85;`, U+2028/2029) and tabs: a segment is
// one line, so they are the space between words they stand for, as a line break already was.
const BREAKS = new Set(["\t", "\n", "\r", "\u000b", "\u000c", "\u0085", "\u2028", "\u2029"]);

/** The text on one line: each run of breaks, tabs and the spaces around them is one space (linear, no regex backtracking). */
function oneLine(text: string): string {
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    if (!BREAKS.has(text[i]!)) {
      out.push(text[i]!);
      i++;
      continue;
    }
    while (out.length > 0 && out[out.length - 1] === " ") out.pop();
    while (i < text.length && (BREAKS.has(text[i]!) || text[i] === " ")) i++;
    out.push(" ");
  }
  return out.join("");
}

const hasForbidden = (text: string) => segmentTextSchema.safeParse(text).error?.issues.some((issue) => issue.message === "forbidden_characters") ?? false;

const NAMES: Record<number, string> = {
  0x00: "NULL",
  0x07: "BELL",
  0x08: "BACKSPACE",
  0x1b: "ESCAPE",
  0x7f: "DELETE",
  0x202a: "LEFT-TO-RIGHT EMBEDDING",
  0x202b: "RIGHT-TO-LEFT EMBEDDING",
  0x202c: "POP DIRECTIONAL FORMATTING",
  0x202d: "LEFT-TO-RIGHT OVERRIDE",
  0x202e: "RIGHT-TO-LEFT OVERRIDE",
  0x2066: "LEFT-TO-RIGHT ISOLATE",
  0x2067: "RIGHT-TO-LEFT ISOLATE",
  0x2068: "FIRST STRONG ISOLATE",
  0x2069: "POP DIRECTIONAL ISOLATE",
  0xfeff: "ZERO WIDTH NO-BREAK SPACE",
};

/** `U+202E RIGHT-TO-LEFT OVERRIDE`, `U+0001 control character`, `U+D800 lone surrogate`. */
export function characterName(code: number): string {
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  const name =
    NAMES[code] ?? (code >= 0xd800 && code <= 0xdfff ? "lone surrogate" : code < 0x20 || (code >= 0x7f && code <= 0x9f) ? "control character" : null);
  return name ? `${hex} ${name}` : hex;
}

export type CleanTarget = { ok: true; text: string } | { ok: false; detail: TargetProblem; character?: string; position?: number; max?: number };

/** A target as a segment: one line (breaks and tabs become a space), trimmed, NFC; or what is wrong, and where. */
export function cleanTarget(raw: string): CleanTarget {
  const text = oneLine(raw);
  const parsed = segmentTextSchema.safeParse(text);
  if (parsed.success) return { ok: true, text: parsed.data };
  const problem = parsed.error.issues[0]?.message;
  if (problem === "too_long") return { ok: false, detail: "too_long", max: TEXT_MAX_LENGTH };
  if (problem === "forbidden_characters") {
    // The first character refused: the shortest prefix (in characters, surrogate pairs whole) that is refused.
    const chars = [...text];
    let low = 1;
    let high = chars.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (hasForbidden(chars.slice(0, mid).join(""))) high = mid;
      else low = mid + 1;
    }
    return { ok: false, detail: "forbidden_character", character: characterName(chars[low - 1]!.codePointAt(0)!), position: low };
  }
  return { ok: false, detail: "empty" };
}
