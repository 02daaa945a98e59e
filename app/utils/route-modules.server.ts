import type { EntryContext, ServerBuild } from "@remix-run/cloudflare";

// The visitor paths are matched in a smaller route table (workers/visitor-routes.ts, decision 133), and Remix hands
// the page renderer the modules of that table only, while the renderer walks the whole route manifest: a visitor
// path that renders a document (the not-found page of the catch-all route, a root error page) would stop on the
// first module it lacks ("No `routeModule` available"). The Worker records every route's module here; the
// document renderer (entry.server.tsx) completes its context from it. On `globalThis` under a registered symbol:
// the Worker and the Remix server build each bundle their own copy of this module.

const KEY = Symbol.for("muselingo.route-modules");
type Modules = EntryContext["routeModules"];

/** Records every route's module of the whole app (the Worker, once per isolate). */
export function recordRouteModules(build: ServerBuild): void {
  const modules = Object.fromEntries(Object.entries(build.routes).map(([id, route]) => [id, route.module])) as unknown as Modules;
  (globalThis as unknown as Record<symbol, Modules | undefined>)[KEY] = modules;
}

/** The render context with a module for every route of the manifest, when the request was matched in a smaller table. */
export function completeRouteModules(context: EntryContext): EntryContext {
  const all = (globalThis as unknown as Record<symbol, Modules | undefined>)[KEY];
  if (!all) return context;
  const missing = Object.keys(context.manifest.routes).some((id) => !(id in context.routeModules));
  return missing ? { ...context, routeModules: { ...all, ...context.routeModules } } : context;
}
