// Inline codes (issue 29 §4): what stands for markup inside a segment travels as an XLIFF inline code
// and comes back in place (decision 110). In Muselingo only subtitle cues hold markup: WebVTT cue tags
// (`<i>`, `</b>`, `<v Marie>`, `<c.yellow>`, `<lang en>`, `<00:01.500>`), which an export writes as
// placeholders (2.0 `<ph/>` with its original data, 1.2 `<ph>` holding the tag) so that tools protect
// them; an article's text is plain text, where a `<` is a character. Pure.

/** A run of a source or target as read from a file: text, or an inline code. */
export type Inline =
  | { text: string }
  | {
      /** `ph`: a standalone code (`<x/>`, `<ph>`, `<it>`); `open`/`close`: one end of a pair (`<g>`, `<pc>`, `<bpt>`/`<ept>`, `<sc>`/`<ec>`). */
      code: "ph" | "open" | "close";
      id: string;
      /** The markup the code stands for, when the file carries it (1.2 `<ph>`/`<bpt>` content, 2.0 original data). */
      data: string | null;
      /** How the code reads for a person: its data, its `equiv-text`/`disp`, else the element (`<x id="1"/>`). */
      label: string;
    };

/** A WebVTT cue tag: a start tag with classes and annotation, an end tag, or a timestamp. */
const CUE_TAG = /^<(?:\/?[A-Za-z][A-Za-z0-9]*(?:\.[^\s.<>]+)*(?:[ \t][^<>\n]*)?|\/?[A-Za-z][A-Za-z0-9]*|(?:\d{2,}:)?\d{2}:\d{2}\.\d{3})>$/;

export const isCueTag = (text: string) => CUE_TAG.test(text);

const CUE_REFS: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">" };

/**
 * A cue text as runs: its tags as codes numbered 1, 2, … in order, its text with `&amp;`, `&lt;` and `&gt;`
 * read as the characters they stand for (a translator sees "Tom & Jerry", not "Tom &amp; Jerry").
 */
export function cueRuns(cue: string): Inline[] {
  const out: Inline[] = [];
  let n = 0;
  let last = 0;
  const text = (s: string) => {
    if (s !== "") out.push({ text: s.replace(/&(?:amp|lt|gt);/g, (ref) => CUE_REFS[ref]!) });
  };
  for (const match of cue.matchAll(/<[^<>\n]*>/g)) {
    if (!isCueTag(match[0])) continue;
    text(cue.slice(last, match.index));
    n++;
    const tag = match[0];
    out.push({ code: tag.startsWith("</") ? "close" : /^<\d/.test(tag) ? "ph" : "open", id: String(n), data: tag, label: tag });
    last = match.index + tag.length;
  }
  text(cue.slice(last));
  return out;
}

/** Text written into a cue: `&`, `<` and `>` as references, so the text never opens a tag. */
export const escapeCueText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A cue as the text a visitor reads, to compare two cues that differ only in how they escape it. */
export const cueReading = (cue: string) => cue.replace(/&(?:amp|lt|gt);/g, (ref) => CUE_REFS[ref]!);

/**
 * A target's runs matched to the codes of its source: each target tag takes the id of the same tag in
 * the source (the first not yet taken), a tag the source lacks a new id after the source's.
 */
export function matchCodes(source: Inline[], target: Inline[]): Inline[] {
  const free = source.filter((r): r is Extract<Inline, { code: string }> => "code" in r);
  let next = free.length;
  return target.map((run) => {
    if (!("code" in run)) return run;
    const at = free.findIndex((c) => c.data === run.data);
    if (at >= 0) return { ...run, id: free.splice(at, 1)[0]!.id };
    return { ...run, id: String(++next) };
  });
}

/** How runs read for a person (the import report): text, and each code as its label. */
export const runsLabel = (runs: readonly Inline[]) => runs.map((r) => ("code" in r ? r.label : r.text)).join("");

/** Runs as a source or target string: each code as the markup it stands for, or its label when the file lost it. */
export const runsText = (runs: readonly Inline[]) => runs.map((r) => ("code" in r ? (r.data ?? r.label) : r.text)).join("");

export type Resolved = { ok: true; text: string } | { ok: false; code: string };

/**
 * A translator's target as a segment. In a subtitle cue, each code becomes the cue tag it stands for: the
 * tag the file itself carries, else the source's tag with its id (`tags`); the text is escaped for
 * WebVTT. Anywhere, a pair's ends with no markup Muselingo knows (`<g>`, `<pc>`, `<bpt>`…) are formatting
 * a segment cannot hold: dropped, their text kept. A standalone code that stands for nothing Muselingo
 * knows (Angular's `<x id="INTERPOLATION"/>`, a `<ph>` of another tool) is never dropped silently: the
 * unit is refused with the code named.
 */
export function resolveTarget(target: readonly Inline[], subtitle: boolean, tags: ReadonlyMap<string, string>): Resolved {
  let out = "";
  for (const run of target) {
    if (!("code" in run)) {
      out += subtitle ? escapeCueText(run.text) : run.text;
      continue;
    }
    if (subtitle) {
      // The markup the file carries wins; a tool that kept only the code's id gets the source's tag back.
      const tag = run.data !== null && isCueTag(run.data) ? run.data : (tags.get(run.id) ?? null);
      if (tag !== null) {
        out += tag;
        continue;
      }
    }
    if (run.code !== "ph") continue;
    return { ok: false, code: run.label.slice(0, 120) };
  }
  return { ok: true, text: out };
}

/** The cue tags of a subtitle source by code id (as `cueRuns` numbers them). */
export function cueTags(source: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const run of cueRuns(source)) if ("code" in run && run.data !== null) tags.set(run.id, run.data);
  return tags;
}
