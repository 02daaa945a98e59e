import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { isbot } from "isbot";
import { hmacSha256Hex } from "~/lib/crypto";
import { clientNetwork } from "~/lib/network";
import { reserveAttempt } from "~/models/rate-limit.server";
import { readOfflinePass } from "~/offline/pass";
import { offlineViewsSchema, OFFLINE_BATCHES_PER_WINDOW } from "~/offline/views";
import { offlineViewEvents } from "~/offline/views.server";
import { countedUserAgent, visitorFingerprint } from "~/queue/visitor-fingerprint.server";
import { scanEventSchema } from "~/queue/scan-event";
import { run, postOnly } from "~/utils/api.server";
import { apiError, clientAddress, invalidInput, methodNotAllowed, readJsonBody } from "~/utils/http.server";

export const loader = postOnly;

/** A batch is a few hundred bytes per view: 100 views fit well under this. */
const BODY_LIMIT = 64 * 1024;

/**
 * `POST /api/visit/offline_views {client, views: [{path, lang, at, pass}]}`: the stop views a phone made while
 * offline, sent once the connection returns (decisions 088, 118). No login (visitors have none): 400 naming the
 * field for a malformed batch or a view older than 30 days, 429 past 30 batches per network in 15 minutes.
 * A view counts only with its saved copy's pass (given by the tour's offline.json), once per page and visit
 * window since the save, at its time held between the save and now: the same views sent twice, by another
 * client or User-Agent, or spread over claimed times, are counted once. Answers 202 `{counted, ignored}`.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const body = await readJsonBody(request, BODY_LIMIT);
  if (!body.ok) return body.response;
  const parsed = offlineViewsSchema.safeParse(body.value);
  if (!parsed.success) return invalidInput(parsed.error);
  return run(async () => {
    const now = Date.now();
    const address = clientAddress(request);
    const key = `offline-views:${await hmacSha256Hex(context.config.SESSION_SECRET, `net:${clientNetwork(address)}`)}`;
    const reservation = await reserveAttempt(context.db, [key], now, OFFLINE_BATCHES_PER_WINDOW);
    if (!reservation.allowed) {
      return apiError(429, "rate_limited", "Too many batches from this network; try again later", {
        retryAfter: reservation.retryAfter,
        headers: { "Retry-After": String(reservation.retryAfter) },
      });
    }
    const userAgent = request.headers.get("User-Agent");
    // As for pages (decision 032): no User-Agent or a bot is accepted and not counted.
    const counted = countedUserAgent(userAgent) !== null && !isbot(userAgent);
    const { events, ignored } = await offlineViewEvents(
      context.db,
      parsed.data,
      now,
      (at) => visitorFingerprint(context.config.SESSION_SECRET, address, userAgent, at),
      (token) => readOfflinePass(context.config.SESSION_SECRET, token),
      (link) => context.shards.bindLink(link),
    );
    if (counted && events.length > 0) await context.scans.sendBatch(events.map((event) => ({ body: scanEventSchema.parse(event) })));
    return new Response(JSON.stringify({ counted: counted ? events.length : 0, ignored: counted ? ignored : parsed.data.views.length }), {
      status: 202,
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  });
}
