// The visitor's pages are matched among the routes that can answer them (decision 133): for every path under
// /r/, /t/ and /v/ that table gives the route the whole app's table gives.
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import type { ServerBuild } from "@remix-run/cloudflare";
import { describe, expect, it } from "vitest";
import { isVisitorPath, visitorRoutes } from "../../workers/visitor-routes";

type Routes = ServerBuild["routes"];

/** The manifest as the nested routes Remix matches against. */
function tree(routes: Routes, parentId?: string): AgnosticRouteObject[] {
  return Object.values(routes)
    .filter((route) => route && (route.parentId ?? undefined) === parentId)
    .map((route) => {
      const children = tree(routes, route!.id);
      return route!.index
        ? { id: route!.id, index: true, path: route!.path }
        : { id: route!.id, path: route!.path, caseSensitive: route!.caseSensitive, children };
    }) as AgnosticRouteObject[];
}

const matched = (routes: Routes, path: string) => (matchRoutes(tree(routes), path) ?? []).map((m) => m.route.id);

function route(id: string, path: string | undefined, parentId: string | null = "root", index = false): Routes[string] {
  return { id, path, parentId: parentId ?? undefined, index, module: {} } as unknown as Routes[string];
}

const PATHS = [
  "/r/ABCD2345",
  "/R/abcd2345",
  "/r/abcd/languages",
  "/r/abcd/report",
  "/r/",
  "/r/a/b/c/d",
  "/r/%F0%9F%8F%BA",
  "/v/musee/amphore",
  "/v/musee/n",
  "/v/musee/n/languages",
  "/v/musee/amphore/report",
  "/v/musee",
  "/t/abcd",
  "/t/abcd/3",
  "/t/abcd/offline.json",
  "/t/abcd/3/languages",
  "/t/abcd/0012",
];

describe("visitorRoutes", () => {
  it("a made-up app: splats, a parameter first, layouts, nesting, optional segments", () => {
    const routes: Routes = Object.fromEntries(
      [
        route("root", "", null),
        route("routes/_index", undefined, "root", true),
        route("routes/_auth", undefined),
        route("routes/_auth.login", "login", "routes/_auth"),
        route("routes/r.$link", "r/:link"),
        route("routes/v", "v"),
        route("routes/v.$museum", ":museum", "routes/v"),
        route("routes/rss", "rss"),
        route("routes/$lang.about", ":lang/about"),
        route("routes/($x).t.$link", ":x?/t/:link"),
        route("routes/api.$", "api/*"),
        route("routes/$", "*"),
      ].map((r) => [r!.id, r]),
    );
    const kept = visitorRoutes(routes);
    expect(Object.keys(kept).sort()).toEqual(
      ["root", "routes/$", "routes/$lang.about", "routes/($x).t.$link", "routes/r.$link", "routes/v", "routes/v.$museum"].sort(),
    );
    for (const path of [...PATHS, "/v/x", "/t/x", "/r/about", "/R/x"]) expect(matched(kept, path), path).toEqual(matched(routes, path));
  });

  it("the app's own routes: the same route for every visitor path, and no other route kept", async () => {
    // @ts-expect-error The server build has no type declarations (built by `npm run build`, as the unit suite expects).
    const build = (await import("../../build/server/index.js")) as ServerBuild;
    const kept = visitorRoutes(build.routes);
    for (const path of PATHS) expect(matched(kept, path), path).toEqual(matched(build.routes, path));
    expect(matched(kept, "/r/abcd")).toEqual(["root", "routes/r.$link"]);
    expect(Object.keys(kept).every((id) => id === "root" || id === "routes/$" || /^routes\/[rtv]\./.test(id))).toBe(true);
    expect(Object.keys(kept).length).toBeLessThan(Object.keys(build.routes).length / 4);
  });

  it("isVisitorPath: /r/, /t/, /v/ and more after, in any case", () => {
    for (const yes of ["/r/x", "/T/x/1", "/v/m/s", "/r/"]) expect(isVisitorPath(yes), yes).toBe(true);
    for (const no of ["/r", "/rss.xml", "/vtt", "/videos/x", "//r/x", "/", "/api/r/x"]) expect(isVisitorPath(no), no).toBe(false);
  });
});
