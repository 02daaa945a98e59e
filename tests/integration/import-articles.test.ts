import { env, SELF } from "cloudflare:test";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { templateXlsx, xlsxOf } from "~/import/template";
import { auditEntries, BASE, memberSession, publishNow, staffSession, type StaffSession } from "./helpers";

// Spreadsheet import (issue 19 §2, decisions 054–056): dry run, apply, re-import, update by address, pictures
// from a ZIP, errors by row and column, limits, tenancy, roles, races and malformed bodies.

type Answer = {
  rows: { row: number; action: string; articleId?: number; name: string; address: string; errors: { column: string; reason: string }[] }[];
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  applied: boolean;
  headers: string[];
  mapping: Record<string, number>;
  error?: { code: string; field?: string; reason?: string };
};

/** A real 1×1 PNG (IHDR says 1×1) padded to `bytes`. */
function png(bytes = 120, seed = 0): Uint8Array {
  const head = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, seed & 0xff];
  const out = new Uint8Array(Math.max(bytes, head.length));
  out.set(head);
  return out;
}

const HEADER = "Dossier;Nom;Adresse;Texte;Image;Texte alternatif;Légende;Libellé du lien;URL du lien";
const csv = (...rows: string[]) => new File([[HEADER, ...rows].join("\r\n")], "cartels.csv", { type: "text/csv" });

const ROWS = [
  'Salle 2/Vitrine 3;Amphore;amphore;"Amphore\n\nAthènes, vers 530 av. J.-C.\n\n\nTerre cuite.";amphore.png;Une amphore;;Notice;https://example.org/amphore',
  "Salle 2;Vase;;Vase à parfum;photos/vase.png;Un vase;Frise d'animaux;;",
  "Salle 2/Vitrine 3;Sans image;sans-image;Texte seul;;;;;",
];

const IMAGES = () => zipSync({ "amphore.png": png(300, 1), "photos/vase.png": png(400, 2), "notes.txt": strToU8("ignored") });

async function importFile(
  s: Pick<StaffSession, "cookie">,
  parts: { file?: File | Blob; images?: Uint8Array | Blob; mapping?: unknown },
  dryRun: boolean | string = true,
): Promise<{ status: number; body: Answer }> {
  const form = new FormData();
  if (parts.mapping !== undefined) form.append("mapping", typeof parts.mapping === "string" ? parts.mapping : JSON.stringify(parts.mapping));
  if (parts.file) form.append("file", parts.file, parts.file instanceof File ? parts.file.name : "sheet.csv");
  if (parts.images) form.append("images", parts.images instanceof Blob ? parts.images : new Blob([parts.images as Uint8Array<ArrayBuffer>]), "images.zip");
  const response = await SELF.fetch(`${BASE}/api/manage/import_articles?dryRun=${dryRun}`, { method: "POST", body: form, headers: { Cookie: s.cookie } });
  return { status: response.status, body: (await response.json()) as Answer };
}

async function counts(museumId: number) {
  const one = (sql: string) =>
    env.DB.prepare(sql)
      .bind(museumId)
      .first<{ n: number }>()
      .then((r) => r!.n);
  return {
    articles: await one("SELECT count(*) AS n FROM articles WHERE museum_id = ?"),
    folders: await one("SELECT count(*) AS n FROM folders WHERE museum_id = ?"),
    media: await one("SELECT count(*) AS n FROM media WHERE museum_id = ?"),
    audit: await one("SELECT count(*) AS n FROM audit_log WHERE museum_id = ? AND action = 'articles.import'"),
    objects: (await env.MEDIA.list({ prefix: `m/${museumId}/` })).objects.length,
  };
}

async function article(museumId: number, slug: string) {
  return env.DB.prepare(
    "SELECT id, folder_id, unformatted_name, content, version, published_content, published_version FROM articles WHERE museum_id = ? AND slug = ?",
  )
    .bind(museumId, slug)
    .first<{
      id: number;
      folder_id: number | null;
      unformatted_name: string;
      content: string;
      version: number;
      published_content: string | null;
      published_version: number | null;
    }>();
}

