import { SERVICE_WORKER } from "~/offline/scripts";
import { readOnlyPage } from "~/visitor/respond.server";

export const action = readOnlyPage;

/**
 * `GET /sw.js`: the service worker of the offline visit (decision 087), scope `/`. Revalidated on every
 * check so a fix reaches phones at once; its own CSP lets it fetch this site only.
 */
export const loader = () =>
  new Response(SERVICE_WORKER, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-cache",
      "Content-Security-Policy": "default-src 'none'; connect-src 'self'",
    },
  });
