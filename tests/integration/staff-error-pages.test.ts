import { describe, expect, it } from "vitest";
import { get, staffSession } from "./helpers";
import { addMember } from "./team-helpers";

// Decision 136: a staff page that cannot be shown says what happened and what to do, in both languages, through
// its own error boundary (app/components/staff-error-boundary.tsx), rather than the root's bare status.

const EN = { "Accept-Language": "en" };

/** The page's status and its HTML with React's escapes undone, so sentences can be looked for as written. */
async function page(path: string, cookie: string, headers: Record<string, string> = {}) {
  const response = await get(path, cookie, headers);
  const html = (await response.text())
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
  return { status: response.status, html };
}

/** The error page's heading: the one that takes the focus. */
const heading = (html: string) => /<h1 tabindex="-1">([^<]*)<\/h1>/.exec(html)?.[1] ?? null;

async function museumWithArticle() {
  const staff = await staffSession();
  expect((await staff.call("add_folder", { pathArray: [], id: "Été" })).status).toBe(200);
  const inFolder = (await staff.call("add_article", { pathArray: ["Été"] })).body as { id: number };
  const atRoot = (await staff.call("add_article", { pathArray: [] })).body as { id: number };
  return { ...staff, inFolder: inFolder.id, atRoot: atRoot.id };
}

// Every staff page a viewer may not open (the role with the fewest permissions), by the permission it needs.
const VIEWER_REFUSED = [
  "/articles",
  "/articles/Salle",
  "/article?id=1",
  "/article/history?id=1",
  "/audit",
  "/easy-read?id=1",
  "/glossary",
  "/import",
  "/museum-data",
  "/qrcode?id=1",
  "/qrcodes",
  "/qrcodes/print",
  "/questions",
  "/team",
  "/tours",
  "/tours/1",
  "/translations?id=1",
  "/translations/files",
  "/trash",
];

describe("403: the member's role does not open the page", () => {
  it("says so on every staff page a viewer may not open, names the role and whom to ask, in French", async () => {
    const admin = await staffSession();
    const viewer = await addMember(admin, "viewer");
    for (const path of VIEWER_REFUSED) {
      const { status, html } = await page(path, viewer.cookie);
      expect(status, path).toBe(403);
      expect(heading(html), path).toBe("Vous n'avez pas accès à cette page");
      expect(html, path).toContain("Votre rôle dans ce musée, Lecteur, ne permet pas de l'ouvrir.");
      expect(html, path).toContain("demandez à un administrateur de votre musée de changer votre rôle");
      expect(html, path).toContain('href="/dashboard"');
      expect(html, path).not.toContain("Erreur 403");
      expect(html, path).toContain("<title>Accès refusé — Muselingo</title>");
    }
  });

  it("says so in English, for a translator on an admin's page", async () => {
    const admin = await staffSession();
    const translator = await addMember(admin, "translator", ["de"]);
    for (const path of ["/team", "/audit", "/trash"]) {
      const { status, html } = await page(path, translator.cookie, EN);
      expect(status, path).toBe(403);
      expect(heading(html), path).toBe("You don't have access to this page");
      expect(html, path).toContain("Your role in this museum, Translator, does not open it.");
      expect(html, path).toContain("ask an admin of your museum to change your role");
      expect(html, path).toContain("Back to the dashboard");
      expect(html, path).toContain('<html lang="en"');
      expect(html, path).toContain("<title>Access denied — Muselingo</title>");
    }
  });
});

