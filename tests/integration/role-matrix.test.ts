import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { can, type Permission, type Role } from "~/teams/roles";
import { segmentHash } from "~/translation/segments";
import { mp3Bytes } from "./narration-helpers";
import {
  BASE,
  createMember,
  createMuseumWithUser,
  get,
  logIn,
  memberSession,
  postJson,
  publishArticle,
  staffSession,
  texts,
  type StaffSession,
} from "./helpers";

// The role matrix (issue 18, decision 040): every read, manage, stats and upload call and every staff page,
// for the four roles of one museum. Allowed → the call's normal answer (2xx); refused → 403
// {error:{code:"forbidden"}} (pages: the 403 page) and nothing in the museum changed; another museum's
// admin → 404 on the calls that name an id. The expected permission of each route is written here, one
// line per route, independently of the route's code; `can` (app/teams/roles.ts) says which roles hold it.
// A route file that is in neither table fails the test: a new route cannot be forgotten.

type Fixture = {
  museumId: number;
  admin: StaffSession;
  articleId: number;
  qrcodeId: number;
  termId: number;
  /** A fresh article (admin's API), for calls that use one up. */
  article: () => Promise<number>;
  folder: () => Promise<string>;
  term: () => Promise<number>;
  trashed: () => Promise<number>;
  report: () => Promise<number>;
  /** A fresh visitor question about `articleId` (its topic). */
  question: (articleId: number) => Promise<string>;
  /** A fresh viewer of the museum (its user id), for the member calls. */
  member: () => Promise<number>;
  /** A fresh pending invitation of the museum (its id). */
  invitation: () => Promise<number>;
  /** A fresh tour of the museum at version 1 (its id). */
  tour: () => Promise<number>;
};

type Input = { path: string; body?: unknown; form?: Record<string, string>; multipart?: Record<string, string | File> };

interface Case {
  /** The route file (app/routes/…), without the extension. */
  route: string;
  /** A name when one route has several cases (a page's GET and its form intents). */
  label?: string;
  method: "GET" | "POST";
  perm: Permission;
  page?: boolean;
  input: (f: Fixture) => Input | Promise<Input>;
  /** Another museum's admin naming this museum's ids gets 404. */
  foreign?: boolean;
  /** The answer an allowed role gets (200 unless said). */
  ok?: number;
}

const PNG = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0,
  0,
  0,
  13,
  73,
  72,
  68,
  82,
  0,
  0,
  0,
  1,
  0,
  0,
  0,
  1,
  8,
  6,
  0,
  0,
  0,
  ...new Array(64).fill(0),
]);
const MP4 = (() => {
  const head = [0, 0, 0, 24, ..."ftypisom".split("").map((c) => c.charCodeAt(0)), 0, 0, 2, 0, ..."isommp41".split("").map((c) => c.charCodeAt(0))];
  return new Uint8Array([...head, ...new Array(4000).fill(0)]);
})();
const VTT = new TextEncoder().encode("WEBVTT\n\n00:00.000 --> 00:02.000\nBonjour\n");
let n = 0;
const fresh = (label: string) => `${label} ${++n}`;

/** A published article with a generated easy-to-read draft (the offline rewriter), for the calls that need one. */
async function easyDraft(f: Fixture) {
  const { articleId } = await publishArticle(f.admin, texts([fresh("Une amphore attique. Vers 530 avant notre ère.")]));
  const made = await f.admin.call("generate_easy_read", { articleId, version: 0 });
  expect(made.status).toBe(200);
  return { articleId, version: made.body.version as number };
}

