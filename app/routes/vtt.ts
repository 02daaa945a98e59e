import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getOnly } from "~/utils/api.server";
import { translatedSubtitles } from "~/visitor/subtitles.server";

export const action = getOnly;

/**
 * `GET /vtt?src=/media/{key}&lang=de`: a museum's subtitle file with its cues translated, for the
 * visitor page's video track. Public like the file itself; 404 for anything but a subtitle upload.
 */
export const loader = ({ request, context }: LoaderFunctionArgs) => translatedSubtitles(request, context);
