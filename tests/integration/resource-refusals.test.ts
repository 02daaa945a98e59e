import { describe, expect, it } from "vitest";
import { get, memberSession, staffSession } from "./helpers";

// Issue 29: a resource route (a route module without a page: a download, a file) that refused the way a page
// does (`refusePage`, `orPageError`, `requireUser`'s 403) answered the refusal's status with Remix's
// `{"message":"Unexpected Server Error"}` for a body. Its refusal is the API's JSON error (`refuseResource`).

type ErrorBody = { error?: { code?: string; field?: string } };

async function refusal(response: Response) {
  const type = response.headers.get("Content-Type") ?? "";
  const body = (await response.json().catch(() => null)) as ErrorBody | null;
  return { status: response.status, type: type.split(";")[0], code: body?.error?.code, field: body?.error?.field };
}

describe("resource routes refuse with the refusal, not 'Unexpected Server Error'", () => {
  it("/translations/files/download: an unknown choice, language or article, and a role or language not covered", async () => {
    const admin = await staffSession();
    const added = await admin.call("add_article", { pathArray: [] });
    expect(added.status).toBe(200);
    const articleId = added.body.id as number;
    const path = (query: string) => `/translations/files/download?${query}`;

    expect(await refusal(await get(path("what=bogus&lang=de"), admin.cookie))).toEqual({
      status: 404,
      type: "application/json",
      code: "not_found",
      field: "what",
    });
    expect(await refusal(await get(path(`what=a${articleId}&lang=xx-nope`), admin.cookie))).toEqual({
      status: 404,
      type: "application/json",
      code: "not_found",
      field: "lang",
    });
    expect(await refusal(await get(path("what=a999999999&lang=de"), admin.cookie))).toMatchObject({ status: 404, type: "application/json", code: "not_found" });

    const viewer = await memberSession(admin.user, { role: "viewer" });
    expect(await refusal(await get(path(`what=a${articleId}&lang=de`), viewer.cookie))).toEqual({
      status: 403,
      type: "application/json",
      code: "forbidden",
      field: undefined,
    });

    const translatorDe = await memberSession(admin.user, { role: "translator", languages: ["de"] });
    expect(await refusal(await get(path(`what=a${articleId}&lang=es`), translatorDe.cookie))).toEqual({
      status: 403,
      type: "application/json",
      code: "forbidden",
      field: "lang",
    });
    // What they may do still works: the file itself.
    const allowed = await get(path(`what=a${articleId}&lang=de`), translatorDe.cookie);
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain("<xliff");
  });

  it("/import/template: a role without content.edit gets the JSON 403", async () => {
    const admin = await staffSession();
    const translator = await memberSession(admin.user, { role: "translator" });
    expect(await refusal(await get("/import/template?lang=en&format=csv", translator.cookie))).toEqual({
      status: 403,
      type: "application/json",
      code: "forbidden",
      field: undefined,
    });
    const ok = await get("/import/template?lang=en&format=csv", admin.cookie);
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });

  it("no resource route refuses the way a page does", () => {
    // A route module without a default export is a resource route: Remix answers what it throws as it is only
    // when it is a Response. refusePage/orPageError throw data(), and requireUser does unless told otherwise.
    const sources = import.meta.glob("../../app/routes/*.{ts,tsx}", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
    const resources = Object.entries(sources).filter(([, source]) => !/^export default\b/m.test(source));
    expect(resources.length).toBeGreaterThan(20);
    const faults: string[] = [];
    for (const [file, source] of resources) {
      const name = file.replace(/^.*\/routes\//, "");
      if (/\b(refusePage|orPageError|actionRefusal|formRefusal)\(/.test(source)) faults.push(`${name}: a page refusal`);
      for (const call of source.matchAll(/\brequireUser\(([^)]*)\)/g))
        if (!call[1]!.includes("refuseResource")) faults.push(`${name}: requireUser without refuseResource`);
    }
    expect(faults).toEqual([]);
  });
});
