// XLIFF files for translators (issue 19 §3, decisions 058-060, 109-110). Pure: no I/O. Builds XLIFF 2.0
// and 1.2 from the units an export collected, notes in the museum's language, subtitle cue tags as
// inline codes; and reads back what computer-aided translation tools write, inline codes kept as codes
// (`inline.ts`) so the import puts them back in place. Hostile XML is refused before the parser sees it
// (`safety.ts`).
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { DomainError } from "~/errors";
import type { SegmentKind } from "~/translation/catalogue.server";
import { cueRuns, matchCodes, runsLabel, runsText, type Inline } from "./inline";
import { checkXmlSafety, XLIFF_LIMITS } from "./safety";

export const XLIFF_VERSIONS = ["2.0", "1.2"] as const;
export type XliffVersion = (typeof XLIFF_VERSIONS)[number];

/** Where a unit's translation stands in Muselingo when exported. */
export type UnitState = "new" | "machine" | "reviewed" | "stale";

/** A glossary term found in the source: `output` is the term itself (never translated) or its fixed translation. */
export interface TermSpan {
  start: number;
  end: number;
  term: string;
  output: string;
}

export interface ExportUnit {
  /** `a{articleId}.{segment place}`: stable while the article's structure stays (an XML NMTOKEN). */
  id: string;
  source: string;
  /** SHA-256 of the source at export: the import tells a changed source (stale) by it. */
  hash: string;
  target: string | null;
  state: UnitState;
  kind: SegmentKind;
  cue?: { start: string; end: string; file: string };
  /** For a stale review: the source the reviewed text was written for. */
  previousSource?: string;
  terms: TermSpan[];
}

export interface ExportArticle {
  id: number;
  name: string;
  units: ExportUnit[];
}

export interface ExportDocument {
  srcLang: string;
  trgLang: string;
  articles: ExportArticle[];
}

/** The words of the notes, in the museum's language (`xliff.file.*` of the locales). */
export type NoteWords = (key: string, values?: Record<string, string>) => string;

export const unitId = (articleId: number, segmentId: string) => `a${articleId}.${segmentId}`;

/** The article and segment place a unit id names, or null for an id this app never writes. */
export function parseUnitId(id: string): { articleId: number; segmentId: string } | null {
  // Up to 16 digits: shard k hands out ids from k × 2⁴⁰ (decision 142), 13 digits and more.
  const match = /^a([1-9]\d{0,15})\.(e\d{1,4}\..{1,200})$/.exec(id);
  if (!match) return null;
  const articleId = Number(match[1]);
  return Number.isSafeInteger(articleId) ? { articleId, segmentId: match[2]! } : null;
}

// ---------------------------------------------------------------------------------------------------
// Writing