const CASES: Case[] = [
  // manage
  { route: "api.manage.add_article", method: "POST", perm: "content.edit", input: () => ({ path: "/api/manage/add_article", body: { pathArray: [] } }) },
  {
    route: "api.manage.add_folder",
    method: "POST",
    perm: "content.edit",
    input: () => ({ path: "/api/manage/add_folder", body: { pathArray: [], id: fresh("Aile") } }),
  },
  {
    route: "api.manage.add_glossary_term",
    method: "POST",
    perm: "content.edit",
    input: () => ({ path: "/api/manage/add_glossary_term", body: { term: fresh("Terme") } }),
  },
  { route: "api.manage.add_qrcode", method: "POST", perm: "content.edit", input: () => ({ path: "/api/manage/add_qrcode", body: {} }) },
  {
    route: "api.manage.delete_glossary_term",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => ({ path: "/api/manage/delete_glossary_term", body: { id: await f.term() } }),
  },
  {
    route: "api.manage.delete_item",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => ({ path: "/api/manage/delete_item", body: { type: "article", id: await f.article(), pathArray: [] } }),
  },
  {
    route: "api.manage.move_item",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => ({
      path: "/api/manage/move_item",
      body: { type: "article", itemId: await f.article(), fromPathArray: [], toPathArray: [], toFolderId: "Salle" },
    }),
  },
  {
    route: "api.manage.pretranslate",
    method: "POST",
    perm: "translations.review",
    foreign: true,
    input: (f) => ({ path: "/api/manage/pretranslate", body: { articleId: f.articleId, langs: ["it"] } }),
  },
  {
    route: "api.manage.rename_article",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => ({ path: "/api/manage/rename_article", body: { articleId: await f.article(), newName: fresh("Nom") } }),
  },
  {
    route: "api.manage.rename_folder",
    method: "POST",
    perm: "content.edit",
    input: async (f) => ({ path: "/api/manage/rename_folder", body: { pathArray: [], itemName: await f.folder(), newName: fresh("Renommé") } }),
  },
  {
    route: "api.manage.reset_traductions",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: (f) => ({ path: "/api/manage/reset_traductions", body: { articleId: f.articleId } }),
  },
  {
    route: "api.manage.reset_translation",
    method: "POST",
    perm: "translations.review",
    foreign: true,
    input: (f) => ({ path: "/api/manage/reset_translation", body: { articleId: f.articleId, lang: "de" } }),
  },
  {
    route: "api.manage.dismiss_question",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => ({ path: "/api/manage/dismiss_question", body: { articleId: f.articleId, topic: await f.question(f.articleId) } }),
  },
  {
    route: "api.manage.answer_question",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => {
      const articleId = await f.article();
      return { path: "/api/manage/answer_question", body: { articleId, topic: await f.question(articleId), question: "Quand ?", answer: "Vers 530." } };
    },
  },
  {
    route: "api.manage.resolve_report",
    method: "POST",
    perm: "translations.review",
    foreign: true,
    input: async (f) => ({ path: "/api/manage/resolve_report", body: { reportId: await f.report() } }),
  },
  {
    route: "api.manage.restore_article_version",
    method: "POST",
    perm: "content.publish",
    foreign: true,
    input: (f) => ({ path: "/api/manage/restore_article_version", body: { id: f.articleId, version: 1 } }),
  },
  {
    route: "api.manage.publish_article",
    method: "POST",
    perm: "content.publish",
    foreign: true,
    input: async (f) => {
      // A fresh draft each time, so every allowed role has something to publish.
      const id = await f.article();
      const read = await f.admin.read(`/api/read/article?articleId=${id}`);
      return { path: "/api/manage/publish_article", body: { id, version: (read.body as { version: number }).version } };
    },
  },
  {
    route: "api.manage.discard_draft",
    method: "POST",
    perm: "content.publish",
    foreign: true,
    input: async (f) => {
      // A published article with a saved draft on top, so there is a draft to discard.
      const id = await f.article();
      const read = (await f.admin.read(`/api/read/article?articleId=${id}`)).body as { version: number; content: unknown[] };
      expect((await f.admin.call("publish_article", { id, version: read.version })).status).toBe(200);
      const saved = await f.admin.call("update_article", {
        articleId: id,
        version: read.version,
        newContent: [read.content[0], { type: "text", content: fresh("Brouillon") }],
      });
      expect(saved.status).toBe(200);
      return { path: "/api/manage/discard_draft", body: { id } };
    },
  },
  // Easy-to-read versions (decision 094): each allowed call gets a fresh published article (and draft).
  {
    route: "api.manage.generate_easy_read",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => ({
      path: "/api/manage/generate_easy_read",
      body: { articleId: (await publishArticle(f.admin, texts([fresh("Une amphore attique, vers 530.")]))).articleId, version: 0 },
    }),
  },
  {
    route: "api.manage.update_easy_read",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => {
      const d = await easyDraft(f);
      return { path: "/api/manage/update_easy_read", body: { articleId: d.articleId, version: d.version, texts: { "e1.content": fresh("Une amphore.") } } };
    },
  },
  {
    route: "api.manage.approve_easy_read",
    method: "POST",
    perm: "content.publish",
    foreign: true,
    input: async (f) => {
      const d = await easyDraft(f);
      return { path: "/api/manage/approve_easy_read", body: { articleId: d.articleId, version: d.version } };
    },
  },
  {
    route: "api.manage.delete_easy_read",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => ({ path: "/api/manage/delete_easy_read", body: { articleId: (await easyDraft(f)).articleId } }),
  },
  { route: "api.read.easy_read", method: "GET", perm: "content.read", foreign: true, input: (f) => ({ path: `/api/read/easy_read?articleId=${f.articleId}` }) },
  { route: "easy-read", page: true, method: "GET", perm: "content.edit", foreign: true, input: (f) => ({ path: `/easy-read?id=${f.articleId}` }) },
  {
    route: "easy-read",
    label: "generate",
    page: true,
    method: "POST",
    perm: "content.edit",
    input: async (f) => ({
      path: `/easy-read?id=${(await publishArticle(f.admin, texts([fresh("Un bol.")]))).articleId}`,
      form: { intent: "generate", version: "0" },
    }),
  },
  {
    route: "easy-read",
    label: "save",
    page: true,
    method: "POST",
    perm: "content.edit",
    input: async (f) => {
      const d = await easyDraft(f);
      return { path: `/easy-read?id=${d.articleId}`, form: { intent: "save", version: String(d.version), "f:e1.content": fresh("Un vase.") } };
    },
  },
  {
    route: "easy-read",
    label: "approve",
    page: true,
    method: "POST",
    perm: "content.publish",
    input: async (f) => {
      const d = await easyDraft(f);
      return { path: `/easy-read?id=${d.articleId}`, form: { intent: "approve", version: String(d.version) } };
    },
  },
  {
    route: "easy-read",
    label: "delete",
    page: true,
    method: "POST",
    perm: "content.edit",
    input: async (f) => ({ path: `/easy-read?id=${(await easyDraft(f)).articleId}`, form: { intent: "delete" } }),
  },
  {
    route: "api.manage.invite_member",
    method: "POST",
    perm: "museum.manage",
    input: () => ({ path: "/api/manage/invite_member", body: { email: `invite-${++n}@example.org`, role: "editor" } }),
  },
  {
    route: "api.manage.revoke_invitation",
    method: "POST",
    perm: "museum.manage",
    foreign: true,
    input: async (f) => ({ path: "/api/manage/revoke_invitation", body: { id: await f.invitation() } }),
  },
  {
    route: "api.manage.update_member",
    method: "POST",
    perm: "museum.manage",
    foreign: true,
    input: async (f) => ({ path: "/api/manage/update_member", body: { userId: await f.member(), role: "editor" } }),
  },
  {
    route: "api.manage.remove_member",
    method: "POST",
    perm: "museum.manage",
    foreign: true,
    input: async (f) => ({ path: "/api/manage/remove_member", body: { userId: await f.member() } }),
  },
  {
    route: "api.manage.password_reset_link",
    method: "POST",
    perm: "museum.manage",
    foreign: true,
    input: async (f) => ({ path: "/api/manage/password_reset_link", body: { userId: await f.member() } }),
  },
  {
    route: "api.manage.restore_item",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => ({ path: "/api/manage/restore_item", body: { type: "article", id: await f.trashed() } }),
  },
  {
    route: "api.manage.update_article",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => {
      const articleId = await f.article();
      const current = (await f.admin.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[]; version: number };
      return {
        path: "/api/manage/update_article",
        body: { articleId, version: current.version, newContent: [current.content[0], ...texts([fresh("Texte")])] },
      };
    },
  },
  // tours (issue 21)
  { route: "api.manage.add_tour", method: "POST", perm: "content.edit", input: () => ({ path: "/api/manage/add_tour", body: { name: fresh("Parcours") } }) },
  {
    route: "api.manage.update_tour",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => {
      const id = await f.tour();
      return { path: "/api/manage/update_tour", body: { id, version: 1, name: fresh("Renommé"), articleIds: [f.articleId] } };
    },
  },
  {
    route: "api.manage.delete_tour",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => ({ path: "/api/manage/delete_tour", body: { id: await f.tour() } }),
  },
  {
    route: "api.manage.update_stop_number",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: async (f) => ({ path: "/api/manage/update_stop_number", body: { articleId: await f.article(), stopNumber: 100 + ++n } }),
  },
  {
    route: "api.manage.update_qrcode",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: (f) => ({ path: "/api/manage/update_qrcode", body: { qrcodeId: f.qrcodeId, articleId: f.articleId } }),
  },
  {
    route: "api.manage.update_translation",
    method: "POST",
    perm: "translations.review",
    foreign: true,
    input: (f) => ({ path: "/api/manage/update_translation", body: { articleId: f.articleId, lang: "de", segmentId: "e1.content.0", text: fresh("Geprüft") } }),
  },
  {
    route: "api.manage.mark_reviewed",
    method: "POST",
    perm: "translations.review",
    foreign: true,
    input: async (f) => {
      // A fresh machine translation each time, so an allowed role has something to mark and a refusal has something to leave.
      const text = fresh("Maschinell");
      const hash = await segmentHash("Vers 530 avant notre ère.");
      await env.DB.batch([
        env.DB.prepare(
          "INSERT OR IGNORE INTO translation_segments (museum_id, source_lang, source_hash, source_text) VALUES (?, 'fr', ?, 'Vers 530 avant notre ère.')",
        ).bind(f.museumId, hash),
        env.DB.prepare(
          `INSERT INTO translation_memory (museum_id, source_lang, target_lang, source_hash, text, origin, engine, updated_at)
           VALUES (?, 'fr', 'de', ?, ?, 'machine', 'test', ?)
           ON CONFLICT DO UPDATE SET text = excluded.text, origin = 'machine', updated_at = excluded.updated_at`,
        ).bind(f.museumId, hash, text, Date.now()),
      ]);
      return { path: "/api/manage/mark_reviewed", body: { articleId: f.articleId, lang: "de", segments: [{ id: "e2.content.0", text }] } };
    },
  },
  // read
  { route: "api.read.article", method: "GET", perm: "content.read", foreign: true, input: (f) => ({ path: `/api/read/article?articleId=${f.articleId}` }) },
  {
    route: "api.read.article_versions",
    method: "GET",
    perm: "content.read",
    foreign: true,
    input: (f) => ({ path: `/api/read/article_versions?id=${f.articleId}` }),
  },
  {
    route: "api.read.article_version",
    method: "GET",
    perm: "content.read",
    foreign: true,
    input: (f) => ({ path: `/api/read/article_version?id=${f.articleId}&version=1` }),
  },
  { route: "api.read.articles", method: "GET", perm: "content.read", input: () => ({ path: "/api/read/articles" }) },
  { route: "api.read.audit_log", method: "GET", perm: "audit.read", input: () => ({ path: "/api/read/audit_log" }) },
  { route: "api.read.glossary", method: "GET", perm: "content.read", input: () => ({ path: "/api/read/glossary" }) },
  { route: "api.read.members", method: "GET", perm: "museum.manage", input: () => ({ path: "/api/read/members" }) },
  { route: "api.read.export", method: "GET", perm: "museum.manage", input: () => ({ path: "/api/read/export" }) },
  // The matrix's museum has content: an admin's import is refused as not empty (409), before the body is read.
  { route: "api.manage.import_museum", method: "POST", perm: "museum.manage", ok: 409, input: () => ({ path: "/api/manage/import_museum", body: {} }) },
  {
    route: "api.manage.import_museum_upload",
    method: "POST",
    perm: "museum.manage",
    ok: 409,
    input: () => ({ path: "/api/manage/import_museum_upload?step=start", body: {} }),
  },
  { route: "api.read.qrcode", method: "GET", perm: "content.edit", foreign: true, input: (f) => ({ path: `/api/read/qrcode?qrcodeId=${f.qrcodeId}` }) },
  {
    route: "api.read.qrcode_image",
    method: "GET",
    perm: "content.edit",
    foreign: true,
    input: (f) => ({ path: `/api/read/qrcode_image?qrcodeId=${f.qrcodeId}&format=svg` }),
  },
  { route: "api.read.qrcodes", method: "GET", perm: "content.edit", input: () => ({ path: "/api/read/qrcodes" }) },
  { route: "api.read.tours", method: "GET", perm: "content.read", input: () => ({ path: "/api/read/tours" }) },
  { route: "api.read.tour", method: "GET", perm: "content.read", foreign: true, input: async (f) => ({ path: `/api/read/tour?id=${await f.tour()}` }) },
  {
    route: "api.read.tour_qrcode",
    method: "GET",
    perm: "content.read",
    foreign: true,
    input: async (f) => ({ path: `/api/read/tour_qrcode?id=${await f.tour()}&format=svg` }),
  },
  {
    route: "api.read.translation",
    method: "GET",
    perm: "translations.review",
    foreign: true,
    input: (f) => ({ path: `/api/read/translation?articleId=${f.articleId}&lang=de` }),
  },
  {
    route: "api.read.translations",
    method: "GET",
    perm: "translations.review",
    foreign: true,
    input: (f) => ({ path: `/api/read/translations?articleId=${f.articleId}` }),
  },
  { route: "api.read.trash", method: "GET", perm: "content.edit", input: () => ({ path: "/api/read/trash" }) },
  { route: "api.tree", method: "GET", perm: "content.read", input: () => ({ path: "/api/tree" }) },
  // stats
  { route: "api.stats.scans-per-article", method: "GET", perm: "stats.read", input: () => ({ path: "/api/stats/scans-per-article" }) },
  { route: "api.stats.scans-per-language", method: "GET", perm: "stats.read", input: () => ({ path: "/api/stats/scans-per-language?format=csv" }) },
  {
    route: "api.stats.languages-per-article",
    method: "GET",
    perm: "stats.read",
    foreign: true,
    input: (f) => ({ path: `/api/stats/languages-per-article?articleId=${f.articleId}` }),
  },
  { route: "api.stats.tours", method: "GET", perm: "stats.read", input: () => ({ path: "/api/stats/tours?from=2026-03-01&to=2026-03-07" }) },
  // uploads
  {
    route: "api.upload.image",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: (f) => ({ path: "/api/upload/image", multipart: { articleId: String(f.articleId), image: new File([PNG], "a.png", { type: "image/png" }) } }),
  },
  {
    route: "api.upload.video",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: (f) => ({
      path: "/api/upload/video",
      multipart: { articleId: String(f.articleId), videoId: "abc123", video: new File([MP4], "a.mp4", { type: "video/mp4" }) },
    }),
  },
  {
    route: "api.upload.subtitles",
    method: "POST",
    perm: "content.edit",
    foreign: true,
    input: (f) => ({
      path: "/api/upload/subtitles",
      multipart: { articleId: String(f.articleId), videoId: "abc123", subtitles: new File([VTT], "a.vtt", { type: "text/vtt" }) },
    }),
  },
  // narration (issue 22): translations.review in the language
  {
    route: "api.upload.narration",
    method: "POST",
    perm: "translations.review",
    foreign: true,
    input: (f) => ({
      path: "/api/upload/narration",
      multipart: { articleId: String(f.articleId), lang: "de", narration: new File([mp3Bytes(4)], "a.mp3", { type: "audio/mpeg" }) },
    }),
  },
  {
    route: "api.manage.regenerate_narration",
    method: "POST",
    perm: "translations.review",
    foreign: true,
    input: (f) => ({ path: "/api/manage/regenerate_narration", body: { articleId: f.articleId, lang: "es" } }),
  },
  {
    route: "api.manage.delete_narration",
    method: "POST",
    perm: "translations.review",
    foreign: true,
    input: async (f) => {
      // A narration to remove each time, so an allowed role gets 200 and a refusal has something to leave.
      await env.DB.prepare(
        `INSERT INTO narrations (museum_id, article_id, lang, kind, r2_key, content_type, bytes) VALUES (?1, ?2, 'it', 'recorded', ?3, 'audio/mpeg', 10)
         ON CONFLICT (article_id, lang) DO NOTHING`,
      )
        .bind(f.museumId, f.articleId, `n/${f.museumId}/rec/${crypto.randomUUID()}.mp3`)
        .run();
      return { path: "/api/manage/delete_narration", body: { articleId: f.articleId, lang: "it" } };
    },
  },
  {
    route: "api.read.narrations",
    method: "GET",
    perm: "translations.review",
    foreign: true,
    input: (f) => ({ path: `/api/read/narrations?articleId=${f.articleId}` }),
  },
  // spreadsheet import (a dry run writes nothing; the CSV names no existing id, so no foreign case)
  {
    route: "api.manage.import_articles",
    method: "POST",
    perm: "content.edit",
    input: () => ({
      path: "/api/manage/import_articles?dryRun=true",
      multipart: { file: new File(["Nom;Texte\nMatrice;Bonjour\n"], "a.csv", { type: "text/csv" }) },
    }),
  },
  // XLIFF (issue 19 §3): the import writes a reviewed text for the fixture article's first sentence.
  {
    route: "api.read.xliff",
    method: "GET",
    perm: "translations.review",
    foreign: true,
    input: (f) => ({ path: `/api/read/xliff?articleId=${f.articleId}&lang=de` }),
  },
  {
    route: "api.manage.import_xliff",
    method: "POST",
    perm: "translations.review",
    input: (f) => ({
      path: "/api/manage/import_xliff",
      multipart: {
        file: new File(
          [
            `<xliff version="2.0" srcLang="fr" trgLang="de"><file id="f"><unit id="a${f.articleId}.e1.content.0"><segment><source>Une amphore attique.</source><target>${fresh("Datei")}</target></segment></unit></file></xliff>`,
          ],
          "de.xlf",
        ),
      },
    }),
  },
  // staff pages
  { route: "article", page: true, method: "GET", perm: "content.edit", foreign: true, input: (f) => ({ path: `/article?id=${f.articleId}` }) },
  { route: "article_.history", page: true, method: "GET", perm: "content.read", foreign: true, input: (f) => ({ path: `/article/history?id=${f.articleId}` }) },
  {
    route: "article_.history",
    label: "restore",
    page: true,
    method: "POST",
    perm: "content.publish",
    input: (f) => ({ path: `/article/history?id=${f.articleId}`, form: { intent: "restore", version: "1" } }),
  },
  { route: "articles.$", page: true, method: "GET", perm: "content.read", input: () => ({ path: "/articles" }) },
  { route: "audit", page: true, method: "GET", perm: "audit.read", input: () => ({ path: "/audit" }) },
  { route: "dashboard", page: true, method: "GET", perm: "session", input: () => ({ path: "/dashboard" }) },
  { route: "import", page: true, method: "GET", perm: "content.edit", input: () => ({ path: "/import" }) },
  { route: "import_.template", page: true, method: "GET", perm: "content.edit", input: () => ({ path: "/import/template?lang=en&format=xlsx" }) },
  { route: "glossary", page: true, method: "GET", perm: "content.read", input: () => ({ path: "/glossary" }) },
  {
    route: "glossary",
    label: "add",
    page: true,
    method: "POST",
    perm: "content.edit",
    input: () => ({ path: "/glossary", form: { intent: "add", term: fresh("Mot"), mode: "never" } }),
  },
  {
    route: "glossary",
    label: "delete",
    page: true,
    method: "POST",
    perm: "content.edit",
    input: async (f) => ({ path: "/glossary", form: { intent: "delete", id: String(await f.term()) } }),
  },
  { route: "qrcode", page: true, method: "GET", perm: "content.edit", foreign: true, input: (f) => ({ path: `/qrcode?id=${f.qrcodeId}` }) },
  { route: "qrcodes._index", page: true, method: "GET", perm: "content.edit", input: () => ({ path: "/qrcodes" }) },
  { route: "qrcodes.print", page: true, method: "GET", perm: "content.edit", input: (f) => ({ path: `/qrcodes/print?ids=${f.qrcodeId}` }) },
  { route: "settings", page: true, method: "GET", perm: "session", input: () => ({ path: "/settings" }) },
  {
    route: "settings",
    label: "museum",
    page: true,
    method: "POST",
    perm: "museum.manage",
    input: () => ({ path: "/settings", form: { intent: "museum", name: "Musée de la matrice", sourceLang: "fr", timezone: "Europe/Paris" } }),
  },
  // A wrong current password: every member may try, and it changes nothing.
  {
    route: "settings",
    label: "password",
    page: true,
    method: "POST",
    perm: "session",
    input: () => ({
      path: "/settings",
      form: { intent: "password", currentPassword: "not the password", newPassword: "long enough one", confirmPassword: "long enough one" },
    }),
    ok: 400,
  },
  { route: "stats", page: true, method: "GET", perm: "stats.read", input: () => ({ path: "/stats" }) },
  {
    route: "translations_.files.download",
    page: true,
    method: "GET",
    perm: "translations.review",
    foreign: true,
    input: (f) => ({ path: `/translations/files/download?what=a${f.articleId}&lang=de` }),
  },
  { route: "translations_.files", page: true, method: "GET", perm: "translations.review", input: () => ({ path: "/translations/files" }) },
  { route: "translations", page: true, method: "GET", perm: "translations.review", foreign: true, input: (f) => ({ path: `/translations?id=${f.articleId}` }) },
  { route: "team", page: true, method: "GET", perm: "museum.manage", input: () => ({ path: "/team" }) },
  { route: "museum-data", page: true, method: "GET", perm: "museum.manage", input: () => ({ path: "/museum-data" }) },
  {
    route: "team",
    label: "invite",
    page: true,
    method: "POST",
    perm: "museum.manage",
    input: () => ({ path: "/team", form: { intent: "invite", email: `page-invite-${++n}@example.org`, role: "viewer" } }),
  },
  {
    route: "team",
    label: "update_member",
    page: true,
    method: "POST",
    perm: "museum.manage",
    input: async (f) => ({ path: "/team", form: { intent: "update_member", userId: String(await f.member()), role: "editor" } }),
  },
  { route: "trash", page: true, method: "GET", perm: "content.edit", input: () => ({ path: "/trash" }) },
  { route: "questions", page: true, method: "GET", perm: "content.read", input: () => ({ path: "/questions" }) },
  { route: "tours._index", page: true, method: "GET", perm: "content.edit", input: () => ({ path: "/tours" }) },
  { route: "tours.$id", page: true, method: "GET", perm: "content.edit", foreign: true, input: async (f) => ({ path: `/tours/${await f.tour()}` }) },
];

