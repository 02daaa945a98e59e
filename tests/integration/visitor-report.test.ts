import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { changedKey, STAMP_CHECK_MS } from "~/visitor-cache/snapshot.server";
import { BASE, publishArticle, staffSession, texts } from "./helpers";

type Session = Awaited<ReturnType<typeof staffSession>>;

const publish = (s: Session) => publishArticle(s, texts(["Une amphore attique."]));

function report(link: string, fields: Record<string, string>, address: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  return SELF.fetch(`${BASE}/r/${link}/report`, {
    method: init.method ?? "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": address, ...init.headers },
    body: new URLSearchParams(fields),
  });
}

async function statuses(responses: Promise<Response>[]) {
  const all = await Promise.all(responses);
  await Promise.all(all.map((r) => r.arrayBuffer()));
  return all.map((r) => r.status);
}

const count = (list: number[], status: number) => list.filter((s) => s === status).length;

async function storedReports(museumId: number) {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM translation_reports WHERE museum_id = ?").bind(museumId).first<{ n: number }>();
  return row!.n;
}

describe("the report limit (decision 034)", () => {
  it("keys an IPv6 client on its /64: rotating addresses inside it shares one budget", async () => {
    const s = await staffSession();
    const { link } = await publish(s);
    // Eight addresses of one /64, written every way IPv6 allows.
    const rotating = [
      "2001:db8:7:1::1",
      "2001:db8:7:1::2",
      "2001:DB8:7:1:ffff:ffff:ffff:fffe",
      "2001:0db8:0007:0001:0:0:0:9",
      "2001:db8:7:1:a::b",
      "[2001:db8:7:1::c]",
      "2001:db8:7:1::d%eth0",
      "2001:db8:7:1:1:2:198.51.100.4",
    ];
    const sent = await statuses(rotating.map((address, i) => report(link, { lang: "de", message: `Rotation ${i}` }, address)));
    expect(count(sent, 200)).toBe(5);
    expect(count(sent, 429)).toBe(3);
    // The next /64 is another subscriber: its own budget.
    expect((await report(link, { lang: "de", message: "Nachbar" }, "2001:db8:7:2::1")).status).toBe(200);
  });

  it("keys IPv4 on the whole address, an IPv4-mapped IPv6 address on its IPv4 address", async () => {
    const s = await staffSession();
    const { link } = await publish(s);
    const sent = await statuses(
      Array.from({ length: 6 }, (_, i) => report(link, { lang: "de", message: `v4 ${i}` }, i % 2 ? "::ffff:198.51.100.9" : "198.51.100.9")),
    );
    expect(count(sent, 200)).toBe(5);
    expect(count(sent, 429)).toBe(1);
    expect((await report(link, { lang: "de", message: "next door" }, "198.51.100.10")).status).toBe(200);
  });

  it("is scoped to the museum: a network that used its budget in one museum still reports in another", async () => {
    const a = await staffSession();
    const b = await staffSession();
    const pageA = await publish(a);
    const pageB = await publish(b);
    const address = "203.0.113.50";
    const inA = await statuses(Array.from({ length: 6 }, (_, i) => report(pageA.link, { lang: "de", message: `A ${i}` }, address)));
    expect(count(inA, 429)).toBe(1);
    const inB = await statuses(Array.from({ length: 5 }, (_, i) => report(pageB.link, { lang: "de", message: `B ${i}` }, address)));
    expect(inB).toEqual([200, 200, 200, 200, 200]);
    expect(await storedReports(a.user.museumId)).toBe(5);
    expect(await storedReports(b.user.museumId)).toBe(5);
  });

  it("50 simultaneous reports from one network store exactly five", async () => {
    const s = await staffSession();
    const { link } = await publish(s);
    const sent = await statuses(
      Array.from({ length: 50 }, (_, i) => report(link, { lang: "it", message: `Insieme ${i}` }, `2001:db8:50:50::${i.toString(16)}`)),
    );
    expect(count(sent, 200)).toBe(5);
    expect(count(sent, 429)).toBe(45);
    expect(await storedReports(s.user.museumId)).toBe(5);
  }, 120_000);
});

