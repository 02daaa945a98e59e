import { flatRoutes } from "@remix-run/fs-routes";
import type { RouteConfig } from "@remix-run/route-config";

// File-based flat routes, as before; the route config is React Router 7's way in.
export default flatRoutes() satisfies RouteConfig;
