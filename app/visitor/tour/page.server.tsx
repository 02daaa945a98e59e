import type { AppLoadContext } from "@remix-run/cloudflare";
import type { VisitorTarget } from "~/models/visitor.server";
import { translationDeps } from "~/utils/translation-deps.server";
import { keepForReplay } from "../replay/replay.server";
import { snapshotDeps, tourSnapshot } from "./snapshot.server";
import { stillServed } from "~/visitor-cache/snapshot.server";
import { chooseLanguage } from "../language.server";
import { visitorLanguagesPage } from "../languages.server";
import { visitorNotFound } from "../not-found.server";
import { visitorPage } from "../page.server";
import { renderDocument } from "../pages/shell";
import { atAddress, snapshotted, type Located, type VisitorPlace } from "../place.server";
import { htmlPage, keptQuery, refusedMethod } from "../respond.server";
import { countOpen, tourStartEventFor } from "../scan.server";
import { visitorStrings } from "../strings.server";
import { findLanguage } from "~/translation/languages";
import { linkSchema } from "~/models/qrcode-input";
import type { TranslationDeps } from "~/translation/translate.server";
import { loadMuseumNumbers, slugForNumber, validMuseumNumbers, type MuseumNumbers, type TourSnapshot, type TourView } from "./load.server";
import { KeypadPage, TourPage } from "./pages";
import { translateTourTexts } from "./translate.server";
import { parseStopNumber } from "./number";

/** A path segment as the page links to it again; text that cannot be encoded (a lone surrogate) links nowhere. */
function segment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return "-";
  }
}

const tourBase = (link: string) => `/t/${segment(link)}`;
const keypadBase = (museumSlug: string) => `/v/${segment(museumSlug)}/n`;

/** A page's place that is not an article's: the picker and the 404 page only need its path. */
const placeAt = (base: string): VisitorPlace => ({ base, scannable: false });

/** A museum as the language picker needs it (it asks nothing of the article). */
function museumOnly(museum: VisitorTarget["museum"]): VisitorTarget {
  return { museum, article: null, qrcodeId: null, glossary: [], images: {} };
}

const tourView = async (context: AppLoadContext, link: string): Promise<TourView | null> => (await tourSnapshot(context, link))?.view ?? null;

/** The museum at `/v/{museum}/…` with its stop numbers, through its snapshot `n/{museum}` (decision 101). */
async function museumNumbers(context: AppLoadContext, museumSlug: string): Promise<MuseumNumbers | null> {
  return (await snapshotted(context, `n/${museumSlug}`, () => loadMuseumNumbers(context.db, museumSlug), validMuseumNumbers)).target;
}

/**
 * The tour's texts in `lang`: its name, description and stop titles, translated together so the tour page
 * and its stop pages read one cached translation (the same KV key) and name the tour alike (decision 113).
 */
function translatedTour(deps: TranslationDeps, { view }: TourSnapshot, lang: string) {
  const { tour, stops } = view;
  return translateTourTexts(deps, { id: tour.id, museumId: tour.museum.id }, tour.museum.sourceLang, lang, {
    name: tour.name,
    description: tour.description,
    stopNames: stops.map((stop) => stop.title),
  });
}

/** `GET /t/{link}`: the tour page in the visitor's language (issue 21, decisions 076 and 084). Counts a start. */
export async function tourPage(request: Request, context: AppLoadContext, link: string): Promise<Response> {
  const refused = refusedMethod(request);
  if (refused) return refused;
  const snapshot = await tourSnapshot(context, link);
  const base = tourBase(link);
  if (!snapshot) return visitorNotFound(request, context, placeAt(base));
  const { view } = snapshot;
  const { tour, stops } = view;
  // A suspended museum's tour says so, as its articles do (decision 147).
  if (typeof tour.museum.suspendedAt === "number" || typeof tour.museum.closedAt === "number")
    return visitorPage(request, context, { target: museumOnly(tour.museum), place: placeAt(base) });
  const url = new URL(request.url);
  const choice = chooseLanguage(request, tour.museum.sourceLang);
  const deps = snapshotDeps(context, snapshot);
  const [ui, translated] = await Promise.all([visitorStrings(deps, choice.lang), translatedTour(deps, snapshot, choice.lang)]);
  const pageLang = translated.status === "machine" || translated.status === "reviewed" ? choice.lang : tour.museum.sourceLang;
  // A replayed view is counted with its own request and context (decision 141).
  const count = (asked: Request, counted: AppLoadContext) =>
    countOpen(counted, asked, tourStartEventFor(asked, { id: tour.id, museumId: tour.museum.id }, choice.lang));
  count(request, context);
  const page = (
    <TourPage
      museumName={tour.museum.name}
      lang={pageLang}
      visitorLang={choice.lang}
      strings={ui.strings}
      stringsLang={ui.lang}
      name={translated.texts.name}
      description={translated.texts.description}
      minutes={tour.minutes}
      cover={view.cover}
      stops={stops.map((stop, i) => ({ ...stop, shownName: translated.texts.stopNames[i] ?? stop.title }))}
      status={translated.status}
      base={base}
      keep={keptQuery(url)}
      keypad={view.numbered ? keypadBase(tour.museum.slug) : undefined}
      tourLink={tour.link}
      canonical={`${url.origin}${base}${translated.status === "original" ? "" : `?lang=${pageLang}`}`}
      nonce={context.cspNonce}
      offlineLink={tour.link}
    />
  );
  const html = context.timing.rendering(() => renderDocument(page));
  const response = htmlPage(html, 200, { "Set-Cookie": choice.setCookie });
  // Kept for the identical requests of the next moment, as an article's page is (decision 141).
  keepForReplay({ request, context }, { html, response, draftPreview: false }, () => stillServed(snapshot), count);
  return response;
}

