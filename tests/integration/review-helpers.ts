import { env, SELF } from "cloudflare:test";
import { expect } from "vitest";
import { BASE, get, type StaffSession } from "./helpers";

export type Segment = {
  id: string;
  source: string;
  kind: string;
  element: number;
  cue?: { start: string; end: string; file: string };
  text: string | null;
  origin: string | null;
  stale: boolean;
  previousSource?: string;
  machineText?: string | null;
};

export const VTT = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nVoici l'amphore.\n\n00:00:04.000 --> 00:00:06.500 align:start\nElle vient d'Athènes.\nVers 530.\n";

/** Uploads a WebVTT file for the article's video `abc123`; its `/media/…` address. */
export async function uploadSubtitles(s: StaffSession, articleId: number, vtt: string): Promise<string> {
  const form = new FormData();
  form.append("videoId", "abc123");
  form.append("articleId", String(articleId));
  form.append("subtitles", new File([vtt], "fr.vtt", { type: "text/vtt" }));
  const uploaded = await SELF.fetch(`${BASE}/api/upload/subtitles`, { method: "POST", body: form, headers: { Cookie: s.cookie } });
  expect(uploaded.status).toBe(200);
  return ((await uploaded.json()) as { mediaUrl: string }).mediaUrl;
}

export const video = (subtitles: string) => ({ type: "video", videoId: "abc123", src: "", subtitles });

export async function review(s: Pick<StaffSession, "read">, articleId: number, lang: string) {
  const r = await s.read(`/api/read/translation?articleId=${articleId}&lang=${lang}`);
  expect(r.status).toBe(200);
  return r.body as { segments: Segment[]; sourceLang: string };
}

export async function languages(s: Pick<StaffSession, "read">, articleId: number) {
  const r = await s.read(`/api/read/translations?articleId=${articleId}`);
  expect(r.status).toBe(200);
  return r.body as { total: number; languages: { lang: string; segments: number; reviewed: number; stale: number }[] };
}

export const vtt = async (src: string, lang: string) => (await get(`/vtt?src=${encodeURIComponent(src)}&lang=${lang}`)).text();

/** Waits until `/vtt` stored its translation of `src` in KV (written after the answer, in `waitUntil`). */
export async function vttCached(src: string, lang: string): Promise<string[]> {
  const prefix = `vtt:v1:${src.slice("/media/".length)}:${lang}`;
  for (let i = 0; i < 100; i++) {
    const { keys } = await env.KV.list({ prefix });
    if (keys.length > 0) return keys.map((k) => k.name);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no cached /vtt under ${prefix}`);
}
