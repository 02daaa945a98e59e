import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// eslint-disable-next-line @typescript-eslint/ban-ts-comment -- the file may not exist yet, so expect-error would be wrong half the time
// @ts-ignore The server build exists once `npm run build` has run; it has no type declarations.
import * as build from "../build/server/index.js";
import { createDb } from "../app/db/client.server";
import { getLoadContext } from "../app/load-context";
import { purgeExpiredTrash } from "../app/models/trash.server";
import { createNonce, crossSiteRefusal, isCrossSiteWrite, withSecurityHeaders } from "../app/utils/security.server";

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);

export default {
  async fetch(request, env, ctx) {
    const nonce = createNonce();
    if (isCrossSiteWrite(request)) return withSecurityHeaders(crossSiteRefusal(), nonce);
    const loadContext = getLoadContext({
      request,
      context: { cloudflare: { env, ctx, cf: request.cf }, cspNonce: nonce },
    });
    return withSecurityHeaders(await handleRemixRequest(request, loadContext), nonce);
  },

  // Daily: what has been in the trash past its 30 days goes for good.
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      purgeExpiredTrash(createDb(env.DB)).then((purged) => console.log(`trash purge: ${JSON.stringify(purged)}`)),
    );
  },
} satisfies ExportedHandler<Env>;
