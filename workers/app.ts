import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// eslint-disable-next-line @typescript-eslint/ban-ts-comment -- the file may not exist yet, so expect-error would be wrong half the time
// @ts-ignore The server build exists once `npm run build` has run; it has no type declarations.
import * as build from "../build/server/index.js";
import { getLoadContext } from "../app/load-context";
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
} satisfies ExportedHandler<Env>;
