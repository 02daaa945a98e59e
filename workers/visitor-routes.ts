import type { ServerBuild } from "@remix-run/cloudflare";
import { recordRouteModules } from "../app/utils/route-modules.server";

// The visitor's pages matched among the routes that can answer them (issue 31 §2, decision 133). Remix matches a
// request's path against every route of the app on each request (twice: the handler, then the data router),
// ranking and compiling each route's path anew: with 130 routes that was a third of a cached visitor view's CPU.
// Under /r/, /t/ and /v/ only a route whose first segment is that letter, a parameter or a splat can match; those
// routes and their parents are a table of twenty, in which Remix finds the same route the whole app would.

type Routes = ServerBuild["routes"];

/** A visitor page's path: `/r/…`, `/t/…`, `/v/…` (Remix compares paths without regard to case). */
export function isVisitorPath(pathname: string): boolean {
  return /^\/[rtv]\//i.test(pathname);
}

/** The first segment of a route's full path (its parents' paths before its own), or undefined for "/" and layouts. */
function firstSegment(routes: Routes, id: string): string | undefined {
  let first: string | undefined;
  const seen = new Set<string>();
  for (let route = routes[id]; route && !seen.has(route.id); route = route.parentId ? routes[route.parentId] : undefined) {
    seen.add(route.id);
    const segment = (route.path ?? "").split("/").find((s) => s !== "");
    if (segment !== undefined) first = segment;
  }
  return first;
}

/** Whether a route whose full path begins with `segment` could match a path under /r/, /t/ or /v/. */
function couldMatch(segment: string | undefined): boolean {
  if (segment === undefined) return false;
  const text = segment.toLowerCase();
  return text.startsWith(":") || text.startsWith("*") || text.endsWith("?") || /^[rtv]$/.test(text);
}

/** The routes that can answer a visitor path, with their parents (the root). */
export function visitorRoutes(routes: Routes): Routes {
  const kept: Routes = {};
  for (const id of Object.keys(routes)) {
    if (!couldMatch(firstSegment(routes, id))) continue;
    for (let route = routes[id]; route && !kept[route.id]; route = route.parentId ? routes[route.parentId] : undefined) kept[route.id] = route;
  }
  return kept;
}

/** The app's build with only the routes that can answer a visitor path. */
export function visitorBuild(build: ServerBuild): ServerBuild {
  // A document rendered for a visitor path (the catch-all's not-found page) needs every module (app/utils/route-modules.server.ts).
  recordRouteModules(build);
  return { ...build, routes: visitorRoutes(build.routes) };
}
