import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isDomainError } from "~/errors";
import { glossaryFor } from "~/translation/glossary";
import { termSpans } from "~/translation/glossary";
import { buildXliff, decodeEntities, parseUnitId, parseXliff, unitId, type ExportDocument, type ExportUnit, type XliffVersion } from "~/xliff/format";
import { cleanTarget } from "~/xliff/characters";
import { cueRuns, resolveTarget } from "~/xliff/inline";
import { checkXmlSafety, decodeXliffBytes, XLIFF_LIMITS } from "~/xliff/safety";
import { exportFilename, noteWords } from "~/xliff/export.server";

const en = noteWords("en");

const fixture = (name: string) => readFileSync(join(__dirname, "../fixtures/xliff", name));
const text = (name: string) => decodeXliffBytes(new Uint8Array(fixture(name)));

/** The refusal a call throws: its status, field and reason. */
function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (isDomainError(error)) return { status: error.status, field: error.field, reason: error.reason, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

const H = (c: string) => c.repeat(64);
const rules = glossaryFor(
  [
    { term: "Musée d'Orsay", lang: null, translation: null },
    { term: "Salle", lang: "en", translation: "Room" },
  ],
  "en",
);

function unit(id: string, source: string, target: string | null, state: ExportUnit["state"], extra: Partial<ExportUnit> = {}): ExportUnit {
  return { id, source, hash: H("a"), target, state, kind: "text", terms: termSpans(source, rules), ...extra };
}

const doc: ExportDocument = {
  srcLang: "fr",
  trgLang: "en",
  articles: [
    {
      id: 12,
      name: "Salle <1> & « Joconde »",
      units: [
        unit("a12.e1.content.0", "Le Musée d'Orsay & la Salle 3 <b>", "The Musée d'Orsay & Room 3 <b>", "reviewed"),
        unit("a12.e1.content.1", "Emoji 🏛️, RTL עברית, combining é, tab\tend", "Emoji 🏛️, RTL עברית, é", "machine"),
        unit("a12.e2.content.0", "Pas encore traduit", null, "new"),
        unit("a12.e3.vtt.c0.0.0", "Bonjour", "Hello old", "stale", {
          kind: "subtitle",
          previousSource: "Salut",
          cue: { start: "00:00:01.000", end: "00:00:02.500", file: "/media/12/v.vtt" },
        }),
      ],
    },
  ],
};

describe("XLIFF build and parse", () => {
  for (const version of ["2.0", "1.2"] as XliffVersion[]) {
    it(`round-trips ${version}: ids, hashes, sources and targets come back exactly`, () => {
      const xml = buildXliff(doc, version, en);
      const parsed = parseXliff(xml);
      expect(parsed.version).toBe(version);
      expect(parsed.srcLang).toBe("fr");
      expect(parsed.trgLang).toBe("en");
      expect(parsed.units.map((u) => u.id)).toEqual(doc.articles[0]!.units.map((u) => u.id));
      expect(parsed.units.map((u) => u.hash)).toEqual(doc.articles[0]!.units.map(() => H("a")));
      expect(parsed.units.map((u) => u.source)).toEqual(doc.articles[0]!.units.map((u) => u.source));
      expect(parsed.units.map((u) => u.target)).toEqual(doc.articles[0]!.units.map((u) => u.target));
      // Only the reviewed unit is signed off.
      expect(parsed.units.map((u) => u.signedOff)).toEqual([true, false, false, false]);
    });
  }

  it("marks protected terms and fixed translations (2.0 translate=no / comment, 1.2 protected / term)", () => {
    const v2 = buildXliff(doc, "2.0", en);
    expect(v2).toContain(`<mrk id="m1" translate="no">Musée d'Orsay</mrk>`);
    expect(v2).toContain(`<mrk id="m2" type="comment" value="Glossary: translate &quot;Salle&quot; as &quot;Room&quot;">Salle</mrk>`);
    expect(v2).toContain(`<segment state="translated" subState="muselingo:machine">`);
    expect(v2).toContain(`<segment state="initial" subState="muselingo:stale">`);
    expect(v2).toContain(`<note category="cue">00:00:01.000 --&gt; 00:00:02.500 (/media/12/v.vtt)</note>`);
    expect(v2).toContain(`<note category="article">Salle &lt;1&gt; &amp; « Joconde »</note>`);
    const v1 = buildXliff(doc, "1.2", en);
    expect(v1).toContain(`<mrk mtype="protected">Musée d'Orsay</mrk>`);
    expect(v1).toContain(`<mrk mtype="term" comment="Glossary: translate &quot;Salle&quot; as &quot;Room&quot;">Salle</mrk>`);
    expect(v1).toContain(`<target state="needs-review-translation" state-qualifier="mt-suggestion">`);
    expect(v1).toContain(`<target state="signed-off">`);
    expect(v1).toContain(`approved="yes"`);
  });

  it("never writes characters XML cannot carry", () => {
    const xml = buildXliff(
      { ...doc, articles: [{ id: 1, name: "x\u0001y", units: [unit("a1.e0.content.0", "a\u0000b\u0008c", "d\uffffe", "machine")] }] },
      "2.0",
      en,
    );
    expect(() => parseXliff(xml)).not.toThrow();
    expect(parseXliff(xml).units[0]).toMatchObject({ source: "abc", target: "de" });
  });

  it("reads unit ids this app writes and nothing else", () => {
    expect(parseUnitId(unitId(12, "e3.content.0"))).toEqual({ articleId: 12, segmentId: "e3.content.0" });
    expect(parseUnitId("a5.e2.vtt.c4.0.0")).toEqual({ articleId: 5, segmentId: "e2.vtt.c4.0.0" });
    // A shard's ids (decision 142): shard 2 starts at 2 × 2⁴⁰, 13 digits.
    expect(parseUnitId(unitId(2 * 2 ** 40 + 7, "e1.content.0"))).toEqual({ articleId: 2_199_023_255_559, segmentId: "e1.content.0" });
    for (const bad of ["", "12.e3.content.0", "a0.e1.content.0", "a12", "a12.x1", "a99999999999999999.e1.content.0", "a9007199254740993.e1.content.0", "tu1"])
      expect(parseUnitId(bad), bad).toBeNull();
  });

  it("names files in ASCII whatever the label", () => {
    expect(exportFilename("Salle des États/../x", "fr", "en", "2.0")).toBe("Salle-des-Etats-x.fr-en.xlf");
    expect(exportFilename("北斎", "fr", "ja", "1.2")).toBe("articles.fr-ja.xliff12.xlf");
  });
});

describe("files written by other tools", () => {
  it("Okapi 2.0: <mrk>, <pc>, <ph/> kept in place as codes, <cp/>, entities, segments and ignorables joined, groups", () => {
    const parsed = parseXliff(text("okapi-2.0.xlf"));
    expect(parsed.units).toHaveLength(3);
    expect(parsed.units[0]).toMatchObject({
      id: "a12.e1.content.0",
      hash: "HASH_A",
      target: `The Musée d'Orsay opens at <pc id="1">9 am</pc>.<ph id="2"/>`,
      signedOff: false,
    });
    expect(parsed.units[0]!.targetRuns).toEqual([
      { text: "The Musée d'Orsay opens at " },
      { code: "open", id: "1", data: null, label: `<pc id="1">` },
      { text: "9 am" },
      { code: "close", id: "1", data: null, label: "</pc>" },
      { text: "." },
      { code: "ph", id: "2", data: null, label: `<ph id="2"/>` },
    ]);
    // A pair is formatting a text cannot hold (its text stays); a placeholder that stands for nothing here is named.
    expect(resolveTarget(parsed.units[0]!.targetRuns!.slice(0, 5), false, new Map())).toEqual({ ok: true, text: "The Musée d'Orsay opens at 9 am." });
    expect(resolveTarget(parsed.units[0]!.targetRuns!, false, new Map())).toEqual({ ok: false, code: `<ph id="2"/>` });
    expect(parsed.units[1]).toMatchObject({
      source: "Première phrase. Deuxième\u00a0phrase.",
      target: "First sentence. Second sentence & more—end.",
      signedOff: true,
    });
    expect(parsed.units[2]).toMatchObject({ id: "a12.e2.content.0", target: null, targetRuns: null });
  });

  it("Trados 1.2: BOM, CRLF, <g>, <bpt>/<ept> with their markup, <x/>, <mrk mtype=seg>, CDATA, alt-trans ignored", () => {
    const bytes = new Uint8Array(fixture("trados-1.2.sdlxliff"));
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const parsed = parseXliff(decodeXliffBytes(bytes));
    expect(parsed).toMatchObject({ version: "1.2", srcLang: "fr-FR", trgLang: "en-US" });
    expect(parsed.units[0]).toMatchObject({ id: "a12.e1.content.0", source: "Le Musée d'Orsay ouvre à 9 h.", signedOff: true });
    expect(parsed.units[0]!.targetRuns!.filter((r) => "code" in r)).toMatchObject([
      { code: "open", id: "5", data: null },
      { code: "close", id: "5", data: null },
      { code: "open", id: "1", data: "<b>" },
      { code: "close", id: "1", data: "</b>" },
      { code: "ph", id: "9", data: null, label: `<x id="9"/>` },
    ]);
    expect(resolveTarget(parsed.units[0]!.targetRuns!, false, new Map())).toEqual({ ok: false, code: `<x id="9"/>` });
    expect(parsed.units[1]).toMatchObject({ target: "First <sentence> & second one.", signedOff: false });
  });

  it("memoQ 1.2: <ph> and <it> keep the native code they hold", () => {
    const [unit] = parseXliff(text("memoq-1.2.xlf")).units;
    expect(unit!.target).toBe("The {1}Musée d'Orsay{/1} opens at <i>9 am.");
    expect(unit!.targetRuns!.filter((r) => "code" in r)).toMatchObject([
      { code: "ph", data: "{1}" },
      { code: "ph", data: "{/1}" },
      { code: "open", data: "<i>" },
    ]);
  });

  it("Weblate 1.2: approved, numeric references, astral characters, empty target", () => {
    const [first, second] = parseXliff(text("weblate-1.2.xlf")).units;
    expect(first).toMatchObject({ target: "The Musée d'Orsay opens at 9\u00a0am 🏛️.", signedOff: true });
    expect(second!.target).toBeNull();
  });

  it("UTF-16 with a byte order mark reads like UTF-8", () => {
    const source = buildXliff(doc, "2.0", en);
    const le = new Uint8Array(2 + source.length * 2);
    le.set([0xff, 0xfe]);
    for (let i = 0; i < source.length; i++) {
      le[2 + i * 2] = source.charCodeAt(i) & 0xff;
      le[3 + i * 2] = source.charCodeAt(i) >> 8;
    }
    expect(parseXliff(decodeXliffBytes(le)).units).toHaveLength(4);
  });
});

describe("hostile and broken files", () => {
  it("billion laughs: refused before parsing, nothing expanded", () => {
    const start = Date.now();
    expect(refusal(() => parseXliff(text("billion-laughs.xlf")))).toMatchObject({ status: 400, field: "file" });
    expect(Date.now() - start).toBeLessThan(500);
  });

  it("external entity: refused, nothing read", () => {
    const r = refusal(() => parseXliff(text("external-entity.xlf")));
    expect(r).toMatchObject({ status: 400, field: "file" });
    expect(r.message).not.toContain("root:");
  });

  it("an entity no DTD declares is an error, not text", () => {
    expect(refusal(() => parseXliff(text("undeclared-entity.xlf")))).toMatchObject({ status: 400, field: "file" });
    expect(() => decodeEntities("a & b")).toThrow();
    expect(() => decodeEntities("&#0;")).toThrow();
    expect(() => decodeEntities("&#xD800;")).toThrow();
    expect(decodeEntities("&lt;&#65;&#x1F600;&amp;lt;")).toBe("<A😀&lt;");
  });

  it("deep nesting: refused with the depth bound", () => {
    const deep = `<xliff version="2.0" srcLang="fr" trgLang="en"><file id="f"><unit id="a1.e0.content.0"><segment><source>x</source><target>${"<pc id='1'>".repeat(5000)}x${"</pc>".repeat(5000)}</target></segment></unit></file></xliff>`;
    expect(refusal(() => parseXliff(deep))).toMatchObject({ status: 400, field: "file" });
  });

  it("too many tags: 413 before parsing", () => {
    const many = `<xliff version="2.0">${"<x/>".repeat(XLIFF_LIMITS.maxElements + 1)}</xliff>`;
    expect(refusal(() => checkXmlSafety(many))).toMatchObject({ status: 413, field: "file", reason: "too_many" });
  });

  it("too large: 413 without decoding", () => {
    expect(refusal(() => decodeXliffBytes(new Uint8Array(XLIFF_LIMITS.maxBytes + 1)))).toMatchObject({ status: 413, field: "file" });
  });

  it.each([
    ["not XML", "hello"],
    ["unclosed", `<xliff version="2.0"><file>`],
    ["mismatched", `<xliff version="2.0"><file></unit></xliff>`],
    ["two roots", `<xliff version="2.0"></xliff><xliff version="2.0"></xliff>`],
    ["another root", `<html></html>`],
    ["no version", `<xliff></xliff>`],
    ["version 3", `<xliff version="3.0"></xliff>`],
    [
      "bare ampersand",
      `<xliff version="2.0" srcLang="fr" trgLang="en"><file id="f"><unit id="u"><segment><source>a & b</source></segment></unit></file></xliff>`,
    ],
    ["empty", ""],
  ])("%s → 400 naming the file", (_name, xml) => {
    expect(refusal(() => parseXliff(xml))).toMatchObject({ status: 400, field: "file" });
  });

  it("bytes that are not UTF-8 → 400", () => {
    expect(refusal(() => decodeXliffBytes(new Uint8Array([0x3c, 0xff, 0xfe, 0xfd, 0x3e, 0xc3])))).toMatchObject({ status: 400, field: "file" });
  });
});

describe("what real tools write (issue 29 §4)", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it("a <!DOCTYPE inside a comment is no declaration; one after the comment still is", () => {
    const body = `<xliff version="1.2"><file source-language="fr" target-language="en"><body><trans-unit id="a1.e0.content.0"><source>x</source><target>y</target></trans-unit></body></file></xliff>`;
    expect(parseXliff(`<?xml version="1.0"?>\n<!--\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN">\n-->\n${body}`).units).toHaveLength(1);
    expect(refusal(() => parseXliff(`<!-- c --><!DOCTYPE x [<!ENTITY a "b">]>${body}`))).toMatchObject({ status: 400, field: "file" });
    // A quote left open does not hide a declaration after it.
    expect(refusal(() => checkXmlSafety(`<a b="x><!DOCTYPE y [<!ENTITY c "d">]><a/>`))).toMatchObject({ status: 400, field: "file" });
    expect(refusal(() => checkXmlSafety(`<a><![CDATA[ x ]]><!ENTITY e "f"></a>`))).toMatchObject({ status: 400 });
  });

  it("ISO-8859-1 and windows-1252 are read by their declaration; another encoding is refused by name", () => {
    const latin = new Uint8Array([...bytes(`<?xml version="1.0" encoding="ISO-8859-1"?><x>`), 0xe9, 0x80, ...bytes(`</x>`)]);
    expect(decodeXliffBytes(latin)).toContain("<x>é€</x>");
    expect(refusal(() => decodeXliffBytes(bytes(`<?xml version="1.0" encoding="Shift_JIS"?><x/>`))).message).toContain("SHIFT_JIS");
    expect(refusal(() => decodeXliffBytes(new Uint8Array([...bytes(`<?xml version="1.0" encoding="US-ASCII"?>`), 0xe9])))).toMatchObject({ status: 400 });
    // UTF-16 without a byte order mark, by its first character.
    const le = new Uint8Array([...bytes(`<?xml?>`)].flatMap((b) => [b, 0]));
    expect(decodeXliffBytes(le)).toBe(`<?xml?>`);
  });

  it("XLIFF without a version attribute: read by its namespace or content, else the message names what is missing", () => {
    const unit = `<trans-unit id="a1.e0.content.0"><source>x</source><target>y</target></trans-unit>`;
    expect(
      parseXliff(`<xliff xmlns="urn:oasis:names:tc:xliff:document:1.1"><file source-language="fr" target-language="en"><body>${unit}</body></file></xliff>`)
        .version,
    ).toBe("1.2");
    expect(parseXliff(`<xliff><file source-language="fr" target-language="en"><body>${unit}</body></file></xliff>`).units).toHaveLength(1);
    expect(parseXliff(`<xliff srcLang="fr" trgLang="en"><file id="f"><unit id="u"><segment><source>x</source></segment></unit></file></xliff>`).version).toBe(
      "2.0",
    );
    expect(refusal(() => parseXliff(`<xliff><file><body>${unit}</body></file></xliff>`)).message).toContain("no version attribute");
  });
});

