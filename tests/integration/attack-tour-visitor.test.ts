import { beforeAll, describe, expect, it } from "vitest";
import { createTour, get, publishArticle, staffSession, type StaffSession, texts } from "./helpers";
import { setStopNumber } from "./tour-helpers";

// Audit of issue 21's visitor side (audit22): /t/{link}, /t/{link}/{n}, the keypad /v/{museum}/n with what a
// phone, a careless link or an attacker may type. Unknown or malformed is the 404 page, a bad keypad entry
// the form again (400), never a 500, and nothing typed comes back unescaped.

describe("attack: tour pages and the keypad", () => {
  let s: StaffSession;
  let tour: { id: number; link: string };
  let slug: string;

  beforeAll(async () => {
    s = await staffSession();
    const vase = await publishArticle(s, texts(["Vase attique", "Vers 450."]));
    const stele = await publishArticle(s, texts(["Stèle", "Marbre."]));
    slug = vase.slug;
    tour = await createTour(s.user.museumId, [vase.articleId, stele.articleId]);
    await setStopNumber(vase.articleId, 12);
  });

  it("a stop position that is not 1…n is the 404 page: 0, -1, 1e9, 1.5, 01, Arabic-Indic digits, huge, encoded junk", async () => {
    expect((await get(`/t/${tour.link}/1`)).status).toBe(200);
    expect((await get(`/t/${tour.link}/2`)).status).toBe(200);
    for (const n of [
      "0",
      "-1",
      "3",
      "1e9",
      "1000000000",
      "1.5",
      "01",
      "+1",
      " 1",
      encodeURIComponent("١"),
      "%EF%BC%91",
      "9".repeat(400),
      "%00",
      "%ED%A0%80",
      "%",
      "%25",
      "1%2F..%2F2",
    ]) {
      const r = await get(`/t/${tour.link}/${n}`);
      expect([n, r.status]).toEqual([n, 404]);
      expect(r.headers.get("Content-Type") ?? "").toContain("text/html");
    }
    for (const n of ["0", "-1", "١", "%ED%A0%80"]) {
      const r = await get(`/t/${tour.link}/${n}/languages`);
      expect([n, r.status]).toEqual([n, 404]);
    }
  });

  it("a link that is not a tour's is the 404 page, whatever it holds", async () => {
    for (const link of [
      "abc",
      tour.link.toUpperCase(),
      `${tour.link}x`,
      "%ED%A0%80",
      "%",
      "%00",
      "<script>",
      encodeURIComponent("'\"><img src=x>"),
      "a".repeat(5000),
      "..%2F..%2Fdashboard",
    ]) {
      for (const path of [`/t/${link}`, `/t/${link}/1`, `/t/${link}/languages`, `/t/${link}/offline.json`]) {
        const r = await get(path);
        expect([path.slice(0, 60), r.status]).toEqual([path.slice(0, 60), 404]);
        const body = await r.text();
        expect(body).not.toContain("<img src=x>");
        expect(body).not.toContain("<script>alert");
      }
    }
  });

  it("the keypad: any script's digits lead to the stop, junk is the form again (400), an unknown number 404, never 500", async () => {
    const base = `/v/${s.user.museumSlug}/n`;
    const leads = ["12", "012", " 12 ", "1 2", "١٢", "۱۲", "１２", "१२"];
    for (const typed of leads) {
      const r = await get(`${base}?number=${encodeURIComponent(typed)}`);
      expect([typed, r.status, r.headers.get("Location")]).toEqual([typed, 303, `/v/${s.user.museumSlug}/${slug}`]);
    }
    const refused: [string, number][] = [
      ["", 400],
      ["-12", 400],
      ["1.5", 400],
      ["1e3", 400],
      ["0x0c", 400],
      ["12abc", 400],
      ["𝟏𝟐", 400], // mathematical digits are not what a keypad types
      ["\u0000", 400],
      ["1".repeat(10_000), 400],
      ["<script>alert(1)</script>", 400],
      ["0", 404],
      ["13", 404],
      ["10000", 404],
      ["999999999999", 404],
    ];
    for (const [typed, status] of refused) {
      const r = await get(`${base}?number=${encodeURIComponent(typed)}`);
      const label = typed.slice(0, 20);
      expect([label, r.status]).toEqual([label, status]);
      const body = await r.text();
      expect(body).not.toContain("<script>alert(1)");
    }
    // A lone surrogate as the browser would send it (broken UTF-8), and a broken escape.
    for (const raw of ["%ED%A0%80", "%", "%E0%A4"]) expect([raw, (await get(`${base}?number=${raw}`)).status]).toEqual([raw, 400]);
    // Two numbers, or a number in an array form: the first is read, never a 500.
    expect((await get(`${base}?number=12&number=13`)).status).toBe(303);
    expect((await get(`${base}?number[]=12`)).status).toBe(200);
    // A keypad of a museum that does not exist, or an odd museum address.
    for (const museum of ["nope-museum", "%ED%A0%80", "%00", "a".repeat(3000)]) {
      const r = await get(`/v/${museum}/n?number=12`);
      expect([museum.slice(0, 20), r.status]).toEqual([museum.slice(0, 20), 404]);
    }
  });

  it("?lang= junk on the tour and the keypad is ignored, never reflected raw", async () => {
    for (const lang of ["<svg onload=alert(1)>", "x".repeat(5000), "%ED%A0%80", "ar\u202e", "zz-ZZZZZZZZZ"]) {
      for (const path of [`/t/${tour.link}`, `/t/${tour.link}/1`, `/v/${s.user.museumSlug}/n`, `/v/${s.user.museumSlug}/n?number=12`]) {
        const url = `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang)}`;
        const r = await get(url);
        expect([url.slice(0, 70), r.status < 500]).toEqual([url.slice(0, 70), true]);
        const body = await r.text();
        expect(body).not.toContain("<svg onload");
        expect(r.headers.get("Location") ?? "").not.toContain("svg");
      }
    }
  });
});
