import { request } from "@playwright/test";
import { call, createArticle, createMember, createQrCode, createTour, readArticle } from "./builders";
import { expect, logIn, test } from "./fixtures";

// The e2e builders themselves (decision 138), through the API only (no page is drawn): what they make is what
// the journeys rely on, ten at once do not collide, and a member made by one has their role and languages.

test("a member made by the builder logs in with their role and languages; the staff page keeps its session", async ({ page, staff }) => {
  await logIn(page, staff);
  const translator = await createMember(page, { role: "translator", languages: ["it", "de", "de"], email: `Tr-${Date.now().toString(36)}@muselingo.test` });
  expect(translator).toMatchObject({ role: "translator", languages: ["de", "it"] });
  const viewer = await createMember(page, { role: "viewer" });
  // The staff member is still who the page is.
  await call(page, "add_folder", { pathArray: [], id: `Salle ${Date.now().toString(36)}` });

  const as = await request.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    expect((await as.post("/login", { data: { email: viewer.email, password: viewer.password } })).status()).toBe(200);
    expect((await as.post("/api/manage/add_article", { data: { pathArray: [] } })).status()).toBe(403);
    expect((await as.post("/login", { data: { email: translator.email, password: translator.password } })).status()).toBe(200);
    const { articleId } = await createArticle(page, { elements: [{ type: "text", content: "Une amphore." }] });
    expect((await as.get(`/api/read/translation?articleId=${articleId}&lang=de`)).status()).toBe(200);
    expect((await as.get(`/api/read/translation?articleId=${articleId}&lang=es`)).status()).toBe(403);
  } finally {
    await as.dispose();
  }
});

test("ten articles made at once each get their own id, address and code; drafts stay hidden, published ones show", async ({ page, staff }) => {
  await logIn(page, staff);
  const made = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      createArticle(page, { name: `Objet « ${i} » 😀`, elements: [{ type: "text", content: `Texte ${i}` }], published: i % 2 === 0, qrcode: true }),
    ),
  );
  expect(new Set(made.map((m) => m.articleId)).size).toBe(10);
  expect(new Set(made.map((m) => m.slug)).size).toBe(10);
  expect(new Set(made.map((m) => m.link)).size).toBe(10);
  for (const [i, m] of made.entries()) {
    expect(m.name).toBe(`Objet « ${i} » 😀`);
    const visitor = await page.request.get(`/r/${m.link!}`);
    expect(visitor.status(), `article ${i}`).toBe(i % 2 === 0 ? 200 : 404);
    if (i % 2 === 0) expect(await visitor.text()).toContain(`Texte ${i}`);
    expect((await readArticle(page, m.articleId)).status).toBe(i % 2 === 0 ? "published" : "never_published");
  }
});

test("a tour of the builder has its stops in order, an article twice, its description and duration; an unlinked code leads nowhere", async ({
  page,
  staff,
}) => {
  await logIn(page, staff);
  const a = await createArticle(page, { elements: [{ type: "text", content: "A" }], published: true, stopNumber: 7 });
  const b = await createArticle(page, { elements: [{ type: "text", content: "B" }], published: true });
  const tour = await createTour(page, {
    name: "Parcours « test »",
    articleIds: [a.articleId, b.articleId, a.articleId],
    description: "Deux œuvres.",
    minutes: 25,
  });
  const read = (await (await page.request.get(`/api/read/tour?id=${tour.id}`)).json()) as {
    stops: { position: number; articleId: number; stopNumber: number | null }[];
    minutes: number;
    description: string;
  };
  expect(read).toMatchObject({ minutes: 25, description: "Deux œuvres." });
  expect(read.stops.map((s) => [s.position, s.articleId, s.stopNumber])).toEqual([
    [1, a.articleId, 7],
    [2, b.articleId, null],
    [3, a.articleId, 7],
  ]);
  expect((await page.request.get(`/t/${tour.link}`)).status()).toBe(200);
  const loose = await createQrCode(page);
  // An unlinked code answers its "not linked yet" page, never an article.
  const unlinked = await page.request.get(`/r/${loose.link}`, { headers: { "Accept-Language": "fr" } });
  expect(await unlinked.text()).toContain("Ce code ne mène encore à aucun article");
});