// Characters XML 1.0 cannot carry at all (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/FFFF).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function escapeText(text: string): string {
  return text.replace(NOT_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function escapeAttr(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");
}

/** Where a code's markup is kept: 2.0 `<originalData>` of the unit, by code id. */
type CodeData = Map<string, string>;

/** Text and cue tags as XLIFF content: a tag is a placeholder (2.0 `<ph dataRef>`, 1.2 `<ph>` holding it). */
function runsXml(runs: readonly Inline[], version: XliffVersion, data: CodeData): string {
  return runs
    .map((run) => {
      if (!("code" in run)) return escapeText(run.text);
      const markup = run.data ?? "";
      if (version === "1.2") return `<ph id="${run.id}" ctype="x-vtt-tag">${escapeText(markup)}</ph>`;
      data.set(run.id, markup);
      return `<ph id="${run.id}" dataRef="d${run.id}" disp="${escapeAttr(markup)}"/>`;
    })
    .join("");
}

/** The source with its glossary terms marked: never-translate terms protected, fixed translations commented. */
function markedSource(unit: ExportUnit, version: XliffVersion, t: NoteWords, data: CodeData): string {
  // A cue with tags or references is written as runs (its glossary terms are in the notes); a plain cue,
  // like any other text, has its terms marked.
  if (unit.kind === "subtitle" && /[<&]/.test(unit.source)) return runsXml(cueRuns(unit.source), version, data);
  let out = "";
  let last = 0;
  unit.terms.forEach((span, i) => {
    out += escapeText(unit.source.slice(last, span.start));
    const term = escapeText(unit.source.slice(span.start, span.end));
    const fixed = span.output !== span.term;
    if (version === "2.0") {
      out += fixed
        ? `<mrk id="m${i + 1}" type="comment" value="${escapeAttr(glossaryComment(span, t))}">${term}</mrk>`
        : `<mrk id="m${i + 1}" translate="no">${term}</mrk>`;
    } else {
      out += fixed ? `<mrk mtype="term" comment="${escapeAttr(glossaryComment(span, t))}">${term}</mrk>` : `<mrk mtype="protected">${term}</mrk>`;
    }
    last = span.end;
  });
  return out + escapeText(unit.source.slice(last));
}

/** The target as XLIFF content, its cue tags numbered as the source's same tags. */
function targetXml(unit: ExportUnit, target: string, version: XliffVersion, data: CodeData): string {
  if (unit.kind !== "subtitle") return escapeText(target);
  return runsXml(matchCodes(cueRuns(unit.source), cueRuns(target)), version, data);
}

const glossaryComment = (span: TermSpan, t: NoteWords) => t("xliff.file.fixed", { term: span.term, output: span.output });

/** The notes of a unit: article, element kind, cue time codes, glossary, state. */
function unitNotes(article: ExportArticle, unit: ExportUnit, t: NoteWords): { category: string; text: string }[] {
  const notes = [
    { category: "article", text: article.name },
    { category: "kind", text: t(`xliff.file.kind.${unit.kind}`) },
  ];
  if (unit.cue) notes.push({ category: "cue", text: `${unit.cue.start} --> ${unit.cue.end} (${unit.cue.file})` });
  const seen = new Set<string>();
  for (const span of unit.terms) {
    if (seen.has(span.term)) continue;
    seen.add(span.term);
    notes.push({ category: "glossary", text: span.output === span.term ? t("xliff.file.never", { term: span.term }) : glossaryComment(span, t) });
  }
  notes.push({ category: "state", text: t(`xliff.file.state.${unit.state}`) });
  if (unit.state === "stale" && unit.previousSource !== undefined) {
    notes.push({ category: "stale", text: t("xliff.file.stale", { source: unit.previousSource }) });
  }
  return notes;
}

const STATE_20: Record<UnitState, string> = { new: "initial", machine: "translated", reviewed: "reviewed", stale: "initial" };
const STATE_12: Record<UnitState, { state: string; qualifier?: string }> = {
  new: { state: "new" },
  machine: { state: "needs-review-translation", qualifier: "mt-suggestion" },
  reviewed: { state: "signed-off" },
  stale: { state: "needs-review-translation", qualifier: "fuzzy-match" },
};

export function buildXliff(doc: ExportDocument, version: XliffVersion, t: NoteWords): string {
  return version === "2.0" ? build20(doc, t) : build12(doc, t);
}

function build20(doc: ExportDocument, t: NoteWords): string {
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="${escapeAttr(doc.srcLang)}" trgLang="${escapeAttr(doc.trgLang)}">`,
  ];
  for (const article of doc.articles) {
    lines.push(` <file id="a${article.id}" original="article/${article.id}">`);
    lines.push(`  <notes><note category="article">${escapeText(article.name)}</note></notes>`);
    for (const unit of article.units) {
      lines.push(`  <unit id="${unit.id}" name="${unit.hash}">`);
      lines.push(`   <notes>`);
      for (const note of unitNotes(article, unit, t)) lines.push(`    <note category="${note.category}">${escapeText(note.text)}</note>`);
      lines.push(`   </notes>`);
      const data: CodeData = new Map();
      const source = markedSource(unit, "2.0", t, data);
      const target = unit.target !== null ? targetXml(unit, unit.target, "2.0", data) : null;
      if (data.size > 0) {
        lines.push(`   <originalData>`);
        for (const [id, markup] of data) lines.push(`    <data id="d${id}">${escapeText(markup)}</data>`);
        lines.push(`   </originalData>`);
      }
      lines.push(`   <segment state="${STATE_20[unit.state]}" subState="muselingo:${unit.state}">`);
      lines.push(`    <source>${source}</source>`);
      if (target !== null) lines.push(`    <target>${target}</target>`);
      lines.push(`   </segment>`);
      lines.push(`  </unit>`);
    }
    lines.push(` </file>`);
  }
  lines.push(`</xliff>`, "");
  return lines.join("\n");
}

function build12(doc: ExportDocument, t: NoteWords): string {
  const lines = [`<?xml version="1.0" encoding="UTF-8"?>`, `<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">`];
  for (const article of doc.articles) {
    lines.push(
      ` <file original="article/${article.id}" source-language="${escapeAttr(doc.srcLang)}" target-language="${escapeAttr(doc.trgLang)}" datatype="plaintext" product-name="Muselingo">`,
    );
    lines.push(`  <header><note from="muselingo">${escapeText(article.name)}</note></header>`);
    lines.push(`  <body>`);
    for (const unit of article.units) {
      const approved = unit.state === "reviewed" ? ` approved="yes"` : "";
      lines.push(`   <trans-unit id="${unit.id}" resname="${unit.hash}" xml:space="preserve"${approved}>`);
      const data: CodeData = new Map();
      lines.push(`    <source>${markedSource(unit, "1.2", t, data)}</source>`);
      if (unit.target !== null) {
        const { state, qualifier } = STATE_12[unit.state];
        lines.push(`    <target state="${state}"${qualifier ? ` state-qualifier="${qualifier}"` : ""}>${targetXml(unit, unit.target, "1.2", data)}</target>`);
      }
      for (const note of unitNotes(article, unit, t)) {
        lines.push(`    <note from="muselingo" annotates="general">${escapeText(`${t(`xliff.file.category.${note.category}`)}: ${note.text}`)}</note>`);
      }
      lines.push(`   </trans-unit>`);
    }
    lines.push(`  </body>`);
    lines.push(` </file>`);
  }
  lines.push(`</xliff>`, "");
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------------
// Reading

/** A unit as read from a translator's file. */
export interface ParsedUnit {
  id: string;
  /** The source hash the export wrote (`name` in 2.0, `resname` in 1.2), when a tool kept it. */
  hash: string | null;
  /** The source as text, each inline code as the markup it stands for (its label when the file lost it). */
  source: string;
  /** The target as a person reads it (codes as their labels); null when there is none or only whitespace. */
  target: string | null;
  sourceRuns: Inline[];
  /** The target's text and inline codes, in place; null with `target`. */
  targetRuns: Inline[] | null;
  /** The translator signed the unit off: 2.0 state reviewed/final, 1.2 signed-off/final or approved="yes". */
  signedOff: boolean;
  srcLang: string | null;
  trgLang: string | null;
}

export interface ParsedFile {
  version: XliffVersion;
  srcLang: string | null;
  trgLang: string | null;
  units: ParsedUnit[];
}

type Node = Record<string, unknown> & { ":@"?: Record<string, string> };

export const brokenFile = (detail: string) => new DomainError("invalid_input", `The file is not a readable XLIFF file: ${detail}`, "file", "invalid");

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Entities are decoded here (`decodeEntities`), the five of XML and character references only.
  processEntities: false,
  htmlEntities: false,
  cdataPropName: "#cdata",
  commentPropName: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: XLIFF_LIMITS.maxDepth,
});

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** The XML entities and character references of a text; any other entity is an error (no DTD is read). */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&([^;&\s]{0,40});?/g, (whole, name: string) => {
    if (!whole.endsWith(";")) throw brokenFile("a bare & in text");
    if (name in NAMED) return NAMED[name]!;
    const numeric = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(name);
    if (numeric) {
      const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : Number(numeric[2]);
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw brokenFile(`the character reference ${whole} is not a character`);
      return String.fromCodePoint(code);
    }
    throw brokenFile(`the entity ${whole.slice(0, 40)} is not defined (no DTD is read)`);
  });
}

