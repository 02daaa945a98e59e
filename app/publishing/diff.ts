// Comparing two contents of an article (issue 18 §3, decision 042): which elements were added, removed or
// changed, and within a changed text the words added and removed. Pure, so the history page and the tests
// use it alike. Elements have no ids: exact equals are matched first (longest common subsequence), then
// between two matches the elements of the same type are paired in order as "changed".
import type { ArticleContent, ContentElement, ElementType } from "~/content/schema";

export interface TextPart {
  op: "same" | "ins" | "del";
  text: string;
}

/** One field of an element: a text (said word by word) or a setting (an address, a size, a colour). */
export interface Field {
  name: string;
  kind: "text" | "value";
  value: string;
}

export type FieldChange =
  | { name: string; kind: "text"; parts: TextPart[]; /** Too long to compare word by word: replaced whole. */ coarse: boolean }
  | { name: string; kind: "value"; before: string; after: string };

export type ElementDiff =
  | { kind: "same"; type: ElementType; fields: Field[] }
  | { kind: "added" | "removed"; type: ElementType; fields: Field[]; details?: ElementDiff[] }
  | { kind: "changed"; type: ElementType; changes: FieldChange[]; details?: ElementDiff[] };

export interface ContentDiff {
  elements: ElementDiff[];
  counts: { added: number; removed: number; changed: number; same: number };
}

/** Tokens of one text compared cell by cell at most (after the common start and end are set aside). */
export const TEXT_CELLS_MAX = 1_000_000;
/** Cells for a whole comparison: past it, the remaining changed texts are replaced whole. */
export const TOTAL_CELLS_MAX = 4_000_000;

// ---------------------------------------------------------------------------------------------------
// Fields of an element, in reading order. Texts are what a reader reads; values are settings.

const TEXT_FIELDS: Partial<Record<ElementType, readonly string[]>> = {
  text: ["content"],
  heading: ["content"],
  image: ["alt"],
  link: ["content"],
  legendItem: ["content", "alt"],
  accordion: ["header"],
};

const VALUE_FIELDS: Record<ElementType, readonly string[]> = {
  metadatas: ["url", "backgroundColor"],
  text: ["size", "fontSize", "bold", "italic", "color", "justify", "align"],
  heading: ["level", "color", "align"],
  image: ["src", "size", "justify"],
  video: ["src", "subtitles", "videoId", "size", "justify"],
  space: ["size"],
  link: ["link", "src", "size", "fontSize", "bold", "italic", "color", "justify"],
  legendItem: ["src", "width", "size", "fontSize", "bold", "italic", "color", "justify"],
  accordion: ["fontSize", "bold", "italic", "color"],
};

function fieldValue(element: ContentElement, name: string): string {
  const source: Record<string, unknown> = element.type === "accordion" ? { ...element.header, header: element.header.content } : element;
  const value = source[name];
  return value === undefined || value === null ? "" : String(value);
}

/** The fields of an element (an accordion's header style is read from its header). */
export function elementFields(element: ContentElement): Field[] {
  const texts = (TEXT_FIELDS[element.type] ?? []).map((name) => ({ name, kind: "text" as const, value: fieldValue(element, name) }));
  const values = VALUE_FIELDS[element.type].map((name) => ({ name, kind: "value" as const, value: fieldValue(element, name) }));
  return [...texts, ...values];
}

// ---------------------------------------------------------------------------------------------------
// Words. A token is a run of letters, digits and marks (so a combining accent stays on its letter), a run
// of spaces, an emoji with its modifiers and joined parts, or one character otherwise: punctuation, and each
// CJK or Thai character, since those scripts write words without spaces. One regular expression rather
// than Intl.Segmenter: the same tokens everywhere, and about ten times faster on long texts.