describe("inline codes and cue tags travel as codes (issue 29 §4)", () => {
  const cue = "<v Marie>Bonjour <i>à tous</i> &amp; merci";
  const subtitle = unit("a12.e3.vtt.c1.0.0", cue, "<v Marie>Hallo <i>zusammen</i> &amp; danke", "machine", { kind: "subtitle", terms: [] });
  const one: ExportDocument = { srcLang: "fr", trgLang: "de", articles: [{ id: 12, name: "Vidéo", units: [subtitle] }] };

  for (const version of ["2.0", "1.2"] as XliffVersion[]) {
    it(`${version}: a cue's tags are placeholders holding the tag, and come back in place`, () => {
      const xml = buildXliff(one, version, en);
      expect(xml).not.toContain("&lt;i&gt;à tous");
      if (version === "2.0") {
        expect(xml).toContain(
          `<source><ph id="1" dataRef="d1" disp="&lt;v Marie&gt;"/>Bonjour <ph id="2" dataRef="d2" disp="&lt;i&gt;"/>à tous<ph id="3" dataRef="d3" disp="&lt;/i&gt;"/> &amp; merci</source>`,
        );
        expect(xml).toContain(`<data id="d1">&lt;v Marie&gt;</data>`);
      } else {
        expect(xml).toContain(`<source><ph id="1" ctype="x-vtt-tag">&lt;v Marie&gt;</ph>Bonjour <ph id="2" ctype="x-vtt-tag">&lt;i&gt;</ph>à tous`);
      }
      const [parsed] = parseXliff(xml).units;
      expect(parsed!.source).toBe("<v Marie>Bonjour <i>à tous</i> & merci");
      expect(resolveTarget(parsed!.targetRuns!, true, new Map())).toEqual({ ok: true, text: "<v Marie>Hallo <i>zusammen</i> &amp; danke" });
      // The translator moves the codes and writes a "<" of their own: tags where they put them, the "<" as text.
      const moved = xml.replace(/<target([^>]*)>([\s\S]*?)<\/target>/, (_, attrs: string, inner: string) => {
        const codes = inner.match(/<ph [^>]*?(?:\/>|>[^<]*<\/ph>)/g)!;
        return `<target${attrs}>${codes[0]}Danke ${codes[1]}euch allen${codes[2]} &lt;3</target>`;
      });
      expect(resolveTarget(parseXliff(moved).units[0]!.targetRuns!, true, new Map())).toEqual({ ok: true, text: "<v Marie>Danke <i>euch allen</i> &lt;3" });
    });
  }

  it("a tool that kept only the codes' ids gets the source's tags back by id", () => {
    const xml = `<xliff version="1.2"><file source-language="fr" target-language="de"><body><trans-unit id="a12.e3.vtt.c1.0.0"><source>x</source><target><x id="1"/>Hallo <x id="2"/>zusammen<x id="3"/></target></trans-unit></body></file></xliff>`;
    const runs = parseXliff(xml).units[0]!.targetRuns!;
    const tags = new Map(cueRuns(cue).flatMap((r) => ("code" in r ? [[r.id, r.data!] as const] : [])));
    expect(resolveTarget(runs, true, tags)).toEqual({ ok: true, text: "<v Marie>Hallo <i>zusammen</i>" });
  });

  it("Angular's <x/> placeholders stay in place, never dropped: the unit is refused naming the code", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" datatype="plaintext" original="ng2.template" target-language="de">
    <body>
      <trans-unit id="slideOf" datatype="html">
        <source>Slide <x id="INTERPOLATION" equiv-text="{{ current }}"/> of <x id="INTERPOLATION_1" equiv-text="{{ total }}"/></source>
        <target state="translated">Folie <x id="INTERPOLATION" equiv-text="{{ current }}"/> von <x id="INTERPOLATION_1" equiv-text="{{ total }}"/></target>
      </trans-unit>
    </body>
  </file>
</xliff>`;
    const [u] = parseXliff(xml).units;
    expect(u!.target).toBe("Folie {{ current }} von {{ total }}");
    expect(u!.targetRuns).toEqual([
      { text: "Folie " },
      { code: "ph", id: "INTERPOLATION", data: null, label: "{{ current }}" },
      { text: " von " },
      { code: "ph", id: "INTERPOLATION_1", data: null, label: "{{ total }}" },
    ]);
    expect(resolveTarget(u!.targetRuns!, false, new Map())).toEqual({ ok: false, code: "{{ current }}" });
  });

  it("tabs and carriage returns are the spaces the tool meant; other forbidden characters are named with their place", () => {
    expect(cleanTarget("Eine\tattische&#xD;Amphore".replace("&#xD;", "\r"))).toEqual({ ok: true, text: "Eine attische Amphore" });
    expect(cleanTarget("Zeile\u2028zwei\u0085drei")).toEqual({ ok: true, text: "Zeile zwei drei" });
    expect(cleanTarget("Umgedreht \u202Etxet")).toEqual({ ok: false, detail: "forbidden_character", character: "U+202E RIGHT-TO-LEFT OVERRIDE", position: 11 });
    expect(cleanTarget("ab\u0001")).toMatchObject({ character: "U+0001 control character", position: 3 });
    expect(cleanTarget("🏛️\ud800")).toMatchObject({ character: "U+D800 lone surrogate", position: 3 });
    expect(cleanTarget("x".repeat(20_001))).toEqual({ ok: false, detail: "too_long", max: 20_000 });
    // Long runs of spaces and breaks, and the place of a character far in (their time is measured by
    // `npm run bench`: tests/bench/pure-timings.test.ts).
    expect(cleanTarget(`a${" ".repeat(200_000)}\t${" ".repeat(200_000)}b`)).toEqual({ ok: true, text: "a b" });
    expect(cleanTarget(`${"é".repeat(19_000)}\u202E`)).toMatchObject({ position: 19_001 });
  });

  it("notes are in the museum's language: French for a French museum, English otherwise", () => {
    const stale = unit("a12.e1.content.0", "Le Musée d'Orsay", "Das alte", "stale", { previousSource: "L'ancien" });
    const fr = buildXliff({ srcLang: "fr", trgLang: "de", articles: [{ id: 12, name: "Salle", units: [stale] }] }, "2.0", noteWords("fr"));
    expect(fr).toContain(`<note category="stale">La source a changé depuis la relecture de cette traduction. Elle était : L'ancien</note>`);
    expect(fr).toContain(`<note category="glossary">Ne jamais traduire « Musée d'Orsay »</note>`);
    expect(fr).toContain(`<note category="kind">texte</note>`);
    const v1 = buildXliff({ srcLang: "fr", trgLang: "de", articles: [{ id: 12, name: "Salle", units: [stale] }] }, "1.2", noteWords("fr"));
    expect(v1).toContain(`<note from="muselingo" annotates="general">état : à relire : la source a changé</note>`.replace("état : ", "état: "));
    expect(buildXliff({ srcLang: "de", trgLang: "fr", articles: [{ id: 12, name: "Saal", units: [stale] }] }, "2.0", noteWords("de"))).toContain(
      "The source changed since this translation was reviewed. It was: L'ancien",
    );
  });
});