/** `GET /t/{link}/languages`: the picker, leading back to the tour page. */
export async function tourLanguagesPage(request: Request, context: AppLoadContext, link: string): Promise<Response> {
  const view = await tourView(context, link);
  return visitorLanguagesPage(
    request,
    context,
    { target: view ? museumOnly(view.tour.museum) : null, place: placeAt(tourBase(link)) },
    (strings) => strings.backToTour,
  );
}

/** The position in `/t/{link}/{position}`: digits only, 1 or more, no leading zero (one address per stop). */
function parsePosition(raw: string): number | null {
  return /^[1-9][0-9]{0,3}$/.test(raw) ? Number(raw) : null;
}

/**
 * The stop at `/t/{link}/{position}` as a visitor page: the article through the same path as
 * `/v/{museum}/{slug}` (snapshot, translation, cache, Server-Timing), placed in its tour. Null target
 * (the 404 page) for an unknown tour or a position out of range.
 */
export async function locateStop(context: AppLoadContext, link: string, rawPosition: string): Promise<Located & { snapshot?: TourSnapshot }> {
  const base = `${tourBase(link)}/${segment(rawPosition)}`;
  const position = parsePosition(rawPosition);
  const snapshot = position === null ? null : await tourSnapshot(context, link);
  const view = snapshot?.view;
  const stop = view && position !== null ? view.stops[position - 1] : undefined;
  if (!snapshot || !view || !stop || position === null) return { target: null, place: placeAt(base) };
  const located = await atAddress(context, { museum: view.tour.museum.slug, slug: stop.slug });
  return {
    ...located,
    place: placeAt(base),
    snapshot,
    tourStop: {
      tourId: view.tour.id,
      tourBase: tourBase(link),
      tourName: view.tour.name,
      tourLang: view.tour.museum.sourceLang,
      tourLink: view.tour.link,
      position,
      total: view.stops.length,
      keypad: view.numbered ? keypadBase(view.tour.museum.slug) : undefined,
    },
  };
}

/** `GET /t/{link}/{position}`: a stop of the tour. Counts a view of the article and of the tour's position. */
export async function stopPage(request: Request, context: AppLoadContext, link: string, rawPosition: string): Promise<Response> {
  const refused = refusedMethod(request);
  if (refused) return refused;
  const { snapshot, ...located } = await locateStop(context, link, rawPosition);
  if (!snapshot || !located.tourStop) return visitorPage(request, context, located);
  // The tour's name in the visitor's language, as the tour page shows it; as written when that failed.
  const lang = chooseLanguage(request, snapshot.museum.sourceLang).lang;
  const translated = await translatedTour(snapshotDeps(context, snapshot), snapshot, lang);
  const named = translated.status === "machine" || translated.status === "reviewed" ? { tourName: translated.texts.name, tourLang: lang } : {};
  return visitorPage(request, context, { ...located, tourStop: { ...located.tourStop, ...named } });
}

/** `GET /t/{link}/{position}/languages`: the picker of a stop, leading back to it. */
export async function stopLanguagesPage(request: Request, context: AppLoadContext, link: string, rawPosition: string): Promise<Response> {
  const located = await locateStop(context, link, rawPosition);
  return visitorLanguagesPage(request, context, { target: located.target ? museumOnly(located.target.museum) : null, place: located.place });
}