describe("spreadsheet import", () => {
  it("a dry run says what each row will do and writes nothing", async () => {
    const s = await staffSession();
    const before = await counts(s.user.museumId);
    const { status, body } = await importFile(s, { file: csv(...ROWS), images: IMAGES() });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.rows.map((r) => [r.row, r.action, r.address])).toEqual([
      [2, "create", "amphore"],
      [3, "create", "vase"],
      [4, "create", "sans-image"],
    ]);
    expect(body).toMatchObject({ created: 3, updated: 0, skipped: 0, failed: 0, applied: false });
    expect(body.mapping).toEqual({ folder: 0, name: 1, address: 2, text: 3, image: 4, alt: 5, legend: 6, linkLabel: 7, linkUrl: 8 });
    expect(await counts(s.user.museumId)).toEqual(before);
  });

  it("applies as drafts in one audit entry, then the same file again changes nothing", async () => {
    const s = await staffSession();
    const applied = await importFile(s, { file: csv(...ROWS), images: IMAGES() }, false);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body).toMatchObject({ created: 3, updated: 0, skipped: 0, applied: true });
    expect(applied.body.rows.every((r) => typeof r.articleId === "number")).toBe(true);

    const amphore = (await article(s.user.museumId, "amphore"))!;
    expect(amphore.published_content).toBeNull(); // a draft, never published (decision 041)
    expect(amphore.unformatted_name).toBe("Amphore");
    const content = JSON.parse(amphore.content) as { type: string; src?: string; alt?: string; content?: string; link?: string }[];
    // The title (the text's first line) above the picture, the rest of the text below it (issue 29).
    expect(content.map((e) => e.type)).toEqual(["metadatas", "text", "image", "text", "link"]);
    expect(content[1]!.content).toBe("Amphore");
    expect(content[3]!.content).toBe("Athènes, vers 530 av. J.-C.\n\nTerre cuite.");
    expect(content[2]).toMatchObject({ alt: "Une amphore" });
    expect(content[2]!.src).toMatch(new RegExp(`^/media/m/${s.user.museumId}/image/[0-9a-f-]{36}\\.png$`));
    expect(content[4]).toMatchObject({ link: "https://example.org/amphore", content: "Notice" });
    const vase = JSON.parse((await article(s.user.museumId, "vase"))!.content) as { type: string; content?: string; src?: string }[];
    expect(vase.map((e) => e.type)).toEqual(["metadatas", "text", "legendItem"]);
    expect(vase[1]!.content).toBe("Vase à parfum");
    expect(vase[2]!.content).toBe("Frise d'animaux");

    // Folders "Salle 2" and "Salle 2/Vitrine 3", made once.
    const tree = await env.DB.prepare("SELECT id, parent_id, name FROM folders WHERE museum_id = ? ORDER BY id")
      .bind(s.user.museumId)
      .all<{ id: number; parent_id: number | null; name: string }>();
    expect(tree.results.map((f) => f.name)).toEqual(["Salle 2", "Vitrine 3"]);
    expect(tree.results[1]!.parent_id).toBe(tree.results[0]!.id);
    expect(amphore.folder_id).toBe(tree.results[1]!.id);

    const media = await env.DB.prepare("SELECT r2_key, article_id, width, height FROM media WHERE museum_id = ?")
      .bind(s.user.museumId)
      .all<{ r2_key: string; article_id: number; width: number }>();
    expect(media.results).toHaveLength(2);
    expect(media.results.find((m) => content[2]!.src!.endsWith(m.r2_key))).toMatchObject({ article_id: amphore.id, width: 1 });
    const stored = await env.MEDIA.list({ prefix: `m/${s.user.museumId}/` });
    expect(stored.objects).toHaveLength(2); // notes.txt was never read; nothing else left behind

    const audit = await auditEntries(s.user.museumId, { action: "articles.import" });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).toMatchObject({ created: 3, updated: 0, skipped: 0, folders: 2, file: "cartels.csv" });

    const before = await counts(s.user.museumId);
    const again = await importFile(s, { file: csv(...ROWS), images: IMAGES() }, false);
    expect(again.status).toBe(200);
    expect(again.body.rows.map((r) => r.action)).toEqual(["skip", "skip", "skip"]);
    expect(again.body).toMatchObject({ created: 0, updated: 0, skipped: 3, applied: false });
    expect(await counts(s.user.museumId)).toEqual(before);
    expect((await article(s.user.museumId, "amphore"))!.version).toBe(amphore.version);
  });

  it("updates by address: a published article gets a draft over its published version", async () => {
    const s = await staffSession();
    await importFile(s, { file: csv(...ROWS), images: IMAGES() }, false);
    const amphore = (await article(s.user.museumId, "amphore"))!;
    await publishNow(s, amphore.id);
    const changed = [ROWS[0]!.replace("Terre cuite.", "Terre cuite peinte."), ROWS[1]!, ROWS[2]!.replace("Salle 2/Vitrine 3", "Réserve")];
    const dry = await importFile(s, { file: csv(...changed), images: IMAGES() });
    expect(dry.body.rows.map((r) => r.action)).toEqual(["update", "skip", "update"]);
    expect(dry.body.rows[0]!.articleId).toBe(amphore.id);
    const applied = await importFile(s, { file: csv(...changed), images: IMAGES() }, false);
    expect(applied.body).toMatchObject({ created: 0, updated: 2, skipped: 1 });
    const after = (await article(s.user.museumId, "amphore"))!;
    expect(after.content).toContain("Terre cuite peinte.");
    expect(after.published_content).toContain("Terre cuite.");
    expect(after.published_content).not.toContain("peinte");
    expect(after.version).toBe(amphore.version + 1);
    // The picture is the same file: the article keeps its address, no new object is stored.
    expect(JSON.parse(after.content)[2].src).toBe(JSON.parse(amphore.content)[2].src);
    expect((await env.MEDIA.list({ prefix: `m/${s.user.museumId}/` })).objects).toHaveLength(2);
    const moved = (await article(s.user.museumId, "sans-image"))!;
    const folder = await env.DB.prepare("SELECT name, parent_id FROM folders WHERE id = ?")
      .bind(moved.folder_id)
      .first<{ name: string; parent_id: number | null }>();
    expect(folder).toEqual({ name: "Réserve", parent_id: null });

    // Another picture under the same name: stored, and the draft shows it.
    const repainted = zipSync({ "amphore.png": png(300, 7), "photos/vase.png": png(400, 2) });
    const swapped = await importFile(s, { file: csv(...changed), images: repainted }, false);
    expect(swapped.body.rows.map((r) => r.action)).toEqual(["update", "skip", "skip"]);
    const src = JSON.parse((await article(s.user.museumId, "amphore"))!.content)[2].src as string;
    expect(src).not.toBe(JSON.parse(amphore.content)[2].src);
    expect(new Uint8Array(await (await env.MEDIA.get(src.slice("/media/".length)))!.arrayBuffer())).toEqual(png(300, 7));
    expect((await env.MEDIA.list({ prefix: `m/${s.user.museumId}/` })).objects).toHaveLength(3);
  });

  it("reads the sheet and its pictures from one ZIP, and an XLSX sheet (in workerd)", async () => {
    const s = await staffSession();
    const sheet = xlsxOf([
      ["Folder", "Name", "Address", "Text", "Image", "Alt text"],
      ["Room 1", "Mask", "mask", "A mask.\n\nWood.", "img/mask.png", "A wooden mask"],
      ["", "=SUM(A1:A2)", "formula", "=1+1", "", ""],
    ]);
    const bundle = zipSync({ "labels.xlsx": sheet, "img/mask.png": png(200, 3) });
    const { status, body } = await importFile(s, { file: new File([bundle], "museum.zip") }, false);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ created: 2, failed: 0 });
    const mask = JSON.parse((await article(s.user.museumId, "mask"))!.content);
    // The title (the text's first line, the page's heading) comes before the picture (issue 29).
    expect(mask.slice(1).map((e: { type: string; content?: string }) => [e.type, e.content ?? ""])).toEqual([
      ["text", "A mask."],
      ["image", ""],
      ["text", "Wood."],
    ]);
    expect(mask[2]).toMatchObject({ type: "image", alt: "A wooden mask" });
    const formula = (await article(s.user.museumId, "formula"))!;
    expect(formula.unformatted_name).toBe("=SUM(A1:A2)");
    expect(JSON.parse(formula.content)[1].content).toBe("=1+1");
    // The template itself imports.
    const template = await importFile(s, { file: new File([templateXlsx("fr") as Uint8Array<ArrayBuffer>], "modele.xlsx") });
    expect(template.status).toBe(200);
    expect(template.body.rows.map((r) => r.errors.map((e) => `${e.column}:${e.reason}`))).toEqual([["image:image_missing"], ["image:image_missing"]]);
  });

  it("names every problem by row and column, and an apply with one refuses all", async () => {
    const s = await staffSession();
    const trashed = await s.call("add_article", { pathArray: [] });
    const slug = trashed.body.name as string;
    await s.call("delete_item", { type: "article", id: trashed.body.id, pathArray: [] });
    const big = png(210 * 1024, 9);
    const file = csv(
      ";Sans image;;Bonjour;absente.png;;;;",
      ";;pas-de-nom;Bonjour;;;;;",
      ";Lien;;;;;;Voir;javascript:alert(1)",
      ";Libellé seul;;;;;;Voir;",
      ";Double;double;;;;;;",
      ";Double bis;double;;;;;;",
      `;Corbeille;${slug};;;;;;`,
      ";Adresse;Pas Bonne!;;;;;;",
      ";Trop grande;;;grande.png;;;;",
      ";Pas une image;;;texte.png;;;;",
      "Salle/../x;Dossier;;;;;;;",
      ";\u202eRenversé;;;;;;;",
    );
    const images = zipSync({ "grande.png": big, "texte.png": strToU8("not a picture") });
    const before = await counts(s.user.museumId);
    const { status, body } = await importFile(s, { file, images }, false);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: "invalid_input", field: "rows" });
    expect(body.applied).toBe(false);
    const problems = body.rows.map((r) => [r.row, r.action, ...r.errors.map((e) => `${e.column}:${e.reason}`)]);
    expect(problems).toEqual([
      [2, "error", "image:image_missing"],
      [3, "error", "name:required"],
      [4, "error", "linkUrl:unsafe_url"],
      [5, "error", "linkUrl:required"],
      [6, "create"],
      [7, "error", "address:duplicate_address"],
      [8, "error", "address:address_in_trash"],
      [9, "error", "address:invalid"],
      [10, "error", "image:image_too_large"],
      [11, "error", "image:image_type"],
      [12, "error", "folder:dot_name"],
      [13, "error", "name:forbidden_characters"],
    ]);
    expect(await counts(s.user.museumId)).toEqual(before); // no article, no folder, no picture left in R2
  });

  it("refuses what is too large with the field, and malformed bodies with 400", async () => {
    const s = await staffSession();
    const rows = Array.from({ length: 2001 }, (_, i) => `;Article ${i};;;;;;;`);
    const tooMany = await importFile(s, { file: csv(...rows) });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error).toMatchObject({ field: "file", reason: "too_many" });
    const ok = await importFile(s, { file: csv(...rows.slice(0, 2000)) });
    expect(ok.status).toBe(200);
    expect(ok.body.created).toBe(2000);

    const huge = await importFile(s, { file: new File([new Uint8Array(10 * 1024 * 1024 + 1).fill(0x41)], "big.csv") });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toMatchObject({ field: "file" });

    const declared = await SELF.fetch(`${BASE}/api/manage/import_articles`, {
      method: "POST",
      headers: { Cookie: s.cookie, "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(200 * 1024 * 1024) },
      body: "--x--",
    });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as Answer).error).toMatchObject({ field: "images" });

    const raw = (body: string, type = "multipart/form-data; boundary=b") =>
      SELF.fetch(`${BASE}/api/manage/import_articles`, { method: "POST", headers: { Cookie: s.cookie, "Content-Type": type }, body }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as Answer,
      }));
    expect((await raw('--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nNom\nA')).status).toBe(400);
    expect((await raw("{}", "application/json")).status).toBe(415);
    expect((await raw("--b--\r\n")).body.error).toMatchObject({ field: "file", reason: "required" });

    const cases: [unknown, string][] = [
      ["{not json", "mapping"],
      [{ nom: 1 }, "mapping.nom"],
      [{ name: "Pas une colonne" }, "mapping.name"],
      [{ name: -1 }, "mapping.name"],
      [{ name: true }, "mapping.name"],
      [[1], "mapping"],
    ];
    for (const [mapping, field] of cases) {
      const answer = await importFile(s, { file: csv(ROWS[2]!), mapping });
      expect(answer.status, JSON.stringify(mapping)).toBe(400);
      expect(answer.body.error?.field).toBe(field);
    }
    const byHeader = await importFile(s, { file: csv(ROWS[2]!), mapping: { name: "Nom", text: 3 } });
    expect(byHeader.body.mapping).toEqual({ name: 1, text: 3 });
    expect(byHeader.body.rows[0]!.address).toBe("sans-image");

    expect((await importFile(s, { file: csv(ROWS[2]!) }, "maybe")).body.error).toMatchObject({ field: "dryRun" });
    const form = new FormData();
    form.append("images", new Blob([IMAGES()]), "images.zip");
    form.append("file", csv(ROWS[2]!), "a.csv");
    const order = await SELF.fetch(`${BASE}/api/manage/import_articles`, { method: "POST", body: form, headers: { Cookie: s.cookie } });
    expect(order.status).toBe(400);
    expect(((await order.json()) as Answer).error).toMatchObject({ field: "images" });
    const broken = await importFile(s, { file: csv(ROWS[0]!), images: strToU8("PK\u0003\u0004 broken") });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatchObject({ field: "images" });
    expect((await counts(s.user.museumId)).articles).toBe(0);
  });

  it("reads semicolons, commas and tabs, a BOM, Windows-1252 and quoted line breaks", async () => {
    const s = await staffSession();
    const latin1 = new Uint8Array([...strToU8("Nom;Texte\r\n"), 0x43, 0x72, 0xe8, 0x6d, 0x65, 0x3b, 0x45, 0x74, 0xe9, 0x0d, 0x0a]); // "Crème;Eté"
    const one = await importFile(s, { file: new File([latin1], "excel.csv") });
    expect(one.body.rows[0]).toMatchObject({ name: "Crème", address: "creme" });
    const tabs = await importFile(s, { file: new File(['\ufeffName\tText\n\nA\t"x\n\ny"\n\n\nB\tz\n'], "t.tsv") });
    expect(tabs.body.rows.map((r) => [r.row, r.name])).toEqual([
      [3, "A"],
      [6, "B"],
    ]);
    const commas = await importFile(s, { file: new File(['Title,Body\n"Le ""Penseur"", Rodin",ok\n'], "c.csv") });
    expect(commas.body.rows[0]).toMatchObject({ name: 'Le "Penseur", Rodin', address: "le-penseur-rodin" });
  });

  it("keeps museums apart: the same address in another museum is its own article", async () => {
    const a = await staffSession();
    const b = await staffSession();
    await importFile(a, { file: csv(...ROWS), images: IMAGES() }, false);
    const mine = (await article(a.user.museumId, "amphore"))!;
    const theirs = await importFile(b, { file: csv(ROWS[0]!.replace("Terre cuite.", "Autre.")), images: IMAGES() }, false);
    expect(theirs.body.rows[0]!.action).toBe("create");
    expect(theirs.body.rows[0]!.articleId).not.toBe(mine.id);
    expect((await article(a.user.museumId, "amphore"))!.content).toBe(mine.content);
    expect((await env.MEDIA.list({ prefix: `m/${b.user.museumId}/` })).objects).toHaveLength(1);
  });

  it("lets editors import; translators, viewers and strangers are refused before the body is read", async () => {
    const admin = await staffSession();
    const editor = await memberSession(admin.user, { role: "editor" });
    expect((await importFile(editor, { file: csv(ROWS[2]!) }, false)).status).toBe(200);
    for (const role of ["translator", "viewer"] as const) {
      const member = await memberSession(admin.user, { role });
      expect((await importFile(member, { file: csv(ROWS[1]!) }, false)).status).toBe(403);
    }
    expect((await importFile({ cookie: "" }, { file: csv(ROWS[1]!) }, false)).status).toBe(401);
    expect((await counts(admin.user.museumId)).articles).toBe(1);
  });

  it("50 identical imports at once create each article and folder once, in one audit entry", async () => {
    const s = await staffSession();
    const answers = await Promise.all(Array.from({ length: 50 }, () => importFile(s, { file: csv(...ROWS), images: IMAGES() }, false)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((code) => code !== 200 && code !== 409)).toEqual([]);
    expect(answers.filter((a) => a.body.created === 3)).toHaveLength(1);
    const after = await counts(s.user.museumId);
    expect(after).toMatchObject({ articles: 3, folders: 2, media: 2, audit: 1 });
    // Every picture a losing request stored was deleted again.
    expect(after.objects).toBe(2);
  });

  it("two different files for the same new address at once: one creates, the other updates what it finds", async () => {
    const s = await staffSession();
    const [one, two] = await Promise.all([
      importFile(s, { file: csv("Salle 9;Stèle;stele;Premier texte;;;;;") }, false),
      importFile(s, { file: csv("Salle 9;Stèle;stele;Second texte;;;;;") }, false),
    ]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect([one.body.rows[0]!.action, two.body.rows[0]!.action].sort()).toEqual(["create", "update"]);
    const stele = (await article(s.user.museumId, "stele"))!;
    expect(stele.version).toBe(2);
    const last = one.body.rows[0]!.action === "update" ? "Premier texte" : "Second texte";
    expect(stele.content).toContain(last);
    expect(await counts(s.user.museumId)).toMatchObject({ articles: 1, folders: 1, audit: 2 });
  });
});