const NO_SPACE = String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u3000-\u303f\uff00-\uffef]`;
const EMOJI = String.raw`\p{Regional_Indicator}{2}|\p{Extended_Pictographic}(?:[\uFE0F\u20E3\p{Emoji_Modifier}\u{E0020}-\u{E007F}]|\u200D\p{Extended_Pictographic})*`;
const TOKEN = new RegExp(String.raw`\s+|(?:(?!${NO_SPACE})[\p{L}\p{N}\p{M}\p{Pc}])+|${NO_SPACE}\p{M}*|${EMOJI}|[\s\S]\p{M}*`, "gu");

/** The tokens of a text; joined, they give the text back exactly. */
export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

interface Budget {
  cells: number;
}

function push(parts: TextPart[], op: TextPart["op"], text: string) {
  if (!text) return;
  const last = parts[parts.length - 1];
  if (last?.op === op) last.text += text;
  else parts.push({ op, text });
}

/**
 * The words removed and added from `before` to `after`: the common start and end are set aside, the middle is
 * compared by longest common subsequence while it fits `TEXT_CELLS_MAX` and the budget, else replaced whole.
 */
export function diffText(before: string, after: string, budget: Budget = { cells: TOTAL_CELLS_MAX }): { parts: TextPart[]; coarse: boolean } {
  const a = tokenize(before);
  const b = tokenize(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: TextPart[] = [];
  push(parts, "same", a.slice(0, start).join(""));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const cells = (midA.length + 1) * (midB.length + 1);
  let coarse = false;
  if (midA.length === 0 || midB.length === 0) {
    push(parts, "del", midA.join(""));
    push(parts, "ins", midB.join(""));
  } else if (cells > TEXT_CELLS_MAX || cells > budget.cells) {
    coarse = true;
    push(parts, "del", midA.join(""));
    push(parts, "ins", midB.join(""));
  } else {
    budget.cells -= cells;
    for (const part of lcsParts(midA, midB)) push(parts, part.op, part.text);
  }
  push(parts, "same", a.slice(endA).join(""));
  return { parts, coarse };
}

/** Longest common subsequence of two token lists, as same/del/ins steps (deletions before insertions). */
function lcsParts(a: readonly string[], b: readonly string[]): TextPart[] {
  return lcsSteps(a, b, (x, y) => x === y).map(([op, i, j]) => ({ op, text: op === "ins" ? b[j]! : a[i]! }));
}

/** The edit script between `a` and `b`: ["same", i, j], ["del", i, -1], ["ins", -1, j], in order. */
function lcsSteps<T>(a: readonly T[], b: readonly T[], equal: (x: T, y: T) => boolean): [TextPart["op"], number, number][] {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  // lengths[i * width + j] = LCS of a[i..] and b[j..]
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] = equal(a[i]!, b[j]!)
        ? lengths[(i + 1) * width + j + 1]! + 1
        : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const steps: [TextPart["op"], number, number][] = [];
  let i = 0;
  let j = 0;
  const pendingIns: [TextPart["op"], number, number][] = [];
  const flush = () => steps.push(...pendingIns.splice(0));
  while (i < n || j < m) {
    if (i < n && j < m && equal(a[i]!, b[j]!)) {
      flush();
      steps.push(["same", i++, j++]);
    } else if (j < m && (i >= n || lengths[i * width + j + 1]! >= lengths[(i + 1) * width + j]!)) {
      pendingIns.push(["ins", -1, j++]);
    } else {
      steps.push(["del", i++, -1]);
    }
  }
  flush();
  return steps;
}

// ---------------------------------------------------------------------------------------------------
// Elements.

function details(element: ContentElement): ContentElement[] {
  return element.type === "accordion" ? element.details : [];
}

function whole(kind: "added" | "removed" | "same", element: ContentElement): ElementDiff {
  if (kind === "same") return { kind, type: element.type, fields: elementFields(element) };
  const inside = details(element);
  return {
    kind,
    type: element.type,
    fields: elementFields(element),
    ...(element.type === "accordion" ? { details: inside.map((detail) => whole(kind, detail)) } : {}),
  };
}

function changed(before: ContentElement, after: ContentElement, budget: Budget): ElementDiff {
  const old = elementFields(before);
  const changes: FieldChange[] = [];
  elementFields(after).forEach((field, index) => {
    const previous = old[index]!.value;
    if (previous === field.value) return;
    if (field.kind === "text") changes.push({ name: field.name, kind: "text", ...diffText(previous, field.value, budget) });
    else changes.push({ name: field.name, kind: "value", before: previous, after: field.value });
  });
  return {
    kind: "changed",
    type: after.type,
    changes,
    ...(after.type === "accordion" ? { details: diffElements(details(before), details(after), budget) } : {}),
  };
}

/**
 * Pairs the unmatched elements between two matches: same type, in order, as changes. Between two pairs the
 * removed elements come before the added ones.
 */
function pairGap(removed: ContentElement[], added: ContentElement[], out: ElementDiff[], budget: Budget) {
  let fromRemoved = 0;
  let pendingAdded: ContentElement[] = [];
  for (const element of added) {
    const match = removed.findIndex((candidate, index) => index >= fromRemoved && candidate.type === element.type);
    if (match === -1) {
      pendingAdded.push(element);
      continue;
    }
    for (const gone of removed.slice(fromRemoved, match)) out.push(whole("removed", gone));
    for (const fresh of pendingAdded) out.push(whole("added", fresh));
    pendingAdded = [];
    out.push(changed(removed[match]!, element, budget));
    fromRemoved = match + 1;
  }
  for (const gone of removed.slice(fromRemoved)) out.push(whole("removed", gone));
  for (const fresh of pendingAdded) out.push(whole("added", fresh));
}

function diffElements(before: readonly ContentElement[], after: readonly ContentElement[], budget: Budget): ElementDiff[] {
  const out: ElementDiff[] = [];
  let removed: ContentElement[] = [];
  let added: ContentElement[] = [];
  // Each element's JSON is its identity: computed once, not per comparison.
  const keysBefore = before.map((element) => JSON.stringify(element));
  const keysAfter = after.map((element) => JSON.stringify(element));
  for (const [op, i, j] of lcsSteps(keysBefore, keysAfter, (x, y) => x === y)) {
    if (op === "del") removed.push(before[i]!);
    else if (op === "ins") added.push(after[j]!);
    else {
      pairGap(removed, added, out, budget);
      removed = [];
      added = [];
      out.push(whole("same", after[j]!));
    }
  }
  pairGap(removed, added, out, budget);
  return out;
}

/** Compares two contents of one article, element by element (the metadatas element included: its address). */
export function diffContents(before: ArticleContent, after: ArticleContent): ContentDiff {
  const elements = diffElements(before, after, { cells: TOTAL_CELLS_MAX });
  const counts = { added: 0, removed: 0, changed: 0, same: 0 };
  for (const element of elements) counts[element.kind]++;
  return { elements, counts };
}

/** The text before (same + del) or after (same + ins) of a text change: what the diff claims each side read. */
export function sideOf(parts: readonly TextPart[], side: "before" | "after"): string {
  const skip = side === "before" ? "ins" : "del";
  return parts
    .filter((part) => part.op !== skip)
    .map((part) => part.text)
    .join("");
}