describe("what the report form takes", () => {
  it("refuses a report in the museum's own language at the form (400, in that language) and stores nothing", async () => {
    const s = await staffSession();
    const { link } = await publish(s);
    const french = await report(link, { lang: "fr", message: "La traduction est fausse." }, "203.0.113.60");
    expect(french.status).toBe(400);
    const html = await french.text();
    expect(html).toMatch(/<html lang="fr" dir="ltr">/);
    expect(html).toContain("Cette page est dans la langue du musée\u00a0: il n’y a pas de traduction à signaler ici.");
    expect(html).toContain('role="alert"');
    // The form field decides; a French browser with a broken or missing field lands on the museum's language too.
    const noField = await report(link, { message: "Faux." }, "203.0.113.60", { headers: { "Accept-Language": "fr-FR" } });
    expect(noField.status).toBe(400);
    const junkField = await report(link, { lang: "%E0%A4%A", message: "Faux." }, "203.0.113.60", { headers: { Cookie: "muselingo_lang=fr" } });
    expect(junkField.status).toBe(400);
    expect(await storedReports(s.user.museumId)).toBe(0);
    // The same museum's page in German takes the report.
    expect((await report(link, { lang: "de", message: "Falsch." }, "203.0.113.60")).status).toBe(200);

    // An English museum refuses English, in English, and takes French.
    await env.DB.prepare("UPDATE museums SET source_lang = 'en' WHERE id = ?").bind(s.user.museumId).run();
    // Written behind the app's back: say so as the settings page would (decision 039), or the page's snapshot stays.
    await env.KV.put(changedKey(s.user.museumId), String(Date.now()));
    // Seen by this isolate once its last check of the snapshot is STAMP_CHECK_MS old (decision 133).
    await new Promise((resolve) => setTimeout(resolve, STAMP_CHECK_MS + 10));
    const english = await report(link, { lang: "en", message: "Wrong." }, "203.0.113.61");
    expect(english.status).toBe(400);
    expect(await english.text()).toContain("This page is in the museum’s own language: there is no translation to report here.");
    expect((await report(link, { lang: "fr", message: "Faux." }, "203.0.113.61")).status).toBe(200);
  });

  it("the report page in the museum's own language explains instead of showing the form", async () => {
    const s = await staffSession();
    const { link } = await publish(s);
    const page = await SELF.fetch(`${BASE}/r/${link}/report?lang=fr`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("il n’y a pas de traduction à signaler ici");
    expect(html).not.toContain("<textarea");
    expect(await (await SELF.fetch(`${BASE}/r/${link}/report?lang=de`)).text()).toContain("<textarea");
  });

  it("takes only application/x-www-form-urlencoded: multipart and others are 415, stored nothing", async () => {
    const s = await staffSession();
    const { link } = await publish(s);
    const multipart = new FormData();
    multipart.append("lang", "de");
    multipart.append("message", "Falsch übersetzt.");
    const sent = await SELF.fetch(`${BASE}/r/${link}/report`, { method: "POST", body: multipart, headers: { "CF-Connecting-IP": "203.0.113.70" } });
    expect(sent.status).toBe(415);
    expect(await sent.json()).toMatchObject({ error: { code: "unsupported_media_type" } });
    for (const type of ["text/plain", "application/json", "multipart/form-data; boundary=x"]) {
      expect((await report(link, { lang: "de", message: "x" }, "203.0.113.70", { headers: { "Content-Type": type } })).status).toBe(415);
    }
    // A charset parameter is still the form's type.
    expect(
      (
        await report(link, { lang: "de", message: "Mit Zeichensatz." }, "203.0.113.70", {
          headers: { "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8" },
        })
      ).status,
    ).toBe(200);
    expect(await storedReports(s.user.museumId)).toBe(1);
  });

  it("answers 405 with Allow: GET, HEAD, POST to PUT, DELETE, PATCH and OPTIONS, and stores nothing", async () => {
    const s = await staffSession();
    const { link } = await publish(s);
    for (const method of ["PUT", "DELETE", "PATCH", "OPTIONS"]) {
      for (const path of [`/r/${link}/report`, "/r/zzzzzzzz/report"]) {
        const r = await SELF.fetch(`${BASE}${path}`, {
          method,
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: method === "OPTIONS" ? undefined : "lang=de&message=x",
        });
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers.get("Allow")).toBe("GET, HEAD, POST");
        await r.arrayBuffer();
      }
    }
    for (const method of ["PUT", "DELETE", "PATCH", "OPTIONS", "POST"]) {
      const r = await SELF.fetch(`${BASE}/r/${link}`, { method });
      expect(r.status, method).toBe(405);
      expect(r.headers.get("Allow")).toBe("GET, HEAD");
      await r.arrayBuffer();
    }
    expect((await SELF.fetch(`${BASE}/r/${link}/report`, { method: "HEAD" })).status).toBe(200);
    expect(await storedReports(s.user.museumId)).toBe(0);
  });
});
