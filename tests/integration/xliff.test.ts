import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auditEntries, BASE, get, memberSession, publishArticle, staffSession, type StaffSession, texts } from "./helpers";

// XLIFF for translators (issue 19 §3, decisions 058-060): export, import back with its per-unit report,
// what visitors see, hostile files, roles and tenancy, concurrent imports.

type UnitReport = {
  id: string;
  status: string;
  reason?: string;
  term?: string;
  articleId?: number;
  target?: string;
  detail?: string;
  character?: string;
  position?: number;
  code?: string;
};
type Report = {
  dryRun: boolean;
  lang: string;
  version: string;
  counts: Record<"applied" | "applied_stale" | "unchanged" | "stale" | "untranslated" | "error", number>;
  units: UnitReport[];
};
type Segment = { id: string; source: string; text: string | null; origin: string | null; stale: boolean; previousSource?: string };

const LINES = ["Une amphore attique.", "Le Musée d'Orsay la prête.", "Vers 530 avant notre ère."];

async function exportFile(cookie: string, query: string) {
  const response = await get(`/api/read/xliff?${query}`, cookie);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function importFile(cookie: string, file: string | Uint8Array<ArrayBuffer>, fields: Record<string, string> = {}, name = "back.xlf") {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new File([file], name, { type: "application/xliff+xml" }));
  const response = await SELF.fetch(`${BASE}/api/manage/import_xliff`, { method: "POST", body: form, headers: { Cookie: cookie } });
  return { status: response.status, body: (await response.json()) as Report & { error?: { code: string; field?: string; reason?: string } } };
}

const visit = async (link: string, lang: string) => (await get(`/r/${link}?lang=${lang}`)).text();

async function review(s: StaffSession, articleId: number, lang: string) {
  const r = await s.read(`/api/read/translation?articleId=${articleId}&lang=${lang}`);
  expect(r.status).toBe(200);
  return (r.body as { segments: Segment[] }).segments;
}

/** Replaces the target of one unit (2.0 or 1.2) in an exported file. */
function setTarget(xml: string, id: string, target: string, state?: string): string {
  const start = xml.indexOf(`id="${id}"`);
  expect(start, id).toBeGreaterThan(0);
  const end = xml.indexOf(xml.includes("<trans-unit") ? "</trans-unit>" : "</unit>", start);
  let unit = xml.slice(start, end);
  unit = unit.includes("<target")
    ? unit.replace(/<target([^>]*)>[\s\S]*?<\/target>/, `<target$1>${target}</target>`)
    : unit.replace("</source>", `</source>\n<target>${target}</target>`);
  if (state) unit = unit.replace(/<segment state="[^"]*"/, `<segment state="${state}"`).replace(/<target state="[^"]*"/, `<target state="${state}"`);
  return xml.slice(0, start) + unit + xml.slice(end);
}

/** A published article whose German machine translation exists (the pseudo engine, by a visitor's view). */
async function translated(s: StaffSession, lines = LINES) {
  const published = await publishArticle(s, texts(lines));
  await visit(published.link, "de");
  return published;
}

const statuses = (report: Report) => Object.fromEntries(report.units.map((u) => [u.id, u.reason ? `${u.status}:${u.reason}` : u.status]));