describe("404: an article or a folder in the trash is named as such", () => {
  it("a deleted article: in the trash, with the way to it, in both languages, on each page of one article", async () => {
    const s = await museumWithArticle();
    expect((await s.call("delete_item", { type: "article", id: s.atRoot })).status).toBe(200);
    for (const path of [`/article?id=${s.atRoot}`, `/article/history?id=${s.atRoot}`, `/easy-read?id=${s.atRoot}`, `/translations?id=${s.atRoot}`]) {
      const fr = await page(path, s.cookie);
      expect(fr.status, path).toBe(404);
      expect(heading(fr.html), path).toBe("Il n'y a rien par ici...");
      expect(fr.html, path).toContain("Cet article a été supprimé : il est dans la corbeille");
      expect(fr.html, path).toContain('href="/trash"');
      expect(fr.html, path).toContain("Voir la corbeille");
      const en = await page(path, s.cookie, EN);
      expect(en.status, path).toBe(404);
      expect(en.html, path).toContain("This article was deleted: it is in the trash");
      expect(en.html, path).toContain("Open the trash");
      expect(en.html, path).toContain("Back to articles");
    }
  });

  it("an article inside a deleted folder, the folder's own address (NFD-typed too) and a folder inside it", async () => {
    const s = await museumWithArticle();
    expect((await s.call("add_folder", { pathArray: ["Été"], id: "Salle" })).status).toBe(200);
    expect((await s.call("delete_item", { type: "folder", id: "Été", pathArray: [] })).status).toBe(200);
    const article = await page(`/article?id=${s.inFolder}`, s.cookie);
    expect(article.status).toBe(404);
    expect(article.html).toContain("Cet article a été supprimé");
    for (const name of ["Été", "E\u0301te\u0301"]) {
      const folder = await page(`/articles/${encodeURIComponent(name)}`, s.cookie);
      expect(folder.status, name).toBe(404);
      expect(folder.html, name).toContain("Ce dossier a été supprimé : il est dans la corbeille, avec tout ce qu'il contient.");
      expect(folder.html, name).toContain('href="/trash"');
    }
    const inside = await page(`/articles/${encodeURIComponent("Été")}/Salle`, s.cookie, EN);
    expect(inside.status).toBe(404);
    expect(inside.html).toContain("This folder was deleted: it is in the trash, with everything in it.");
    // A name that no folder in the trash holds either is only not found.
    const nowhere = await page(`/articles/${encodeURIComponent("Été")}/Nulle%20part`, s.cookie, EN);
    expect(nowhere.status).toBe(404);
    expect(nowhere.html).toContain("This folder does not exist (any more)");
  });

  it("a live folder of the same name as a trashed one is shown, not the trash", async () => {
    const s = await museumWithArticle();
    expect((await s.call("delete_item", { type: "folder", id: "Été", pathArray: [] })).status).toBe(200);
    expect((await s.call("add_folder", { pathArray: [], id: "Été" })).status).toBe(200);
    expect((await page(`/articles/${encodeURIComponent("Été")}`, s.cookie)).status).toBe(200);
  });

  it("a translator, who cannot restore, is told whom to ask and gets no link to the trash", async () => {
    const s = await museumWithArticle();
    const translator = await addMember(s, "translator");
    expect((await s.call("delete_item", { type: "article", id: s.atRoot })).status).toBe(200);
    const fr = await page(`/article/history?id=${s.atRoot}`, translator.cookie);
    expect(fr.status).toBe(404);
    expect(fr.html).toContain("Cet article a été supprimé");
    expect(fr.html).toContain("Un éditeur ou un administrateur de votre musée peut l'y restaurer");
    expect(fr.html).not.toContain('href="/trash"');
    const en = await page(`/article/history?id=${s.atRoot}`, translator.cookie, EN);
    expect(en.html).toContain("An editor or an admin of your museum can restore it from there");
  });

  it("never says that another museum's article or folder is in its trash", async () => {
    const owner = await museumWithArticle();
    expect((await owner.call("delete_item", { type: "article", id: owner.atRoot })).status).toBe(200);
    expect((await owner.call("delete_item", { type: "folder", id: "Été", pathArray: [] })).status).toBe(200);
    const stranger = await staffSession();
    for (const path of [`/article?id=${owner.atRoot}`, `/article?id=${owner.inFolder}`, `/articles/${encodeURIComponent("Été")}`]) {
      const { status, html } = await page(path, stranger.cookie);
      expect(status, path).toBe(404);
      expect(html, path).not.toContain("supprimé");
      expect(html, path).not.toContain('href="/trash"');
    }
  });
});

describe("404: nothing at this address, with the way back to the list", () => {
  it.each([
    ["/article?id=999999", "Aucun article de votre musée ne se trouve à cette adresse", "/articles", "No article of your museum is at this address"],
    ["/article?id=abc", "Aucun article de votre musée ne se trouve à cette adresse", "/articles", "No article of your museum is at this address"],
    ["/articles/Nulle%20part", "Ce dossier n'existe pas (ou plus)", "/articles", "This folder does not exist (any more)"],
    ["/tours/999999", "Un parcours supprimé l'est définitivement", "/tours", "A deleted tour is gone for good"],
    ["/qrcode?id=999999", "Aucun code QR de votre musée ne se trouve à cette adresse", "/qrcodes", "No QR code of your museum is at this address"],
  ])("%s", async (path, french, back, english) => {
    const { cookie } = await staffSession();
    const fr = await page(path, cookie);
    expect(fr.status).toBe(404);
    expect(heading(fr.html)).toBe("Il n'y a rien par ici...");
    expect(fr.html).toContain(french);
    expect(fr.html).toContain(`href="${back}"`);
    expect(fr.html).not.toContain("supprimé : il est dans la corbeille");
    const en = await page(path, cookie, EN);
    expect(en.status).toBe(404);
    expect(heading(en.html)).toBe("Nothing there...");
    expect(fr.html).toContain("<title>Page introuvable — Muselingo</title>");
    expect(en.html).toContain("<title>Page not found — Muselingo</title>");
    expect(en.html).toContain(english);
  });

  it("answers 404, never 500, to odd folder addresses", async () => {
    const { cookie } = await staffSession();
    for (const path of ["%F0%9F%98%80", "%E2%80%AE%E2%80%8B", "a/%2E%2E/b", "%ED%A0%80", `${"x".repeat(2000)}`, "%00", "Été/%C3%A9t%C3%A9/../x"]) {
      const { status } = await page(`/articles/${path}`, cookie);
      expect([400, 404], path).toContain(status);
    }
  });
});

describe("under load and races", () => {
  it("50 identical requests at once for a trashed article all get the trash page", async () => {
    const s = await museumWithArticle();
    expect((await s.call("delete_item", { type: "folder", id: "Été", pathArray: [] })).status).toBe(200);
    const pages = await Promise.all(Array.from({ length: 50 }, () => page(`/article?id=${s.inFolder}`, s.cookie)));
    for (const p of pages) {
      expect(p.status).toBe(404);
      expect(p.html).toContain("Cet article a été supprimé");
    }
  });

  it("a restore racing the page's requests: each answer is the article or the trash page, never a 500", async () => {
    const s = await museumWithArticle();
    expect((await s.call("delete_item", { type: "article", id: s.atRoot })).status).toBe(200);
    const [restored, ...pages] = await Promise.all([
      s.call("restore_item", { type: "article", id: s.atRoot }),
      ...Array.from({ length: 10 }, () => page(`/article?id=${s.atRoot}`, s.cookie)),
    ]);
    expect(restored.status).toBe(200);
    for (const p of pages) {
      // A view that found the article trashed and then, once restored, not in the trash any more says only "not found".
      if (p.status === 404) expect(p.html).toMatch(/Cet article a été supprimé|Aucun article de votre musée/);
      else expect(p.status).toBe(200);
    }
    expect((await page(`/article?id=${s.atRoot}`, s.cookie)).status).toBe(200);
  });
});
