import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { createInstance } from "i18next";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nOptions, resources } from "./i18n/config";
import { getLocale } from "./i18n/i18n.server";
import { NonceProvider } from "./utils/nonce";
import { takeOwnAnswer } from "./utils/own-answer.server";
import { completeRouteModules } from "./utils/route-modules.server";

const ABORT_DELAY_MS = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // A page's action that answered a JSON call on its path (app/utils/own-answer.server.ts): that answer, no page.
  const answer = takeOwnAnswer(loadContext);
  if (answer) return answer;

  const instance = createInstance();
  const lng = await getLocale(request);
  await instance.use(initReactI18next).init({ ...i18nOptions, lng, resources });

  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), ABORT_DELAY_MS);
  const body = await renderToReadableStream(
    <I18nextProvider i18n={instance}>
      <NonceProvider value={loadContext.cspNonce ?? ""}>
        <RemixServer context={completeRouteModules(remixContext)} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={loadContext.cspNonce} />
      </NonceProvider>
    </I18nextProvider>,
    {
      signal: controller.signal,
      nonce: loadContext.cspNonce,
      onError(error: unknown) {
        if (!controller.signal.aborted) console.error(error);
        responseStatusCode = 500;
      },
    },
  );
  body.allReady.then(() => clearTimeout(timeout)).catch(() => clearTimeout(timeout));

  // Crawlers get the whole document at once.
  if (isbot(request.headers.get("user-agent") || "")) await body.allReady;

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