const localName = (tag: string) => tag.slice(tag.indexOf(":") + 1);

function tagOf(node: Node): string | null {
  for (const key of Object.keys(node)) if (key !== ":@") return key;
  return null;
}

function childrenOf(node: Node): Node[] {
  const tag = tagOf(node);
  const value = tag === null ? undefined : node[tag];
  return Array.isArray(value) ? (value as Node[]) : [];
}

function attr(node: Node, name: string): string | null {
  const attrs = node[":@"];
  if (!attrs) return null;
  for (const [key, value] of Object.entries(attrs)) if (localName(key) === name || key === name) return decodeEntities(value);
  return null;
}

/** The text of nodes: their text, CDATA and `<cp/>` characters, every element's included (a code's own markup). */
function textOf(nodes: Node[]): string {
  let out = "";
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === null) continue;
    if (tag === "#text") out += decodeEntities(String(node[tag]));
    else if (tag === "#cdata") out += cdataText(node);
    else if (localName(tag) === "cp") out += cpChar(node);
    else out += textOf(childrenOf(node));
  }
  return out;
}

function cdataText(node: Node): string {
  let out = "";
  for (const inner of childrenOf(node)) if (tagOf(inner) === "#text") out += String(inner["#text"]);
  return out;
}

function cpChar(node: Node): string {
  const hex = attr(node, "hex");
  const code = hex && /^[0-9a-fA-F]{1,6}$/.test(hex) ? parseInt(hex, 16) : NaN;
  return Number.isFinite(code) && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "";
}

