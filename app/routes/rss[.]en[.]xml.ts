import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { rssFeed } from "~/blog/feeds";

/** `GET /rss.en.xml`: the English posts as RSS 2.0. */
export function loader({ request }: LoaderFunctionArgs) {
  return new Response(rssFeed(new URL(request.url).origin, "en"), {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
