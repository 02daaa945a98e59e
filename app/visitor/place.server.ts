import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { linkSchema } from "~/models/qrcode-input";
import { withEasyRead } from "~/easy-read/easy-read.server";
import { withNarrations } from "~/narration/narrations.server";
import { targetForLink, targetForSlug, type VisitorTarget } from "~/models/visitor.server";
import { snapshotTarget, type Found, type Owned, type SnapshotDeps } from "~/visitor-cache/snapshot.server";

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
  /** The page's KV reads remembered with its snapshot in this isolate (see `readThrough`). */
  memo?: Map<string, unknown>;
  /** A staff member of the museum previews the draft (decision 041): read from D1, never kept, never counted. */
  draftPreview?: boolean;
  /** The article is opened as a stop of a tour (`/t/{link}/{position}`, issue 21): the page shows its place in it. */
  tourStop?: TourStopPlace;
}

/** Where a stop sits in its tour, for "Stop 3 of 12", previous, next and the tour's name (decision 076). */
export interface TourStopPlace {
  tourId: number;
  /** The tour page's path, `/t/{link}`. */
  tourBase: string;
  /** The tour's link: the keypad opened from the stop leads back into this tour (decision 113). */
  tourLink: string;
  tourName: string;
  /** The language the tour's name is written in (the museum's), marked on it where the page is in another. */
  tourLang: string;
  position: number;
  total: number;
  /** The museum has stop numbers on its labels: the page links to the keypad (decision 086). */
  keypad?: string;
}

/** A path segment as the page links to it again; text that cannot be encoded (a lone surrogate) links nowhere. */
function segment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return "-";
  }
}

/** What a visitor snapshot holds besides the target itself: the approved easy-to-read version and the narrations. */
async function enriched(db: AppLoadContext["db"], target: VisitorTarget | null): Promise<VisitorTarget | null> {
  if (!target) return null;
  const [easy, narrated] = await Promise.all([withEasyRead(db, target), withNarrations(db, target)]);
  return { ...target, easyRead: easy?.easyRead ?? null, narrations: narrated?.narrations ?? {} };
}

/**
 * What the address leads to: through its snapshot (decision 039) where staff changes are published, else
 * (`vite dev`, a context built by hand) straight from D1.
 */
export function snapshotted<T extends Owned = VisitorTarget>(
  context: AppLoadContext,
  address: string,
  load: () => Promise<T | null>,
  valid?: (target: T) => boolean,
): Promise<Pick<Found<T>, "target"> & Partial<Pick<Found<T>, "memo">>> {
  if (!context.visitorSnapshots) return load().then((target) => ({ target }));
  const deps: SnapshotDeps = {
    kv: context.kv,
    waitUntil: (promise) => context.cloudflare.ctx.waitUntil(promise),
    timing: context.timing,
    // Staff see their own change at once, whichever isolate answers (decision 133).
    freshStamp: context.sessionCookie === true,
  };
  return snapshotTarget(deps, address, load, valid);
}

const located = (context: AppLoadContext, address: string, load: () => Promise<VisitorTarget | null>): Promise<Pick<Located, "target" | "memo">> =>
  snapshotted(context, address, load);

/** `/r/{link}`: what the printed code leads to (null for a malformed or unknown link), and the page's place. */
export async function atLink(context: AppLoadContext, params: LoaderFunctionArgs["params"]): Promise<Located> {
  const raw = params.link ?? "";
  const link = linkSchema.safeParse(raw);
  const found = link.success
    ? await located(context, `r/${link.data}`, () => targetForLink(context.db, link.data).then((t) => enriched(context.db, t)))
    : { target: null };
  return { ...found, place: { base: `/r/${segment(raw)}`, scannable: true } };
}

/**
 * `/v/{museum}/{slug}`: the live article at that address (null otherwise), and the page's place. With
 * `staffMuseumId` (the museum of a session allowed to read content, when the page asks `?preview=draft`),
 * the draft instead, straight from D1 and never into a snapshot; for any other museum it is ignored.
 */
export async function atAddress(context: AppLoadContext, params: LoaderFunctionArgs["params"], staffMuseumId?: number): Promise<Located> {
  const museum = params.museum ?? "";
  const slug = params.slug ?? "";
  if (staffMuseumId !== undefined) {
    const draft = await targetForSlug(context.db, museum, slug, "draft");
    if (draft && draft.museum.id === staffMuseumId)
      return { target: draft, place: { base: `/v/${segment(museum)}/${segment(slug)}`, scannable: false }, draftPreview: true };
  }
  // JSON keeps the two parts apart whatever they hold ("/" included).
  const found = await located(context, `v/${JSON.stringify([museum, slug])}`, () =>
    targetForSlug(context.db, museum, slug).then((t) => enriched(context.db, t)),
  );
  return { ...found, place: { base: `/v/${segment(museum)}/${segment(slug)}`, scannable: false } };
}