// The inline codes of both versions: what each element is, and the attribute naming its original data (2.0).
const STANDALONE = new Set(["x", "ph"]);
const OPENING = new Set(["bx", "bpt", "sc"]);
const CLOSING = new Set(["ex", "ept", "ec"]);
// Elements that are not content: markers of an annotation's ends, notes, sub-flows read with their code.
const SKIPPED = new Set(["sm", "em", "note", "sub"]);

/**
 * A source or target as runs of text and inline codes (`inline.ts`), codes kept in place: 1.2 `<x/>`,
 * `<ph>`, `<bx/>`/`<ex/>`, `<bpt>`/`<ept>`, `<it>`, `<g>`; 2.0 `<ph/>`, `<sc/>`/`<ec/>`, `<pc>`, with the
 * markup they stand for when the file carries it (a 1.2 code's content, a 2.0 code's original data).
 * Annotations (`<mrk>`) keep their text; `<cp hex/>` is its character; CDATA is text.
 */
export function runsOf(nodes: Node[], data: ReadonlyMap<string, string> = new Map()): Inline[] {
  const out: Inline[] = [];
  const text = (value: string) => {
    if (value === "") return;
    const last = out[out.length - 1];
    if (last && !("code" in last)) last.text += value;
    else out.push({ text: value });
  };
  const code = (node: Node, name: string, kind: "ph" | "open" | "close", ref: string | null) => {
    const id = attr(node, "id") ?? attr(node, "rid") ?? attr(node, "startRef") ?? "";
    const inner = ["ph", "bpt", "ept", "it"].includes(name) ? textOf(childrenOf(node)) : "";
    const markup = ref !== null ? (data.get(ref) ?? null) : inner !== "" ? inner : null;
    const hint = attr(node, "equiv-text") ?? attr(node, "disp") ?? attr(node, "equiv");
    const element =
      kind === "close" && (name === "g" || name === "pc")
        ? `</${name}>`
        : `<${name}${id ? ` id="${id}"` : ""}${kind === "open" && (name === "g" || name === "pc") ? "" : "/"}>`;
    out.push({ code: kind, id, data: markup, label: markup ?? hint ?? element });
  };
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === null) continue;
    if (tag === "#text") {
      text(decodeEntities(String(node[tag])));
      continue;
    }
    if (tag === "#cdata") {
      text(cdataText(node));
      continue;
    }
    const name = localName(tag);
    if (name === "cp") text(cpChar(node));
    else if (SKIPPED.has(name)) continue;
    else if (STANDALONE.has(name)) code(node, name, "ph", attr(node, "dataRef"));
    else if (OPENING.has(name)) code(node, name, "open", attr(node, "dataRef"));
    else if (CLOSING.has(name)) code(node, name, "close", attr(node, "dataRef"));
    else if (name === "it") code(node, name, attr(node, "pos") === "close" ? "close" : "open", attr(node, "dataRef"));
    else if (name === "g" || name === "pc") {
      code(node, name, "open", attr(node, "dataRefStart"));
      for (const run of runsOf(childrenOf(node), data)) {
        if ("code" in run) out.push(run);
        else text(run.text);
      }
      code(node, name, "close", attr(node, "dataRefEnd"));
    } else {
      for (const run of runsOf(childrenOf(node), data)) {
        if ("code" in run) out.push(run);
        else text(run.text);
      }
    }
  }
  return out;
}

