import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { linkSchema } from "~/models/qrcode-input";
import { targetForLink, targetForSlug, type VisitorTarget } from "~/models/visitor.server";

/** Where the page lives and whether opening it counts (`/r/` scans, `/v/` previews). */
export interface VisitorPlace {
  /** The page's path, without query: `/r/{link}` or `/v/{museum}/{slug}` (escaped as a path). */
  base: string;
  /** Opening it without `?lang=` is a scan of a printed code. */
  scannable: boolean;
}

export interface Located {
  /** What the address leads to; null for an address that leads nowhere. */
  target: VisitorTarget | null;
  place: VisitorPlace;
}

/** A path segment as the page links to it again; text that cannot be encoded (a lone surrogate) links nowhere. */
function segment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return "-";
  }
}

/** `/r/{link}`: what the printed code leads to (null for a malformed or unknown link), and the page's place. */
export async function atLink(context: AppLoadContext, params: LoaderFunctionArgs["params"]): Promise<Located> {
  const raw = params.link ?? "";
  const link = linkSchema.safeParse(raw);
  const target = link.success ? await targetForLink(context.db, link.data) : null;
  return { target, place: { base: `/r/${segment(raw)}`, scannable: true } };
}

/** `/v/{museum}/{slug}`: the live article at that address (null otherwise), and the page's place. */
export async function atAddress(context: AppLoadContext, params: LoaderFunctionArgs["params"]): Promise<Located> {
  const museum = params.museum ?? "";
  const slug = params.slug ?? "";
  const target = await targetForSlug(context.db, museum, slug);
  return { target, place: { base: `/v/${segment(museum)}/${segment(slug)}`, scannable: false } };
}