/** Routes with no staff permission: public pages, the visitor's pages, the login, assets and plumbing. */
const PUBLIC: Record<string, string> = {
  $: "not-found page",
  _index: "landing page",
  "api.$": "unknown API call: 404",
  "api.languages": "public list of languages",
  "blog.$title": "public site",
  "blog._index": "public site",
  contact: "public site",
  healthz: "health check",
  login: "login",
  logout: "ends one's own session",
  "media.$": "media of published articles, for visitors",
  "narration.$": "narrations of published articles, for visitors",
  "r.$link": "visitor",
  display: "visitor",
  "r.$link_.languages": "visitor",
  "r.$link_.report": "visitor",
  "r.$link_.ask": "visitor",
  "resources.language": "interface language cookie",
  "robots[.]txt": "public",
  "rss[.]en[.]xml": "public",
  "rss[.]fr[.]xml": "public",
  session: "who is signed in",
  "sitemap[.]xml": "public",
  "v.$museum.$slug": "visitor (staff preview by session)",
  "invite.$token": "an invitation link: its token is the credential (tests/integration/team-invitations.test.ts)",
  "closed-archive.$token": "a closed museum's archive: the signed link given to its admin at sign-in is the credential (tests/integration/closing.test.ts)",
  "reset.$token": "a password-reset link: its token is the credential (tests/integration/team-members.test.ts)",
  "v.$museum.$slug_.languages": "visitor",
  "v.$museum.$slug_.report": "visitor",
  "v.$museum.$slug_.ask": "visitor",
  vtt: "visitor subtitles",
  "t.$link": "visitor: a tour (tests/integration/tour-visitor.test.ts)",
  "t.$link_.languages": "visitor",
  "t.$link_.$position": "visitor: a tour's stop",
  "t.$link_.$position_.languages": "visitor",
  "t.$link_.$position_.report": "visitor",
  "t.$link_.$position_.ask": "visitor",
  "v.$museum.n": "visitor: the stop-number keypad",
  "v.$museum.n_.languages": "visitor",
  // The offline visit (issue 21 §3, decisions 087-088): public like the tour pages.
  offline: "visitor offline page",
  "offline[.]js": "visitor offline save script",
  "sw[.]js": "visitor service worker",
  "t.$link_.offline[.]json": "visitor offline manifest of a tour",
  "api.visit.offline_views": "visitor views made offline (no login; rate limited)",
};

