// Fixtures: the museum, folders, articles and code the fuzz runs against, and the manage calls it fuzzes.
import { SELF } from "cloudflare:test";
import { BASE, createMuseumWithUser, logIn, postJson } from "../helpers";
import { ACCEPT_LANGUAGES, type JsonCall } from "./cases";
import { fx, setFixtures } from "./harness";
import { pick, rngFor } from "./random";

export async function call(cookie: string, name: string, body: unknown) {
  const response = await postJson(`/api/manage/${name}`, body, { Cookie: cookie });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`fixture ${name} failed: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Writes the fixtures (two museums, folders, articles, a QR code, trashed items) and hands them to the harness. */
export async function setUpFixtures(): Promise<void> {
  const user = await createMuseumWithUser();
  const cookie = await logIn(user);
  await call(cookie, "add_folder", { pathArray: [], id: "Sentinelle" });
  await call(cookie, "add_folder", { pathArray: ["Sentinelle"], id: "Intérieur" });
  const sentinel = await call(cookie, "add_article", { pathArray: ["Sentinelle", "Intérieur"] });
  await call(cookie, "add_folder", { pathArray: [], id: "Salle" });
  await call(cookie, "add_folder", { pathArray: [], id: "Dest" });
  const inSalle = await call(cookie, "add_article", { pathArray: ["Salle"] });
  const atRoot = await call(cookie, "add_article", { pathArray: [] });
  await call(cookie, "add_folder", { pathArray: [], id: "Corbeille" });
  await call(cookie, "delete_item", { type: "folder", id: "Corbeille", pathArray: [] });
  const trashedArticle = await call(cookie, "add_article", { pathArray: [] });
  await call(cookie, "delete_item", { type: "article", id: trashedArticle.id, pathArray: [] });
  const trash = (await (await SELF.fetch(`${BASE}/api/read/trash`, { headers: { Cookie: cookie } })).json()) as { type: string; id: number }[];

  const qrcode = (await call(cookie, "add_qrcode", {})) as { id: number };

  const otherUser = await createMuseumWithUser();
  const otherCookie = await logIn(otherUser);
  await call(otherCookie, "add_folder", { pathArray: [], id: "Ailleurs" });
  await call(otherCookie, "add_article", { pathArray: ["Ailleurs"] });
  const otherTree = await (await SELF.fetch(`${BASE}/api/tree`, { headers: { Cookie: otherCookie } })).json();

  setFixtures({
    user,
    cookie,
    articleInSalle: inSalle.id as number,
    articleAtRoot: atRoot.id as number,
    qrcode: qrcode.id,
    sentinelArticle: sentinel.id as number,
    trashedFolderId: trash.find((t) => t.type === "folder")!.id,
    trashedArticleId: trash.find((t) => t.type === "article")!.id,
    other: { cookie: otherCookie, tree: otherTree },
  });
}

/** An unknown e-mail that has used up its failed logins, so further attempts answer 429 at once. */
export async function blockedEmail(): Promise<string> {
  const email = `blocked-${Date.now().toString(36)}@example.org`;
  for (let i = 0; i < 10; i++) {
    const response = await postJson("/login", { email, password: `wrong ${i}` }, clientIp(60_000 + i));
    await response.body?.cancel();
  }
  return email;
}

/** A distinct client address per login case, so the rate limiter does not hide the input checks. */
export const clientIp = (i: number) => ({ "CF-Connecting-IP": `198.18.${(i >> 8) & 255}.${i & 255}` });

export const manageCalls = (): JsonCall[] => [
  {
    call: "POST /api/manage/add_article",
    path: "/api/manage/add_article",
    bases: [{ label: "in Salle", body: () => ({ pathArray: ["Salle"] }) }],
    fields: [{ name: "pathArray", kind: "path", depth: "full" }],
    bigField: "pathArray",
    headers: (i): Record<string, string> => (i % 3 === 0 ? { "Accept-Language": pick(rngFor(`al${i}`), ACCEPT_LANGUAGES)[1] as string } : {}),
  },
  {
    call: "POST /api/manage/add_folder",
    path: "/api/manage/add_folder",
    bases: [{ label: "in Salle", body: (i) => ({ pathArray: ["Salle"], id: `Nouveau ${i}` }) }],
    fields: [
      { name: "pathArray", kind: "path" },
      { name: "id", kind: "name", depth: "full" },
    ],
    bigField: "id",
  },
  {
    call: "POST /api/manage/rename_article",
    path: "/api/manage/rename_article",
    bases: [{ label: "article in Salle", body: () => ({ articleId: fx.articleInSalle, newName: "Amphore" }) }],
    fields: [
      { name: "articleId", kind: "id", depth: "full" },
      { name: "newName", kind: "name", depth: "full" },
    ],
    bigField: "newName",
  },
  {
    call: "POST /api/manage/rename_folder",
    path: "/api/manage/rename_folder",
    bases: [{ label: "Salle", body: (i) => ({ pathArray: [], itemName: "Salle", newName: `Salle ${i}` }) }],
    fields: [
      { name: "pathArray", kind: "path" },
      { name: "itemName", kind: "name" },
      { name: "newName", kind: "name", depth: "full" },
    ],
    bigField: "newName",
  },
  {
    call: "POST /api/manage/delete_item",
    path: "/api/manage/delete_item",
    bases: [
      { label: "article", body: () => ({ type: "article", id: fx.articleInSalle, pathArray: ["Salle"] }) },
      { label: "folder", body: () => ({ type: "folder", id: "Dest", pathArray: [] }), fields: ["id"] },
    ],
    fields: [
      { name: "type", kind: "type", alsoFields: ["id"] },
      { name: "id", kind: "itemId" },
      { name: "pathArray", kind: "path" },
    ],
    bigField: "pathArray",
  },
  {
    call: "POST /api/manage/move_item",
    path: "/api/manage/move_item",
    bases: [
      { label: "article", body: () => ({ fromPathArray: ["Salle"], itemId: fx.articleInSalle, toPathArray: [], toFolderId: "Dest" }) },
      {
        label: "folder",
        body: () => ({ fromPathArray: [], itemId: "Salle", type: "folder", toPathArray: [], toFolderId: "Dest" }),
        fields: ["itemId", "type"],
      },
    ],
    fields: [
      { name: "fromPathArray", kind: "path" },
      { name: "itemId", kind: "itemId" },
      { name: "type", kind: "type", alsoFields: ["itemId"] },
      { name: "toPathArray", kind: "path", alsoFields: ["toFolderId"] },
      { name: "toFolderId", kind: "name" },
    ],
    bigField: "toFolderId",
  },
  {
    call: "POST /api/manage/update_article",
    path: "/api/manage/update_article",
    bases: [
      {
        label: "article at the root",
        body: (i) => ({ articleId: fx.articleAtRoot, newContent: [{ type: "metadatas", url: `fuzz-${i}` }], unformatted_name: "Amphore" }),
      },
    ],
    fields: [
      { name: "articleId", kind: "id" },
      { name: "newContent", kind: "content", depth: "full" },
      { name: "unformatted_name", kind: "name" },
    ],
    bigField: "unformatted_name",
  },
  {
    call: "POST /api/manage/add_qrcode",
    path: "/api/manage/add_qrcode",
    bases: [{ label: "empty object", body: () => ({}) }],
    // No field is accepted: whatever comes is refused (the call takes no payload).
    fields: [{ name: "extra", kind: "name" }],
    bigField: "extra",
  },
  {
    call: "POST /api/manage/update_qrcode",
    path: "/api/manage/update_qrcode",
    bases: [{ label: "link to the article at the root", body: () => ({ qrcodeId: fx.qrcode, articleId: fx.articleAtRoot }) }],
    fields: [
      { name: "qrcodeId", kind: "id", depth: "full" },
      { name: "articleId", kind: "nullableId" },
    ],
    bigField: "articleId",
  },
  {
    call: "POST /api/manage/restore_item",
    path: "/api/manage/restore_item",
    bases: [
      { label: "folder", body: () => ({ type: "folder", id: fx.trashedFolderId }) },
      { label: "article", body: () => ({ type: "article", id: fx.trashedArticleId }), fields: ["type"] },
    ],
    fields: [
      { name: "type", kind: "type" },
      { name: "id", kind: "id" },
    ],
    bigField: "type",
  },
  {
    // The article has no version: a clean call is a 404, so the fuzz never changes a draft.
    call: "POST /api/manage/restore_article_version",
    path: "/api/manage/restore_article_version",
    bases: [{ label: "a version of the article at the root", body: () => ({ id: fx.articleAtRoot, version: 1 }) }],
    fields: [
      { name: "id", kind: "id", depth: "full" },
      { name: "version", kind: "id", depth: "full" },
    ],
    bigField: "id",
  },
];

// ---------------------------------------------------------------------------------------------------
// One `it` per call
// ---------------------------------------------------------------------------------------------------