/** The plain text of a source or target: its text and each code's markup (or label). */
export const plainText = (nodes: Node[], data?: ReadonlyMap<string, string>) => runsText(runsOf(nodes, data));

function findChild(node: Node, name: string): Node | undefined {
  return childrenOf(node).find((child) => {
    const tag = tagOf(child);
    return tag !== null && !tag.startsWith("#") && localName(tag) === name;
  });
}

function elementChildren(node: Node): Node[] {
  return childrenOf(node).filter((child) => {
    const tag = tagOf(child);
    return tag !== null && !tag.startsWith("#");
  });
}

const nameOf = (node: Node) => localName(tagOf(node) ?? "");

const textOrNull = (text: string) => (text.trim() === "" ? null : text);

/** Reads a translator's XLIFF (2.0 or 1.2). Throws 400 naming `file` for anything that is not one. */
export function parseXliff(input: string): ParsedFile {
  const text = checkXmlSafety(input);
  // The parser forgives unclosed and mismatched tags; a file that is not well-formed is refused instead.
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw brokenFile(`${valid.err.msg.slice(0, 160)} (line ${valid.err.line})`);
  let tree: Node[];
  try {
    tree = parser.parse(text) as Node[];
  } catch (error) {
    throw brokenFile(error instanceof Error ? error.message.slice(0, 200) : "unreadable XML");
  }
  const roots = tree.filter((node) => {
    const tag = tagOf(node);
    return tag !== null && !tag.startsWith("#");
  });
  const root = roots[0];
  if (roots.length !== 1 || !root || nameOf(root) !== "xliff") throw brokenFile("the root element is not <xliff>");
  const version = xliffVersion(root);
  const units: ParsedUnit[] = [];
  if (version.startsWith("2.")) {
    const srcLang = attr(root, "srcLang");
    const trgLang = attr(root, "trgLang");
    const walk = (node: Node) => {
      for (const child of elementChildren(node)) {
        const name = nameOf(child);
        if (name === "file" || name === "group") walk(child);
        else if (name === "unit") units.push(unit20(child, srcLang, trgLang));
        if (units.length > XLIFF_LIMITS.maxUnits) throw tooManyUnits();
      }
    };
    walk(root);
    return { version: "2.0", srcLang, trgLang, units };
  }
  if (version.startsWith("1.")) {
    let first: { srcLang: string | null; trgLang: string | null } | null = null;
    for (const file of elementChildren(root).filter((n) => nameOf(n) === "file")) {
      const srcLang = attr(file, "source-language");
      const trgLang = attr(file, "target-language");
      first ??= { srcLang, trgLang };
      const walk = (node: Node) => {
        for (const child of elementChildren(node)) {
          const name = nameOf(child);
          if (name === "body" || name === "group") walk(child);
          else if (name === "trans-unit") units.push(unit12(child, srcLang, trgLang));
          if (units.length > XLIFF_LIMITS.maxUnits) throw tooManyUnits();
        }
      };
      const body = findChild(file, "body");
      if (body) walk(body);
    }
    return { version: "1.2", srcLang: first?.srcLang ?? null, trgLang: first?.trgLang ?? null, units };
  }
  throw brokenFile(`the XLIFF version "${version.slice(0, 20)}" is neither 2.x nor 1.x`);
}