/**
 * The operator's console (decision 146): no museum role reaches it. Each page is GET with a museum admin's session
 * here and answers 404 (tests/integration/operators.test.ts has the operators' own side); sign-in, setup and
 * sign-out are the operators' public doors.
 */
const OPERATOR: Record<string, string | null> = {
  "operator._index": "/operator",
  "operator.audit[.]csv": "/operator/audit.csv",
  "operator.museums[.]csv": "/operator/museums.csv",
  "operator.museums.new": "/operator/museums/new",
  "operator.museums.$id": "/operator/museums/1",
  "operator.museums.$id.archive": "/operator/museums/1/archive",
  "operator.login": null,
  "operator.logout": null,
  "operator.setup.$token": null,
};

const ROUTE_FILES = Object.keys(import.meta.glob("../../app/routes/*.{ts,tsx}")).map((p) => p.replace(/^.*\/routes\//, "").replace(/\.tsx?$/, ""));

async function send(cookie: string, input: Input, method: "GET" | "POST") {
  if (method === "GET") return get(input.path, cookie);
  if (input.multipart) {
    const form = new FormData();
    for (const [k, v] of Object.entries(input.multipart)) form.append(k, v);
    return SELF.fetch(`${BASE}${input.path}`, { method: "POST", body: form, headers: { Cookie: cookie } });
  }
  if (input.form) {
    return SELF.fetch(`${BASE}${input.path}`, {
      method: "POST",
      headers: { Cookie: cookie, Host: "localhost", Origin: BASE },
      body: new URLSearchParams(input.form),
      redirect: "manual",
    });
  }
  return postJson(input.path, input.body, { Cookie: cookie });
}

/** Everything staff can change in a museum, as one string. */
async function digest(museumId: number): Promise<string> {
  const row = await env.DB.prepare(
    `SELECT
      (SELECT group_concat(id||':'||version||':'||ifnull(deleted_at,'')||':'||unformatted_name||':'||ifnull(folder_id,'')||':'||length(content)||':'||ifnull(published_version,''), ',') FROM articles WHERE museum_id = ?1) AS articles,
      (SELECT group_concat(id||':'||name||':'||ifnull(parent_id,'')||':'||ifnull(deleted_at,''), ',') FROM folders WHERE museum_id = ?1) AS folders,
      (SELECT group_concat(id||':'||ifnull(article_id,''), ',') FROM qrcodes WHERE museum_id = ?1) AS qrcodes,
      (SELECT group_concat(id||':'||version||':'||name, ',') FROM tours WHERE museum_id = ?1) AS tours,
      (SELECT group_concat(tour_id||':'||position||':'||article_id, ',') FROM tour_stops WHERE museum_id = ?1) AS tour_stops,
      (SELECT group_concat(id||':'||stop_number, ',') FROM articles WHERE museum_id = ?1 AND stop_number IS NOT NULL) AS stop_numbers,
      (SELECT group_concat(id||':'||term||':'||target_lang, ',') FROM glossary_terms WHERE museum_id = ?1) AS glossary,
      (SELECT count(*)||':'||total(length(text))||':'||total(updated_at) FROM translation_memory WHERE museum_id = ?1) AS memory,
      (SELECT count(*)||':'||total(length(text))||':'||total(updated_at) FROM translation_reviews WHERE museum_id = ?1) AS reviews,
      (SELECT group_concat(id||':'||ifnull(resolved_at,''), ',') FROM translation_reports WHERE museum_id = ?1) AS reports,
      (SELECT count(*) FROM media WHERE museum_id = ?1) AS media,
      (SELECT count(*) FROM audit_log WHERE museum_id = ?1) AS audit,
      (SELECT group_concat(id||':'||ifnull(used_at,'')||':'||ifnull(revoked_at,''), ',') FROM member_tokens WHERE museum_id = ?1) AS tokens,
      (SELECT name||':'||timezone||':'||source_lang FROM museums WHERE id = ?1) AS museum,
      (SELECT group_concat(id||':'||password_hash||':'||role||':'||languages, ',') FROM users WHERE museum_id = ?1) AS users`,
  )
    .bind(museumId)
    .first();
  return JSON.stringify(row);
}

const ROLES: Role[] = ["admin", "editor", "translator", "viewer"];
const caseName = (c: Case) => `${c.method} ${c.route}${c.label ? ` (${c.label})` : ""}`;

describe("role matrix", () => {
  let f: Fixture;
  const cookies = {} as Record<Role | "translatorDe" | "foreign", string>;

  beforeAll(async () => {
    const admin = await staffSession();
    const museumId = admin.user.museumId;
    cookies.admin = admin.cookie;
    const member = async (role: Role, languages: string[] = []) => (await memberSession(admin.user, { role, languages })).cookie;
    cookies.editor = await member("editor");
    cookies.translator = await member("translator");
    cookies.viewer = await member("viewer");
    cookies.translatorDe = await member("translator", ["de"]);
    cookies.foreign = await logIn(await createMuseumWithUser());

    expect((await admin.call("add_folder", { pathArray: [], id: "Salle" })).status).toBe(200);
    const published = await publishArticle(admin, texts(["Une amphore attique.", "Vers 530 avant notre ère."]));
    const term = await admin.call("add_glossary_term", { term: "Amasis" });
    const ok = <T>(r: { status: number; body: Record<string, unknown> }, key: string) => {
      expect(r.status).toBe(200);
      return r.body[key] as T;
    };
    f = {
      museumId,
      admin,
      articleId: published.articleId,
      qrcodeId: published.qrcodeId,
      termId: term.body.id as number,
      article: async () => ok<number>(await admin.call("add_article", { pathArray: [] }), "id"),
      folder: async () => {
        const name = fresh("Dossier");
        expect((await admin.call("add_folder", { pathArray: [], id: name })).status).toBe(200);
        return name;
      },
      term: async () => ok<number>(await admin.call("add_glossary_term", { term: fresh("Glossaire") }), "id"),
      trashed: async () => {
        const id = ok<number>(await admin.call("add_article", { pathArray: [] }), "id");
        expect((await admin.call("delete_item", { type: "article", id, pathArray: [] })).status).toBe(200);
        return id;
      },
      member: async () => (await createMember(admin.user, { role: "viewer", email: `member-${Date.now()}-${++n}@example.org` })).userId,
      invitation: async () => {
        const r = await admin.call("invite_member", { email: `pending-${++n}@example.org`, role: "viewer" });
        expect(r.status).toBe(200);
        const row = await env.DB.prepare("SELECT max(id) AS id FROM member_tokens WHERE museum_id = ? AND kind = 'invitation'")
          .bind(museumId)
          .first<{ id: number }>();
        return row!.id;
      },
      tour: async () => ok<number>(await admin.call("add_tour", { name: fresh("Parcours") }), "id"),
      question: async (articleId) => {
        const topic = fresh("sujet");
        await env.DB.prepare(
          "INSERT INTO visitor_questions (museum_id, article_id, day, lang, question, source_text, topic) VALUES (?, ?, 20000, 'de', 'Wann?', 'Quand ?', ?)",
        )
          .bind(museumId, articleId, topic)
          .run();
        return topic;
      },
      report: async () => {
        const row = await env.DB.prepare(
          "INSERT INTO translation_reports (museum_id, article_id, lang, message, created_at) VALUES (?, ?, 'de', 'Faute', ?) RETURNING id",
        )
          .bind(museumId, published.articleId, Date.now())
          .first<{ id: number }>();
        return row!.id;
      },
    };
  });

  it("has a line for every route file, and every line names an existing route", () => {
    const covered = new Set([...CASES.map((c) => c.route), ...Object.keys(PUBLIC), ...Object.keys(OPERATOR)]);
    expect(ROUTE_FILES.length).toBeGreaterThan(40);
    expect(
      ROUTE_FILES.filter((r) => !covered.has(r)),
      "route files missing from the role matrix",
    ).toEqual([]);
    expect(
      [...covered].filter((r) => !ROUTE_FILES.includes(r)),
      "lines for routes that do not exist",
    ).toEqual([]);
  });

  it("no museum role reaches an operator's page: 404 as if it did not exist", async () => {
    const admin = await staffSession();
    for (const path of Object.values(OPERATOR)) if (path) expect((await get(path, admin.cookie)).status, path).toBe(404);
  });

  // One test per call or page: a slow machine times one call out, not the whole matrix, and a failure names its
  // call. The museum is beforeAll's and is not rolled back between tests (storage is kept for the whole file):
  // every case makes what it uses up (a fresh article, term, member…), and compares the museum before and after
  // each refused call only. A call that names an id is also sent by another museum's admin, in the same test.
  for (const c of CASES) {
    it(`answers ${caseName(c)} as each role's permissions say${c.foreign ? ", another museum's admin 404" : ""}, and a refusal changes nothing`, async () => {
      const failures: string[] = [];
      for (const role of ROLES) {
        const input = await c.input(f);
        const before = await digest(f.museumId);
        const response = await send(cookies[role], input, c.method);
        const allowed = can({ role, languages: [] }, c.perm);
        const expected = allowed ? (c.ok ?? 200) : 403;
        let detail = "";
        if (!allowed) {
          if (!c.page) {
            const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
            if (body?.error?.code !== "forbidden") detail = ` body ${JSON.stringify(body)}`;
          } else await response.body?.cancel();
          if ((await digest(f.museumId)) !== before) detail += " and the museum changed";
        } else await response.body?.cancel();
        if (response.status !== expected || detail) failures.push(`${caseName(c)} as ${role}: ${response.status}, expected ${expected}${detail}`);
      }
      if (c.foreign) {
        const input = await c.input(f);
        const before = await digest(f.museumId);
        const response = await send(cookies.foreign, input, c.method);
        await response.body?.cancel();
        if (response.status !== 404) failures.push(`${caseName(c)} as another museum's admin: ${response.status}, expected 404`);
        if ((await digest(f.museumId)) !== before) failures.push(`${caseName(c)} as another museum's admin: the museum changed`);
      }
      expect(failures).toEqual([]);
    });
  }

  it("limits a translator to their languages", async () => {
    const de = { articleId: f.articleId, lang: "de", segmentId: "e1.content.0", text: "Eine attische Amphore." };
    const es = { ...de, lang: "es", text: "Un ánfora ática." };
    const before = await digest(f.museumId);
    const refusedWrite = await postJson("/api/manage/update_translation", es, { Cookie: cookies.translatorDe });
    expect([refusedWrite.status, ((await refusedWrite.json()) as { error: { code: string } }).error.code]).toEqual([403, "forbidden"]);
    const refusedRead = await get(`/api/read/translation?articleId=${f.articleId}&lang=es`, cookies.translatorDe);
    expect([refusedRead.status, ((await refusedRead.json()) as { error: { code: string } }).error.code]).toEqual([403, "forbidden"]);
    expect((await postJson("/api/manage/reset_translation", { articleId: f.articleId, lang: "es" }, { Cookie: cookies.translatorDe })).status).toBe(403);
    expect((await get(`/translations?id=${f.articleId}&lang=es`, cookies.translatorDe)).status).toBe(403);
    expect(await digest(f.museumId)).toBe(before);

    expect((await postJson("/api/manage/update_translation", de, { Cookie: cookies.translatorDe })).status).toBe(200);
    const read = await get(`/api/read/translation?articleId=${f.articleId}&lang=de`, cookies.translatorDe);
    expect(read.status).toBe(200);
    expect(JSON.stringify(await read.json())).toContain("Eine attische Amphore.");
    expect((await get(`/translations?id=${f.articleId}&lang=de`, cookies.translatorDe)).status).toBe(200);
    // Language codes compare without case.
    expect((await get(`/api/read/translation?articleId=${f.articleId}&lang=DE`, cookies.translatorDe)).status).toBe(200);
  });
});
