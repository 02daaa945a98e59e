import { afterEach, describe, expect, it, vi } from "vitest";
import { callApi, onUnauthorized } from "~/utils/api-client";

const answer = (status: number) =>
  vi.fn(async () => new Response(JSON.stringify(status === 200 ? { ok: true } : { error: { code: "unauthorized", message: "x" } }), { status }));

describe("onUnauthorized (decision 071)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("tells listeners the path of a call answered 401, not of other answers nor of the login call itself", async () => {
    const heard: string[] = [];
    const stop = onUnauthorized((path) => heard.push(path));
    vi.stubGlobal("fetch", answer(401));
    const result = await callApi("/api/manage/update_article", { articleId: 1 });
    expect(result).toMatchObject({ ok: false, status: 401 });
    await callApi("/login", { email: "a@b.c", password: "x" });
    vi.stubGlobal("fetch", answer(403));
    await callApi("/api/manage/update_article", {});
    vi.stubGlobal("fetch", answer(200));
    await callApi("/api/read/article");
    expect(heard).toEqual(["/api/manage/update_article"]);

    stop();
    vi.stubGlobal("fetch", answer(401));
    await callApi("/api/manage/update_article", {});
    expect(heard).toHaveLength(1);
  });
});
