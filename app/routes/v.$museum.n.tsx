import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { readOnlyPage } from "~/visitor/respond.server";
import { keypadPage } from "~/visitor/tour/page.server";

export const action = readOnlyPage;

/**
 * `GET /v/{museum}/n`: the keypad, "Enter the number on the label"; `?number=12` leads (303) to the
 * article carrying that stop number (issue 21, decision 085). The slug "n" is reserved for it.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return keypadPage(request, context, params.museum ?? "");
}
