import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { displayPage } from "~/visitor/display/display.server";

/** `GET|POST /display?back=`: the visitor's display choices (decision 097), a form without script. */
export const loader = ({ request, context }: LoaderFunctionArgs) => displayPage(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => displayPage(request, context);
