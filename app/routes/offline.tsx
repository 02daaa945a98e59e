import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { offlinePageResponse } from "~/visitor/offline.server";
import { readOnlyPage } from "~/visitor/respond.server";

export const action = readOnlyPage;

/**
 * `GET /offline?tour={link}&lang=xx`: "You are offline", in the visitor's language, with a link back to the
 * tour. A saved tour keeps it and shows it for any address it did not save (decision 087).
 */
export const loader = ({ request, context }: LoaderFunctionArgs) => offlinePageResponse(request, context);
