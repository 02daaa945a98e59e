import { SAVE_SCRIPT } from "~/offline/scripts";
import { readOnlyPage } from "~/visitor/respond.server";

export const action = readOnlyPage;

/** `GET /offline.js`: the tour page's save control, loaded only when the visitor asks (decision 087). */
export const loader = () =>
  new Response(SAVE_SCRIPT, {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
