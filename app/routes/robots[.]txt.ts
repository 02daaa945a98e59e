import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { robotsTxt } from "~/blog/feeds";

/** `GET /robots.txt`: staff pages, the API and visitor pages kept out of search engines. */
export function loader({ request }: LoaderFunctionArgs) {
  return new Response(robotsTxt(new URL(request.url).origin), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
