import { env, SELF } from "cloudflare:test";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { BASE, staffSession, type StaffSession } from "./helpers";
import { excelLikeXlsx, hostileXlsx, labelRows, odsOf } from "../workbooks";

// Workbooks in workerd (issue 29 §2, decision 111): large XLSX parts (fflate's `unzip` handed them to a Web
// Worker, which workerd lacks), ODS, the hostile __MACOSX workbook, files named rather than misread.

type Answer = {
  rows: { row: number; action: string; name: string; address: string; errors: { column: string; reason: string }[] }[];
  created: number;
  failed: number;
  headers: string[];
  error?: { code: string; field?: string; reason?: string; message?: string };
};

async function importFile(s: Pick<StaffSession, "cookie">, file: File, dryRun = true): Promise<{ status: number; body: Answer }> {
  const form = new FormData();
  form.append("file", file, file.name);
  const response = await SELF.fetch(`${BASE}/api/manage/import_articles?dryRun=${dryRun}`, { method: "POST", body: form, headers: { Cookie: s.cookie } });
  return { status: response.status, body: (await response.json()) as Answer };
}

const fileOf = (bytes: Uint8Array, name: string) => new File([bytes as Uint8Array<ArrayBuffer>], name);

describe("POST /api/manage/import_articles with workbooks", () => {
  it("reads an XLSX of 750 rows whose shared strings are 2.4 MB, as the same rows in CSV", async () => {
    const s = await staffSession();
    const rows = labelRows(750, 2.4 * 1024 * 1024);
    const xlsx = excelLikeXlsx(rows);
    const answer = await importFile(s, fileOf(xlsx, "cartels.xlsx"));
    expect(answer.status, JSON.stringify(answer.body.error)).toBe(200);
    expect(answer.body.rows).toHaveLength(750);
    expect(answer.body.failed).toBe(0);
    const csv = rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(",")).join("\r\n");
    const fromCsv = await importFile(s, new File([csv], "cartels.csv"));
    expect(fromCsv.status).toBe(200);
    expect(answer.body.rows).toEqual(fromCsv.body.rows);
  });

  it("imports an ODS (LibreOffice's default), alone or in a ZIP with its pictures", async () => {
    const s = await staffSession();
    const ods = odsOf([
      ["Dossier", "Nom", "Adresse", "Texte"],
      ["Salle 1", "Amphore", "amphore", "Athènes\nTerre cuite"],
    ]);
    const applied = await importFile(s, fileOf(ods, "cartels.ods"), false);
    expect(applied.status, JSON.stringify(applied.body.error)).toBe(200);
    expect(applied.body.created).toBe(1);
    const row = await env.DB.prepare("SELECT unformatted_name AS name FROM articles WHERE museum_id = ? AND slug = 'amphore'")
      .bind(s.user.museumId)
      .first<{ name: string }>();
    expect(row?.name).toBe("Amphore");
    const bundled = await importFile(s, fileOf(zipSync({ "cartels.ods": ods, "photos/a.png": new Uint8Array(10) }), "museum.zip"));
    expect(bundled.status, JSON.stringify(bundled.body.error)).toBe(200);
    expect(bundled.body.rows.map((r) => r.action)).toEqual(["skip"]);
  });

  it("refuses issue 29's workbook (1,200 __MACOSX/pN.xml of 500 KB) with 413 and why, and serves the next import", async () => {
    const s = await staffSession();
    const hostile = hostileXlsx(excelLikeXlsx([["Nom"], ["Amphore"]]));
    const refused = await importFile(s, fileOf(hostile, "cartels.xlsx"));
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatchObject({ code: "too_large", field: "file", reason: "too_long" });
    expect(refused.body.error!.message).toMatch(
      /unpacks to 586 MB or more in 1,208 files \(1,200 of them __MACOSX or system copies\); this app reads at most 48 MB/,
    );
    const next = await importFile(s, fileOf(excelLikeXlsx([["Nom"], ["Amphore"]]), "cartels.xlsx"));
    expect(next.status).toBe(200);
  });

  it("refuses 20,000 rows by their number (413), and names an .xls or a text document rather than misreading it", async () => {
    const s = await staffSession();
    const huge = await importFile(s, fileOf(excelLikeXlsx(labelRows(20_000, 5.5 * 1024 * 1024)), "big.xlsx"));
    expect(huge.status).toBe(413);
    expect(huge.body.error).toMatchObject({ field: "file", reason: "too_many" });
    const xls = new Uint8Array(4096);
    xls.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const old = await importFile(s, fileOf(xls, "cartels.xls"));
    expect(old.status).toBe(400);
    expect(old.body.error).toMatchObject({ field: "file", reason: "wrong_type" });
    expect(old.body.error!.message).toContain("save it as XLSX or CSV");
    const odt = await importFile(s, fileOf(odsOf([["Nom"], ["a"]], { mimetype: "application/vnd.oasis.opendocument.text" }), "texte.odt"));
    expect(odt.status).toBe(400);
    expect(odt.body.error).toMatchObject({ field: "file", reason: "wrong_type" });
    const notZip = await importFile(s, fileOf(zipSync({ "a.txt": strToU8("x"), "b.txt": strToU8("y") }), "two.zip"));
    expect(notZip.status).toBe(400);
  });
});