describe("XLIFF export", () => {
  it("exports one article as 2.0 and 1.2: a UTF-8 download, one unit per segment with its state, notes and glossary marks", async () => {
    const s = await staffSession();
    expect((await s.call("add_glossary_term", { term: "Musée d'Orsay" })).status).toBe(200);
    const { articleId, slug } = await translated(s);
    await s.call("update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "Eine attische Amphore." });

    const v2 = await exportFile(s.cookie, `articleId=${articleId}&lang=de`);
    expect(v2.status).toBe(200);
    expect(v2.headers.get("Content-Type")).toBe("application/xliff+xml; charset=utf-8");
    expect(v2.headers.get("Content-Disposition")).toBe(`attachment; filename="${slug}.fr-de.xlf"; filename*=UTF-8''${slug}.fr-de.xlf`);
    expect(v2.text).toContain(`srcLang="fr" trgLang="de"`);
    expect(v2.text.match(/<unit /g)).toHaveLength(3);
    expect(v2.text).toMatch(/<unit id="a\d+\.e1\.content\.0" name="[0-9a-f]{64}">/);
    expect(v2.text).toContain(`<segment state="reviewed" subState="muselingo:reviewed">`);
    expect(v2.text).toContain(`<target>Eine attische Amphore.</target>`);
    expect(v2.text).toContain(`<segment state="translated" subState="muselingo:machine">`);
    expect(v2.text).toContain(`<source>Le <mrk id="m1" translate="no">Musée d'Orsay</mrk> la prête.</source>`);
    // Notes in the museum's language (French here).
    expect(v2.text).toContain(`<note category="kind">texte</note>`);
    expect(v2.text).toContain(`<note category="glossary">Ne jamais traduire « Musée d'Orsay »</note>`);

    const v1 = await exportFile(s.cookie, `articleId=${articleId}&lang=de&version=1.2`);
    expect(v1.status).toBe(200);
    expect(v1.headers.get("Content-Disposition")).toContain(`.fr-de.xliff12.xlf`);
    expect(v1.text).toContain(`version="1.2"`);
    expect(v1.text.match(/<trans-unit /g)).toHaveLength(3);
    expect(v1.text).toContain(`<mrk mtype="protected">Musée d'Orsay</mrk>`);
    expect(v1.text).toContain(`<target state="signed-off">Eine attische Amphore.</target>`);
    expect(v1.text).toContain(`state-qualifier="mt-suggestion"`);

    // A language never translated: units without targets, state initial.
    const ja = await exportFile(s.cookie, `articleId=${articleId}&lang=ja`);
    expect(ja.text).not.toContain("<target>");
    expect(ja.text.match(/subState="muselingo:new"/g)).toHaveLength(3);
  });

  it("includes subtitle cues with their time codes", async () => {
    const s = await staffSession();
    const key = `m/${s.user.museumId}/subtitles/${crypto.randomUUID()}.vtt`;
    await env.MEDIA.put(key, "WEBVTT\n\n00:00:01.000 --> 00:00:03.500\nBonjour à tous\n");
    await env.DB.prepare("INSERT INTO media (museum_id, r2_key, kind, content_type, bytes) VALUES (?, ?, 'subtitles', 'text/vtt', 50)")
      .bind(s.user.museumId, key)
      .run();
    const { articleId } = await publishArticle(s, [{ type: "video", videoId: "abc123", src: "", subtitles: `/media/${key}` }]);
    const file = await exportFile(s.cookie, `articleId=${articleId}&lang=de`);
    expect(file.text).toMatch(/<unit id="a\d+\.e1\.vtt\.c\d+\.0\.0"/);
    expect(file.text).toContain(`<note category="cue">00:00:01.000 --&gt; 00:00:03.500 (/media/${key})</note>`);
    expect(file.text).toContain(`<note category="kind">sous-titre</note>`);
    // Imported back, the cue is reviewed and the translated subtitle file shows it.
    const id = /<unit id="(a\d+\.e1\.vtt\.c\d+\.0\.0)"/.exec(file.text)![1]!;
    const back = await importFile(s.cookie, setTarget(file.text, id, "Hallo zusammen"));
    expect(back.body.counts.applied).toBe(1);
    expect(await (await get(`/vtt?src=/media/${key}&lang=de`)).text()).toContain("Hallo zusammen");
    expect((await exportFile(s.cookie, `articleId=${articleId}&lang=de`)).text).toContain('subState="muselingo:reviewed"');
  });

  it("exports a folder with everything below it, and the whole museum", async () => {
    const s = await staffSession();
    await s.call("add_folder", { pathArray: [], id: "Salle 3" });
    await s.call("add_folder", { pathArray: ["Salle 3"], id: "Vitrine" });
    const inFolder = await s.call("add_article", { pathArray: ["Salle 3", "Vitrine"] });
    const outside = await translated(s, ["Dehors."]);
    const folder = await env.DB.prepare("SELECT id FROM folders WHERE museum_id = ? AND name = 'Salle 3'").bind(s.user.museumId).first<{ id: number }>();
    const f = await exportFile(s.cookie, `folderId=${folder!.id}&lang=de`);
    expect(f.status).toBe(200);
    expect(f.headers.get("Content-Disposition")).toContain(`filename="Salle-3.fr-de.xlf"`);
    expect(f.text).toContain(`<file id="a${inFolder.body.id}"`);
    expect(f.text).not.toContain(`<file id="a${outside.articleId}"`);
    const m = await exportFile(s.cookie, `lang=de&version=1.2`);
    expect(m.headers.get("Content-Disposition")).toContain(`filename="museum.fr-de.xliff12.xlf"`);
    expect(m.text).toContain(`original="article/${inFolder.body.id}"`);
    expect(m.text).toContain(`original="article/${outside.articleId}"`);
  });

  it("refuses bad parameters with the field, and other museums' ids with 404", async () => {
    const s = await staffSession();
    const other = await staffSession();
    const { articleId } = await publishArticle(other, texts(["Ailleurs."]));
    await other.call("add_folder", { pathArray: [], id: "Secret" });
    const folder = await env.DB.prepare("SELECT id FROM folders WHERE museum_id = ?").bind(other.user.museumId).first<{ id: number }>();
    const cases: [string, number, string][] = [
      [`articleId=${articleId}&lang=de`, 404, "articleId"],
      [`folderId=${folder!.id}&lang=de`, 404, "folderId"],
      [`articleId=999999999&lang=de`, 404, "articleId"],
      [`lang=fr`, 400, "lang"],
      [`lang=xx-nope`, 400, "lang"],
      [``, 400, "lang"],
      [`lang=de&version=3.0`, 400, "version"],
      [`lang=de&articleId=abc`, 400, "articleId"],
      [`lang=de&articleId=1&folderId=1`, 400, "folderId"],
    ];
    for (const [query, status, field] of cases) {
      const r = await exportFile(s.cookie, query);
      expect(r.status, query).toBe(status);
      expect(JSON.parse(r.text).error.field, query).toBe(field);
    }
    expect((await get(`/api/read/xliff?lang=de`)).status).toBe(401);
  });
});

describe("XLIFF import", () => {
  it("round trip (2.0): changed targets become reviewed, visitors see them at once, one batch and one audit entry", async () => {
    const s = await staffSession();
    const { articleId, link } = await translated(s);
    expect(await visit(link, "de")).toContain("[de]"); // the page is cached now
    const exported = (await exportFile(s.cookie, `articleId=${articleId}&lang=de`)).text;
    const edited = setTarget(exported, `a${articleId}.e1.content.0`, 'Eine &lt;attische&gt; <pc id="1">Amphore</pc>.');

    const dry = await importFile(s.cookie, edited, { dryRun: "true" });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, lang: "de", version: "2.0", counts: { applied: 1, unchanged: 2, stale: 0, error: 0 } });
    expect((await review(s, articleId, "de"))[0]!.origin).toBe("machine");
    expect(await auditEntries(s.user.museumId, { action: "translations.import_xliff" })).toEqual([]);

    const done = await importFile(s.cookie, edited);
    expect(done.body.counts).toMatchObject({ applied: 1, unchanged: 2 });
    expect(done.body.units[0]).toMatchObject({ id: `a${articleId}.e1.content.0`, status: "applied", articleId, target: "Eine <attische> Amphore." });
    const segments = await review(s, articleId, "de");
    expect(segments[0]).toMatchObject({ text: "Eine <attische> Amphore.", origin: "edited", stale: false });
    expect(segments[1]!.origin).toBe("machine");
    expect(await visit(link, "de")).toContain("Eine &lt;attische&gt; Amphore.");
    const audit = await auditEntries(s.user.museumId, { action: "translations.import_xliff" });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ target: `article:${articleId}` });
    expect(audit[0]!.detail).toMatchObject({ lang: "de", version: "2.0", applied: 1 });

    // The same file again: nothing left to apply, no new audit entry.
    const again = await importFile(s.cookie, edited);
    expect(again.body.counts).toMatchObject({ applied: 0, unchanged: 3 });
    expect(await auditEntries(s.user.museumId, { action: "translations.import_xliff" })).toHaveLength(1);
  });

  it("round trip (1.2): a machine text signed off by the translator becomes reviewed as is", async () => {
    const s = await staffSession();
    const { articleId } = await translated(s);
    const exported = (await exportFile(s.cookie, `articleId=${articleId}&lang=de&version=1.2`)).text;
    const id = `a${articleId}.e3.content.0`;
    const machine = (await review(s, articleId, "de"))[2]!.text!;
    const signed = setTarget(exported, id, machine.replace(/&/g, "&amp;").replace(/</g, "&lt;"), "signed-off");
    const r = await importFile(s.cookie, signed);
    expect(statuses(r.body)[id]).toBe("applied");
    expect((await review(s, articleId, "de"))[2]).toMatchObject({ text: machine, origin: "edited" });
  });

  it("a source changed since the export: stale, not applied; applied as stale when asked", async () => {
    const s = await staffSession();
    const { articleId, edit } = await translated(s);
    const exported = (await exportFile(s.cookie, `articleId=${articleId}&lang=de`)).text;
    const id = `a${articleId}.e1.content.0`;
    const edited = setTarget(exported, id, "Eine alte Amphore.");
    await edit(texts(["Une amphore corinthienne.", ...LINES.slice(1)]));

    const r = await importFile(s.cookie, edited);
    expect(statuses(r.body)[id]).toBe("stale");
    expect(r.body.counts.applied).toBe(0);
    expect((await review(s, articleId, "de"))[0]).toMatchObject({ source: "Une amphore corinthienne.", stale: false });

    const forced = await importFile(s.cookie, edited, { applyStale: "true" });
    expect(statuses(forced.body)[id]).toBe("applied_stale");
    expect((await review(s, articleId, "de"))[0]).toMatchObject({ text: "Eine alte Amphore.", stale: true, previousSource: "Une amphore attique." });
  });

  it("a stale review sent back untouched stays stale; changed, or signed off in the tool, it is a review (issue 29, item 1)", async () => {
    const s = await staffSession();
    const { articleId, link, edit } = await translated(s);
    await s.call("update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "Eine attische Amphore." });
    await s.call("update_translation", { articleId, lang: "de", segmentId: "e2.content.0", text: "Das Musée d'Orsay leiht sie." });
    await edit(texts(["Une amphore corinthienne.", "Le Musée d'Orsay la prête encore.", LINES[2]!]));
    await visit(link, "de");
    expect((await review(s, articleId, "de")).slice(0, 2)).toMatchObject([
      { stale: true, text: "Eine attische Amphore." },
      { stale: true, text: "Das Musée d'Orsay leiht sie." },
    ]);
    const [e1, e2] = [`a${articleId}.e1.content.0`, `a${articleId}.e2.content.0`];
    for (const version of ["2.0", "1.2"]) {
      const exported = (await exportFile(s.cookie, `articleId=${articleId}&lang=de&version=${version}`)).text;
      const r = await importFile(s.cookie, exported);
      expect(r.status).toBe(200);
      expect(statuses(r.body)[e1]).toBe("stale:outdated_review");
      expect(exported).toContain("La source a changé depuis la relecture de cette traduction. Elle était : Une amphore attique.");
      expect(statuses(r.body)[e2]).toBe("stale:outdated_review");
      expect(r.body.counts).toMatchObject({ applied: 0, stale: 2 });
      expect((await review(s, articleId, "de"))[0]).toMatchObject({ stale: true, text: "Eine attische Amphore." });
      // Visitors keep the machine text of the new source, never the outdated German.
      expect(await visit(link, "de")).not.toContain("Eine attische Amphore.");
    }
    // The translator changes one and signs the other off as it is: both are reviews now.
    const exported = (await exportFile(s.cookie, `articleId=${articleId}&lang=de`)).text;
    const worked = setTarget(setTarget(exported, e1, "Eine korinthische Amphore."), e2, "Das Musée d&apos;Orsay leiht sie.", "final");
    const r = await importFile(s.cookie, worked);
    expect([statuses(r.body)[e1], statuses(r.body)[e2]]).toEqual(["applied", "applied"]);
    expect((await review(s, articleId, "de")).slice(0, 2)).toMatchObject([
      { stale: false, text: "Eine korinthische Amphore.", origin: "edited" },
      { stale: false, text: "Das Musée d'Orsay leiht sie.", origin: "edited" },
    ]);
    expect(await visit(link, "de")).toContain("Eine korinthische Amphore.");
  });

  it("subtitle cue tags travel as inline codes and come back in place (issue 29, item 4)", async () => {
    const s = await staffSession();
    const key = `m/${s.user.museumId}/subtitles/${crypto.randomUUID()}.vtt`;
    await env.MEDIA.put(key, "WEBVTT\n\n00:00:01.000 --> 00:00:03.500\n<v Marie>Bonjour <i>à tous</i> &amp; merci\n");
    await env.DB.prepare("INSERT INTO media (museum_id, r2_key, kind, content_type, bytes) VALUES (?, ?, 'subtitles', 'text/vtt', 70)")
      .bind(s.user.museumId, key)
      .run();
    const { articleId } = await publishArticle(s, [{ type: "video", videoId: "abc123", src: "", subtitles: `/media/${key}` }]);
    for (const version of ["2.0", "1.2"]) {
      const file = (await exportFile(s.cookie, `articleId=${articleId}&lang=de&version=${version}`)).text;
      const id = /id="(a\d+\.e1\.vtt\.c\d+\.0\.0)"/.exec(file)![1]!;
      const source = /<source>([\s\S]*?)<\/source>/.exec(file.slice(file.indexOf(id)))![1]!;
      expect(source).not.toContain("&lt;i&gt;à tous");
      const codes = source.match(/<ph [^>]*?(?:\/>|>[^<]*<\/ph>)/g)!;
      expect(codes).toHaveLength(3);
      // The translator moves the italics and writes a "<" of their own.
      const said = version === "2.0" ? "Hallo" : "Servus";
      const back = await importFile(s.cookie, setTarget(file, id, `${codes[0]}${said} ${codes[1]}zusammen${codes[2]} &amp; danke &lt;3`));
      expect(statuses(back.body)[id]).toBe("applied");
      const vtt = await (await get(`/vtt?src=/media/${key}&lang=de`)).text();
      expect(vtt).toContain(`<v Marie>${said} <i>zusammen</i> &amp; danke &lt;3`);
    }
    // A placeholder that stands for nothing in the cue is named, not dropped.
    const file = (await exportFile(s.cookie, `articleId=${articleId}&lang=de`)).text;
    const id = /id="(a\d+\.e1\.vtt\.c\d+\.0\.0)"/.exec(file)![1]!;
    const odd = await importFile(s.cookie, setTarget(file, id, `Folie <ph id="9" equiv="{{ n }}"/> von`));
    expect(odd.body.units.find((u) => u.id === id)).toMatchObject({ status: "error", reason: "invalid_target", detail: "inline_code", code: "{{ n }}" });
  });

  it("reports every unit error and applies the rest", async () => {
    const s = await staffSession();
    const other = await staffSession();
    expect((await s.call("add_glossary_term", { term: "Musée d'Orsay" })).status).toBe(200);
    const { articleId } = await translated(s);
    const theirs = await publishArticle(other, texts(LINES));
    const a = `a${articleId}`;
    const xml = `<?xml version="1.0"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="fr" trgLang="de">
 <file id="f1">
  <unit id="${a}.e1.content.0"><segment><source>Une amphore attique.</source><target>Eine Amphore 🏺 עברית&#x200D;.</target></segment></unit>
  <unit id="${a}.e2.content.0"><segment><source>Le Musée d&apos;Orsay la prête.</source><target>Das Museum leiht sie.</target></segment></unit>
  <unit id="${a}.e3.content.0"><segment><source>x</source></segment></unit>
  <unit id="${a}.e3.content.0"><segment><source>x</source><target>Zweimal</target></segment></unit>
  <unit id="a${theirs.articleId}.e1.content.0"><segment><source>x</source><target>Fremd</target></segment></unit>
  <unit id="${a}.e9.content.0"><segment><source>x</source><target>Nirgends</target></segment></unit>
  <unit id="tu-17"><segment><source>x</source><target>Unbekannt</target></segment></unit>
  <unit id="${a}.e1.content.5"><segment><source>x</source><target>Kein Platz</target></segment></unit>
 </file>
</xliff>`;
    const r = await importFile(s.cookie, xml);
    expect(r.status).toBe(200);
    expect(r.body.units.map((u) => (u.reason ? `${u.status}:${u.reason}` : u.status))).toEqual([
      "applied",
      "error:protected_term",
      "error:duplicate_id",
      "error:duplicate_id",
      "error:unknown_unit",
      "error:unknown_unit",
      "error:unknown_unit",
      "error:unknown_unit",
    ]);
    expect(r.body.units[1]).toMatchObject({ term: "Musée d'Orsay" });
    // Another museum's unit reads like any unknown one: no name, no source of theirs.
    expect(r.body.units[4]).toEqual({ id: `a${theirs.articleId}.e1.content.0`, status: "error", reason: "unknown_unit" });
    expect((await review(s, articleId, "de"))[0]).toMatchObject({ text: "Eine Amphore 🏺 עברית\u200d.", origin: "edited" });
    expect((await review(other, theirs.articleId, "de")).every((x) => x.origin !== "edited")).toBe(true);

    // Missing targets and wrong languages (a 1.2 file with a second <file> in another language).
    const v1 = `<xliff version="1.2"><file source-language="fr" target-language="de" original="x"><body>
<trans-unit id="${a}.e2.content.0"><source>x</source></trans-unit>
<trans-unit id="${a}.e3.content.0"><source>x</source><target>  </target></trans-unit>
<trans-unit id="${a}.e1.content.0"><source>Une amphore attique.</source><target>Umgedreht &#x202E;txet</target></trans-unit>
</body></file><file source-language="fr" target-language="es" original="y"><body>
<trans-unit id="${a}.e1.content.5"><source>x</source><target>Hacia 530.</target></trans-unit>
</body></file><file source-language="en" target-language="de" original="z"><body>
<trans-unit id="${a}.e1.content.6"><source>x</source><target>Quelle falsch</target></trans-unit>
</body></file></xliff>`;
    const w = await importFile(s.cookie, v1);
    // Units not translated yet are not errors; a forbidden character is named with its place.
    expect(w.body.units.map((u) => `${u.status}:${u.reason}`)).toEqual([
      "untranslated:undefined",
      "untranslated:undefined",
      "error:invalid_target",
      "error:wrong_language",
      "error:wrong_language",
    ]);
    expect(w.body.counts).toMatchObject({ untranslated: 2, error: 3 });
    expect(w.body.units[2]).toMatchObject({ detail: "forbidden_character", character: "U+202E RIGHT-TO-LEFT OVERRIDE", position: 11 });
    // The lang field against the file's: every unit in the wrong language.
    const es = await importFile(s.cookie, xml, { lang: "es" });
    expect(es.body.units.every((u) => u.reason === "wrong_language")).toBe(true);
  });

  it("refuses whole files that are broken, hostile or too large, and writes nothing", async () => {
    const s = await staffSession();
    const { articleId } = await translated(s);
    const unit = `<unit id="a${articleId}.e1.content.0"><segment><source>x</source><target>Böse</target></segment></unit>`;
    const files: [string, string | Uint8Array<ArrayBuffer>, number, string][] = [
      ["broken", `<xliff version="2.0" srcLang="fr" trgLang="de"><file id="f">${unit}</xliff>`, 400, "file"],
      ["not xliff", `<html><body>hi</body></html>`, 400, "file"],
      [
        "billion laughs",
        `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><xliff version="2.0" srcLang="fr" trgLang="de"><file id="f">${unit.replace("Böse", "&b;")}</file></xliff>`,
        400,
        "file",
      ],
      [
        "external entity",
        `<!DOCTYPE x [<!ENTITY e SYSTEM "http://127.0.0.1:1/secret">]><xliff version="2.0" srcLang="fr" trgLang="de"><file id="f">${unit.replace("Böse", "&e;")}</file></xliff>`,
        400,
        "file",
      ],
      [
        "deep",
        `<xliff version="2.0" srcLang="fr" trgLang="de"><file id="f">${"<group id='g'>".repeat(200)}${unit}${"</group>".repeat(200)}</file></xliff>`,
        400,
        "file",
      ],
      [
        "latin-1",
        new Uint8Array([
          ...new TextEncoder().encode(`<xliff version="2.0" srcLang="fr" trgLang="de"><file id="f">`),
          0xe9,
          ...new TextEncoder().encode(`</file></xliff>`),
        ]),
        400,
        "file",
      ],
      ["source language", `<xliff version="2.0" srcLang="fr" trgLang="fr"><file id="f">${unit}</file></xliff>`, 400, "lang"],
    ];
    for (const [name, body, status, field] of files) {
      const r = await importFile(s.cookie, body);
      expect(r.status, name).toBe(status);
      expect(r.body.error?.field, name).toBe(field);
    }
    expect((await review(s, articleId, "de")).every((x) => x.origin === "machine")).toBe(true);

    // 413 on the declared length, before reading.
    const declared = await SELF.fetch(`${BASE}/api/manage/import_xliff`, {
      method: "POST",
      headers: { Cookie: s.cookie, "Content-Type": "multipart/form-data; boundary=xx", "Content-Length": String(50 * 1024 * 1024) },
      body: "--xx--\r\n",
    });
    expect(declared.status).toBe(413);
    // 50 MB streamed without a length: refused once 20 MB have passed, then at most 4 MiB more read and thrown
    // away (DRAIN_MAX_BYTES, decision 121), the rest never read.
    let sent = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(0x61);
    const head = new TextEncoder().encode(`--xx\r\nContent-Disposition: form-data; name="file"; filename="big.xlf"\r\n\r\n`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      pull(controller) {
        if (sent >= 50) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const streamed = await SELF.fetch(`${BASE}/api/manage/import_xliff`, {
      method: "POST",
      headers: { Cookie: s.cookie, "Content-Type": "multipart/form-data; boundary=xx" },
      body: stream,
      // @ts-expect-error -- workerd's fetch wants the duplex of a streamed body
      duplex: "half",
    });
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { error: { field: string } }).error.field).toBe("file");
    expect(sent).toBeLessThan(30);

    // Form fields refused with their name.
    expect((await importFile(s.cookie, "<x/>", { dryRun: "maybe" })).body.error).toMatchObject({ field: "dryRun" });
    expect((await importFile(s.cookie, "<x/>", { lang: "zz-nope" })).body.error).toMatchObject({ field: "lang" });
    const noFile = await SELF.fetch(`${BASE}/api/manage/import_xliff`, {
      method: "POST",
      body: (() => {
        const f = new FormData();
        f.append("dryRun", "1");
        return f;
      })(),
      headers: { Cookie: s.cookie },
    });
    expect(noFile.status).toBe(400);
    expect(((await noFile.json()) as { error: { field: string } }).error.field).toBe("file");
    const json = await SELF.fetch(`${BASE}/api/manage/import_xliff`, {
      method: "POST",
      body: "{}",
      headers: { Cookie: s.cookie, "Content-Type": "application/json" },
    });
    expect(json.status).toBe(415);
  });

  it("roles: a viewer is refused; a translator only in their languages", async () => {
    const s = await staffSession();
    const { articleId } = await translated(s);
    const file = setTarget((await exportFile(s.cookie, `articleId=${articleId}&lang=de`)).text, `a${articleId}.e1.content.0`, "Vom Übersetzer.");
    const viewer = await memberSession(s.user, { role: "viewer" });
    expect((await exportFile(viewer.cookie, `articleId=${articleId}&lang=de`)).status).toBe(403);
    expect((await importFile(viewer.cookie, file)).status).toBe(403);
    const spanish = await memberSession(s.user, { role: "translator", languages: ["es"] });
    expect((await exportFile(spanish.cookie, `articleId=${articleId}&lang=de`)).status).toBe(403);
    expect((await exportFile(spanish.cookie, `articleId=${articleId}&lang=es`)).status).toBe(200);
    const refused = await importFile(spanish.cookie, file);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "forbidden", field: "lang" });
    const german = await memberSession(s.user, { role: "translator", languages: ["de"] });
    expect((await importFile(german.cookie, file)).body.counts.applied).toBe(1);
    expect((await auditEntries(s.user.museumId, { action: "translations.import_xliff" })).map((r) => r.actor_email)).toEqual([german.user.email]);
  });

  it("50 identical imports at once: every one answers, the state is the file's", async () => {
    const s = await staffSession();
    const { articleId, link } = await translated(s);
    let file = (await exportFile(s.cookie, `articleId=${articleId}&lang=de`)).text;
    for (const [i, line] of LINES.entries()) file = setTarget(file, `a${articleId}.e${i + 1}.content.0`, `Parallel ${i}: ${line}`);
    const results = await Promise.all(Array.from({ length: 50 }, () => importFile(s.cookie, file)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    for (const r of results) expect(r.body.counts.applied + r.body.counts.unchanged).toBe(3);
    expect((await review(s, articleId, "de")).map((x) => [x.text, x.origin])).toEqual(LINES.map((line, i) => [`Parallel ${i}: ${line}`, "edited"]));
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM translation_reviews WHERE article_id = ? AND target_lang = 'de'")
      .bind(articleId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(3);
    const audits = (await auditEntries(s.user.museumId, { action: "translations.import_xliff" })).length;
    expect(audits).toBe(results.filter((r) => r.body.counts.applied > 0).length);
    expect(await visit(link, "de")).toContain("Parallel 0");
  }, 60_000);

  it("two conflicting imports at once: one file wins whole, never a mix", async () => {
    const s = await staffSession();
    const { articleId } = await translated(s);
    const base = (await exportFile(s.cookie, `articleId=${articleId}&lang=de`)).text;
    const version = (tag: string) => LINES.reduce((xml, _line, i) => setTarget(xml, `a${articleId}.e${i + 1}.content.0`, `${tag} ${i}`), base);
    for (let round = 0; round < 3; round++) {
      const [a, b] = await Promise.all([importFile(s.cookie, version(`A${round}`)), importFile(s.cookie, version(`B${round}`))]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const texts = (await review(s, articleId, "de")).map((x) => x.text);
      const memory = await env.DB.prepare(
        "SELECT text FROM translation_memory JOIN translation_segments USING (museum_id, source_lang, source_hash) WHERE museum_id = ? AND target_lang = 'de' AND origin = 'edited' ORDER BY source_text",
      )
        .bind(s.user.museumId)
        .all<{ text: string }>();
      const winner = texts[0]!.slice(0, texts[0]!.indexOf(" "));
      expect([`A${round}`, `B${round}`]).toContain(winner);
      expect(texts).toEqual(LINES.map((_l, i) => `${winner} ${i}`));
      expect(memory.results.every((m) => m.text.startsWith(`${winner} `))).toBe(true);
    }
  }, 60_000);
});