/** The tour a keypad was opened from (`?tour=`, decision 113): a well-formed link, else none. */
function keypadTour(url: URL): string | null {
  const parsed = linkSchema.safeParse(url.searchParams.get("tour") ?? "");
  return parsed.success ? parsed.data : null;
}

/** What every link and the form of the keypad keep: the staff preview's query and the tour it was opened from. */
function keypadKeep(url: URL): string {
  const keep = new URLSearchParams(keptQuery(url));
  const tour = keypadTour(url);
  if (tour) keep.set("tour", tour);
  return keep.toString();
}

/**
 * Where stop number `number` leads: opened from a tour (`?tour=`) whose shown stops carry it, that stop
 * (`/t/{link}/{position}`, with "Stop 3 of 4", previous and next), as a saved tour answers offline; else the
 * article's own page. Null for a number no live, published article of this museum carries.
 */
async function numberTarget(context: AppLoadContext, found: MuseumNumbers, number: number, tourLink: string | null): Promise<string | null> {
  const tour = tourLink === null ? null : await tourView(context, tourLink);
  const stop = tour?.tour.museum.id === found.museum.id ? tour.stops.find((s) => s.stopNumber === number) : undefined;
  if (tour && stop) return `${tourBase(tour.tour.link)}/${stop.position}`;
  const slug = slugForNumber(found.numbers, number);
  return slug === null ? null : `/v/${segment(found.museum.slug)}/${segment(slug)}`;
}

/**
 * `GET /v/{museum}/n`: the keypad (decision 085). Without `?number=`, the form; with a stop number of a
 * live, published article of this museum, 303 to its page (keeping `lang`), or to its stop in the tour the
 * keypad was opened from (`?tour=`, decision 113); an unknown number, the form again with a message (404);
 * anything but digits, the form with a message (400).
 */
export async function keypadPage(request: Request, context: AppLoadContext, museumSlug: string): Promise<Response> {
  const refused = refusedMethod(request);
  if (refused) return refused;
  const base = keypadBase(museumSlug);
  const found = await museumNumbers(context, museumSlug);
  if (!found) return visitorNotFound(request, context, placeAt(base));
  const { museum } = found;
  if (typeof museum.suspendedAt === "number" || typeof museum.closedAt === "number")
    return visitorPage(request, context, { target: museumOnly(museum), place: placeAt(base) });
  const url = new URL(request.url);
  const choice = chooseLanguage(request, museum.sourceLang);
  const asked = url.searchParams.get("number");
  const keptLang = findLanguage(url.searchParams.get("lang") ?? "")?.code;
  let error: "unknown" | "invalid" | undefined;
  if (asked !== null) {
    const number = parseStopNumber(asked);
    if (number === "invalid") error = "invalid";
    else {
      const target = number === null ? null : await numberTarget(context, found, number, keypadTour(url));
      if (target !== null) {
        const query = new URLSearchParams(keptQuery(url));
        if (keptLang) query.set("lang", keptLang);
        const text = query.toString();
        const location = `${target}${text ? `?${text}` : ""}`;
        return new Response(null, {
          status: 303,
          headers: { Location: location, "Cache-Control": "private, no-cache", ...(choice.setCookie ? { "Set-Cookie": choice.setCookie } : {}) },
        });
      }
      error = "unknown";
    }
  }
  const { strings, lang: stringsLang } = await visitorStrings(translationDeps(context), choice.lang);
  const page = (
    <KeypadPage
      museumName={museum.name}
      strings={strings}
      stringsLang={stringsLang}
      visitorLang={choice.lang}
      base={base}
      keep={keypadKeep(url)}
      keptLang={keptLang}
      value={asked === null ? "" : asked.slice(0, 12)}
      error={error}
      nonce={context.cspNonce}
    />
  );
  const status = error === "invalid" ? 400 : error === "unknown" ? 404 : 200;
  return htmlPage(renderDocument(page), status, { "Set-Cookie": choice.setCookie, ...(error ? { "X-Robots-Tag": "noindex" } : {}) });
}

/** `GET /v/{museum}/n/languages`: the keypad's language picker. */
export async function keypadLanguagesPage(request: Request, context: AppLoadContext, museumSlug: string): Promise<Response> {
  const found = await museumNumbers(context, museumSlug);
  const keep = keypadKeep(new URL(request.url));
  return visitorLanguagesPage(
    request,
    context,
    { target: found ? museumOnly(found.museum) : null, place: placeAt(keypadBase(museumSlug)) },
    (strings) => strings.keypadTitle,
    keep,
  );
}
