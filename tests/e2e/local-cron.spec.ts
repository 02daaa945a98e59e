import { readFileSync } from "node:fs";
import { get } from "node:http";
import { expect, test, writeD1 } from "./fixtures";

// Issue 29 §6 (decision 121): docs/api.md tells how to run the cron locally, and the address it gave
// (miniflare's /cdn-cgi/handler/scheduled) answered 500 under `npm start`. This runs what the document says,
// against the suite's own `wrangler dev` started as `npm start` starts it, and checks the daily run really ran.

const json = { "Content-Type": "application/json" };

/**
 * GET on a connection of its own, as `curl` does: the wrangler run in between (writeD1, seconds) outlasts the
 * server's keep-alive, and a pooled connection it closed meanwhile would fail the request for nothing.
 */
function curl(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
    }).on("error", reject);
  });
}

/** The local cron addresses docs/api.md gives, on this suite's server. */
function documentedCronUrls(base: string): string[] {
  const doc = readFileSync("docs/api.md", "utf8");
  const at = doc.indexOf("Locally");
  const urls = [...doc.slice(at, at + 800).matchAll(/curl "http:\/\/127\.0\.0\.1:8787(\/[^"]*)"/g)].map((m) => `${base}${m[1]}`);
  return urls;
}

test("the local cron trigger docs/api.md gives runs the daily purge of the trash", async ({ staff, baseURL }) => {
  const base = new URL(baseURL ?? "http://localhost:8790").origin.replace("//localhost:", "//127.0.0.1:");
  const urls = documentedCronUrls(base);
  expect(urls.length, "docs/api.md gives a local cron address").toBeGreaterThan(0);

  const login = await fetch(`${base}/login`, { method: "POST", headers: json, body: JSON.stringify({ email: staff.email, password: staff.password }) });
  expect(login.status).toBe(200);
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith("muselingo_session="))!
    .split(";")[0]!;
  const call = async (name: string, body: unknown) => {
    const response = await fetch(`${base}/api/manage/${name}`, { method: "POST", headers: { ...json, Cookie: cookie }, body: JSON.stringify(body) });
    expect(response.status, name).toBe(200);
    return response.json();
  };
  // A folder in the trash for 31 days: the daily run deletes it for good.
  const name = `Salle oubliée ${Date.now().toString(36)}`;
  await call("add_folder", { pathArray: [], id: name });
  await call("delete_item", { type: "folder", id: name, pathArray: [] });
  const where = `name = '${name.replace(/'/g, "''")}' AND museum_id = (SELECT id FROM museums WHERE slug = '${staff.museumSlug}')`;
  const count = () => (writeD1(`SELECT COUNT(*) AS n FROM folders WHERE ${where};`, staff).at(-1) as { n: number }[])[0]!.n;
  writeD1(`UPDATE folders SET deleted_at = deleted_at - ${31 * 24 * 3600 * 1000} WHERE ${where};`, staff);
  expect(count()).toBe(1);

  for (const url of urls) {
    const response = await curl(url);
    expect([url, response.status, response.text]).toEqual([url, 200, "Ran scheduled event"]);
  }
  expect(count(), "the folder is purged").toBe(0);
});