/**
 * The file's XLIFF version: its `version` attribute; else (XLIFF 1.0 and 1.1 tools may leave it out) the
 * version its namespace names, or what its elements are (1.x `<file source-language>`, 2.x `srcLang`).
 * A file that says none of these is refused with what is missing.
 */
function xliffVersion(root: Node): string {
  const declared = attr(root, "version");
  if (declared !== null) return declared.trim();
  const attrs = root[":@"] ?? {};
  for (const [key, value] of Object.entries(attrs)) {
    if (key !== "xmlns" && !key.startsWith("xmlns:")) continue;
    const named = /^urn:oasis:names:tc:xliff:document:([12]\.\d)$/.exec(value.trim());
    if (named) return named[1]!;
  }
  if (attr(root, "srcLang") !== null) return "2.0";
  if (elementChildren(root).some((n) => nameOf(n) === "file" && attr(n, "source-language") !== null)) return "1.2";
  throw brokenFile('the <xliff> element has no version attribute (version="1.2" or "2.0"), and neither its namespace nor its content says which');
}

const tooManyUnits = () => new DomainError("too_large", `The file has more than ${XLIFF_LIMITS.maxUnits} units`, "file", "too_many");

/** A 2.0 unit's original data (`<originalData><data id>`), by id. */
function originalData(unit: Node): Map<string, string> {
  const out = new Map<string, string>();
  const block = findChild(unit, "originalData");
  if (!block) return out;
  for (const item of elementChildren(block)) {
    const id = attr(item, "id");
    if (nameOf(item) === "data" && id !== null) out.set(id, textOf(childrenOf(item)));
  }
  return out;
}

function unit20(unit: Node, srcLang: string | null, trgLang: string | null): ParsedUnit {
  const data = originalData(unit);
  const source: Inline[] = [];
  const target: Inline[] = [];
  let hasTarget = false;
  let signedOff = true;
  let segments = 0;
  // A tool may split a unit in several segments (and ignorables between them): they are joined again.
  for (const part of elementChildren(unit)) {
    const name = nameOf(part);
    if (name !== "segment" && name !== "ignorable") continue;
    const s = findChild(part, "source");
    const t = findChild(part, "target");
    if (s) source.push(...runsOf(childrenOf(s), data));
    if (t) {
      hasTarget = true;
      target.push(...runsOf(childrenOf(t), data));
    } else if (name === "ignorable" && s) {
      target.push(...runsOf(childrenOf(s), data));
    }
    if (name === "segment") {
      segments++;
      const state = attr(part, "state");
      if (state !== "reviewed" && state !== "final") signedOff = false;
    }
  }
  const shown = hasTarget ? textOrNull(runsLabel(target)) : null;
  return {
    id: attr(unit, "id") ?? "",
    hash: attr(unit, "name"),
    source: runsText(source),
    target: shown,
    sourceRuns: source,
    targetRuns: shown === null ? null : target,
    signedOff: segments > 0 && signedOff,
    srcLang,
    trgLang,
  };
}

function unit12(unit: Node, srcLang: string | null, trgLang: string | null): ParsedUnit {
  const s = findChild(unit, "source");
  // Only the unit's own target: `<alt-trans>` targets are suggestions, never read.
  const t = findChild(unit, "target");
  const state = t ? attr(t, "state") : null;
  const source = s ? runsOf(childrenOf(s)) : [];
  const target = t ? runsOf(childrenOf(t)) : null;
  const shown = target ? textOrNull(runsLabel(target)) : null;
  return {
    id: attr(unit, "id") ?? "",
    hash: attr(unit, "resname"),
    source: runsText(source),
    target: shown,
    sourceRuns: source,
    targetRuns: shown === null ? null : target,
    signedOff: attr(unit, "approved") === "yes" || state === "signed-off" || state === "final",
    srcLang,
    trgLang,
  };
}
