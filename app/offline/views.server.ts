import type { Database } from "~/db/client.server";
import { DomainError } from "~/errors";
import type { QueuedEvent } from "~/queue/scan-event";
import { findLanguage } from "~/translation/languages";
import { tourByLink, visibleStops, type VisibleStop, type VisitorTour } from "~/tours/stops.server";
import type { OfflinePass } from "./pass";
import { copyWindow, OFFLINE_VIEW_MAX_AGE_DAYS, offlineViewId, refusedTime, tourAddress, type OfflineViews } from "./views";

const DAY_MS = 86_400_000;

export interface CountedViews {
  /** Queue events made: stop views (article views with their tour stop) and tour page opens (starts). */
  events: QueuedEvent[];
  /**
   * Views accepted and not counted: leading nowhere today (a tour deleted or a stop gone since), without a
   * pass of that tour's saved copy (forged, another tour's, older than a saved copy lives), or a page its
   * copy already counted in that visit window.
   */
  ignored: number;
}

/**
 * The scan events of a batch of offline views (decision 088): each stop view of a tour becomes a "view"
 * of that stop's article as that tour's stop (today's numbering), and a tour page open a tour "start", at the
 * time it was made. Times outside the last 30 days, or a language outside the catalogue, refuse the
 * batch (400 naming the view); addresses that are not a tour's refuse it too. Tenancy comes from the address:
 * each view counts for the museum of the tour it names, never one the client says.
 *
 * What counts is bounded by the saved copy (decision 118): a view counts only with the pass its copy was
 * given on saving (`readPass` checks the signature), for that pass's tour; each page of a copy counts once
 * per visit window since the save (`offlineViewId`), so a copy can add at most (stops + 1) views per half
 * hour it has existed, however the batch spreads its times or whichever client or User-Agent sends it.
 */
export async function offlineViewEvents(
  db: Database,
  batch: OfflineViews,
  now: number,
  fingerprint: (at: number) => Promise<string | null>,
  readPass: (token: string) => Promise<OfflinePass | null>,
  /** Points `db` at the shard of the museum a tour's link leads to, before that tour is read (decision 142). */
  bindLink: (link: string) => Promise<void> = async () => {},
): Promise<CountedViews> {
  const parsed = batch.views.map((view, i) => {
    const time = refusedTime(view.at, now);
    if (time) throw new DomainError("invalid_input", `This view is ${time}`, `views.${i}.at`);
    // As for the pages (chooseLanguage): only a language of the catalogue is a reading language, so a forged
    // batch cannot add made-up series ("zz", "lorem") to the museum's statistics.
    if (!findLanguage(view.lang)) throw new DomainError("invalid_input", "Not a language visitors can read", `views.${i}.lang`);
    const address = tourAddress(view.path);
    if (!address) throw new DomainError("invalid_input", "Only the addresses of a tour are counted here", `views.${i}.path`);
    return { view, address };
  });
  const tours = new Map<string, Promise<{ tour: VisitorTour; stops: VisibleStop[] } | null>>();
  const load = (link: string) => {
    let found = tours.get(link);
    if (!found) {
      found = bindLink(link)
        .then(() => tourByLink(db, link))
        .then(async (tour) => (tour ? { tour, stops: await visibleStops(db, tour.museum.id, tour.id) } : null));
      tours.set(link, found);
    }
    return found;
  };
  const events: QueuedEvent[] = [];
  const ids = new Set<string>();
  let ignored = 0;
  const passes = new Map<string, Promise<OfflinePass | null>>();
  for (const { view, address } of parsed) {
    const found = await load(address.link);
    const stop = address.position === 0 ? null : found?.stops.find((s) => s.position === address.position);
    let pass = view.pass === undefined ? null : passes.get(view.pass);
    if (pass === undefined && view.pass !== undefined) passes.set(view.pass, (pass = readPass(view.pass)));
    const copy = await pass;
    // A saved copy lives OFFLINE_VIEW_MAX_AGE_DAYS (the service worker removes it then): an older pass shows nothing.
    if (!found || stop === undefined || !copy || copy.tourId !== found.tour.id || copy.savedAt < now - (OFFLINE_VIEW_MAX_AGE_DAYS + 1) * DAY_MS) {
      ignored++;
      continue;
    }
    const { at, window } = copyWindow(view.at, copy.savedAt, now);
    const id = await offlineViewId(copy.copy, address.position, window);
    if (ids.has(id)) {
      ignored++;
      continue;
    }
    ids.add(id);
    const print = await fingerprint(at);
    const common = { id, museumId: found.tour.museum.id, lang: view.lang, at, ...(print ? { fingerprint: print } : {}) };
    events.push(
      stop
        ? { ...common, type: "view", articleId: stop.articleId, qrcodeId: null, tour: { id: found.tour.id, position: stop.position } }
        : { ...common, type: "start", tour: { id: found.tour.id, position: 0 } },
    );
  }
  return { events, ignored };
}
