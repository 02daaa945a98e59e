import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { readOnlyPage } from "~/visitor/respond.server";
import { keypadLanguagesPage } from "~/visitor/tour/page.server";

export const action = readOnlyPage;

/** `GET /v/{museum}/n/languages`: the keypad's language picker. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return keypadLanguagesPage(request, context, params.museum ?? "");
}
