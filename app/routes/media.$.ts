import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { serveMedia } from "~/utils/media-response.server";

/**
 * `GET|HEAD /media/{key}`: an uploaded image, video or subtitle file. Public (visitor pages show them);
 * only keys recorded in the `media` table are served, anything else is 404.
 */
export const loader = ({ request, context, params }: LoaderFunctionArgs) => serveMedia(request, context, params["*"] ?? "");
