import { describe, expect, it } from "vitest";
import { get, staffSession } from "./helpers";

// The editor page over the article API: the owner gets the article, everyone else the not-found page.
async function museumWithArticle(name = "Amphore étrusque") {
  const staff = await staffSession();
  const added = await staff.call("add_folder", { pathArray: [], id: "Salle 1" });
  expect(added.status).toBe(200);
  const article = (await staff.call("add_article", { pathArray: ["Salle 1"] })).body as { id: number; name: string };
  expect((await staff.call("rename_article", { articleId: article.id, newName: name })).status).toBe(200);
  return { ...staff, article };
}

async function page(path: string, cookie: string, headers: Record<string, string> = {}) {
  const response = await get(path, cookie, headers);
  return { status: response.status, html: await response.text() };
}

describe("/article?id=", () => {
  it("renders the owner's article: heading, fields, back link to its folder and the public page link", async () => {
    const { cookie, article, user } = await museumWithArticle();
    const { status, html } = await page(`/article?id=${article.id}`, cookie);
    expect(status).toBe(200);
    expect(html).toContain(`Article ${article.id} : Amphore étrusque`);
    expect(html).toContain(`value="${article.name}"`);
    expect(html).toContain('href="/articles/Salle%201"');
    expect(html).toContain(`href="/v/${user.museumSlug}/${article.name}?ignoreStats=true"`);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"');
  });

  it("speaks English when asked", async () => {
    const { cookie, article } = await museumWithArticle("Stèle");
    const { status, html } = await page(`/article?id=${article.id}`, cookie, { "Accept-Language": "en" });
    expect(status).toBe(200);
    expect(html).toContain("Open the public page");
    expect(html).toContain("Only lowercase letters, digits and dashes standing for spaces.");
  });

  it("answers the not-found page (404) for another museum's article", async () => {
    const owner = await museumWithArticle("Secret du voisin");
    const stranger = await staffSession();
    const { status, html } = await page(`/article?id=${owner.article.id}`, stranger.cookie);
    expect(status).toBe(404);
    expect(html).toContain("Il n&#x27;y a rien par ici...");
    expect(html).not.toContain("Secret du voisin");
  });

  it("answers 404 for a trashed article, and for one inside a trashed folder", async () => {
    const { cookie, article, call } = await museumWithArticle();
    const other = (await call("add_article", { pathArray: [] })).body as { id: number };
    expect((await call("delete_item", { type: "article", id: other.id })).status).toBe(200);
    expect((await page(`/article?id=${other.id}`, cookie)).status).toBe(404);

    expect((await call("delete_item", { type: "folder", id: "Salle 1", pathArray: [] })).status).toBe(200);
    const inTrashedFolder = await page(`/article?id=${article.id}`, cookie);
    expect(inTrashedFolder.status).toBe(404);
    expect(inTrashedFolder.html).toContain("Il n&#x27;y a rien par ici...");
  });

  it.each(["abc", "", "-1", "1.5", "0", "1e3", "99999999999999999999", "%00", "999999"])("answers 404, not 500, for id=%s", async (id) => {
    const { cookie } = await museumWithArticle();
    const { status, html } = await page(`/article?id=${id}`, cookie);
    expect(status).toBe(404);
    expect(html).toContain("Il n&#x27;y a rien par ici...");
  });

  it("answers 404 without any id, and sends a visitor without a session to the login", async () => {
    const { cookie, article } = await museumWithArticle();
    expect((await get("/article", cookie)).status).toBe(404);
    const anonymous = await get(`/article?id=${article.id}`);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(`/article?id=${article.id}`)}`);
  });
});
