import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// eslint-disable-next-line @typescript-eslint/ban-ts-comment -- the file may not exist yet, so expect-error would be wrong half the time
// @ts-ignore The server build exists once `npm run build` has run; it has no type declarations.
import * as build from "../build/server/index.js";
import { createDb } from "../app/db/client.server";
import { getLoadContext } from "../app/load-context";
import { purgeExpiredTrash } from "../app/models/trash.server";
import { isJsonLogin, jsonLogin } from "../app/utils/login.server";
import { SESSION_COOKIE, sessionToken } from "../app/utils/session.server";
import { createNonce, crossSiteRefusal, isCrossSiteWrite, withSecurityHeaders } from "../app/utils/security.server";

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);

export default {
  async fetch(request, env, ctx) {
    const nonce = createNonce();
    const signedIn = sessionToken(request) !== null;
    if (isCrossSiteWrite(request)) return withSecurityHeaders(crossSiteRefusal(), nonce, signedIn);
    const loadContext = getLoadContext({
      request,
      context: { cloudflare: { env, ctx, cf: request.cf }, cspNonce: nonce },
    });
    // The spec's JSON login shares its path with the login page: answered here, before any page renders.
    const response = isJsonLogin(request) ? await jsonLogin(request, loadContext) : await handleRemixRequest(request, loadContext);
    return withSecurityHeaders(response, nonce, signedIn || response.headers.get("Set-Cookie")?.includes(SESSION_COOKIE) === true);
  },

  // Daily: what has been in the trash past its 30 days goes for good.
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      purgeExpiredTrash(createDb(env.DB)).then((purged) => console.log(`trash purge: ${JSON.stringify(purged)}`)),
    );
  },
} satisfies ExportedHandler<Env>;
