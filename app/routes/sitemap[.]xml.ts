import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { sitemap } from "~/blog/feeds";

/** `GET /sitemap.xml`: the public pages (landing, contact, blog and its posts). */
export function loader({ request }: LoaderFunctionArgs) {
  return new Response(sitemap(new URL(request.url).origin), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
