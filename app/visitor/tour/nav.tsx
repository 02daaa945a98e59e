import type { TourStopPlace } from "../place.server";
import type { VisitorStrings } from "../strings.server";
import { href } from "../pages/shell";

type Ui = { lang?: string; dir?: "ltr" | "rtl" };

/**
 * `template` with its `{name}` placeholders filled. The words of most languages are machine-translated
 * (decision 033) and an engine may mangle a placeholder: then `fallback`, which says the same with
 * numbers alone, rather than a sentence without them.
 */
export function fill(template: string, values: Record<string, string | number>, fallback: string): string {
  let out = template;
  for (const [name, value] of Object.entries(values)) {
    if (!out.includes(`{${name}}`)) return fallback;
    out = out.split(`{${name}}`).join(String(value));
  }
  return /\{[^}]*\}/.test(out) ? fallback : out;
}

/** "Stop 3 of 12" in the visitor's words. */
export function stopOf(strings: VisitorStrings, position: number, total: number): string {
  return fill(strings.stopOf, { n: position, total }, `${position} / ${total}`);
}

/** The words of "Stop 3 of 12" lost a placeholder (an engine's translation): the numbers alone show. */
export function stopOfFallsBack(strings: VisitorStrings): boolean {
  return fill(strings.stopOf, { n: 1, total: 2 }, "") === "";
}

/** The stop's path in its tour. */
export function stopPath(tourBase: string, position: number): string {
  return `${tourBase}/${position}`;
}

/** Above the article of a stop: the tour's name (back to its list) and "Stop 3 of 12". */
export function TourStopBar({ stop, strings, keep, ui, pageLang }: { stop: TourStopPlace; strings: VisitorStrings; keep: string; ui: Ui; pageLang: string }) {
  // The tour's name as staff wrote it, in the museum's language: marked as such where the bar is in another
  // (a screen reader reads it with the right voice; an Arabic page shows it left to right).
  const nameLang = (ui.lang ?? pageLang) !== stop.tourLang ? { lang: stop.tourLang, dir: "auto" as const } : {};
  return (
    <nav className="v-tour" aria-label={strings.tourLabel} {...ui}>
      <a className="v-tour-name" href={href(stop.tourBase, keep, {})} {...nameLang}>
        {stop.tourName}
      </a>
      {/* The numbers-only fallback reads left to right in every language ("2 / 4", never "4 / 2"). */}
      <span className="v-tour-count" dir={stopOfFallsBack(strings) ? "ltr" : undefined}>
        {stopOf(strings, stop.position, stop.total)}
      </span>
    </nav>
  );
}

/** Below the article of a stop: previous and next, plain links (no script), and the keypad when the museum numbers its labels. */
export function TourStopLinks({ stop, strings, keep, ui }: { stop: TourStopPlace; strings: VisitorStrings; keep: string; ui: Ui }) {
  const previous = stop.position > 1 ? stop.position - 1 : null;
  const next = stop.position < stop.total ? stop.position + 1 : null;
  return (
    <nav className="v-steps" aria-label={stopOf(strings, stop.position, stop.total)} {...ui}>
      {previous !== null ? (
        <a className="v-button v-button--light" rel="prev" href={href(stopPath(stop.tourBase, previous), keep, {})}>
          <span aria-hidden="true" className="v-arrow">
            ←
          </span>{" "}
          {strings.previousStop}
        </a>
      ) : (
        <a className="v-button v-button--light" href={href(stop.tourBase, keep, {})}>
          {strings.backToTour}
        </a>
      )}
      {next !== null ? (
        <a className="v-button" rel="next" href={href(stopPath(stop.tourBase, next), keep, {})}>
          {strings.nextStop}{" "}
          <span aria-hidden="true" className="v-arrow">
            →
          </span>
        </a>
      ) : (
        <a className="v-button" href={href(stop.tourBase, keep, {})}>
          {strings.backToTour}
        </a>
      )}
      {stop.keypad && (
        <a className="v-steps-keypad" href={href(stop.keypad, keep, { tour: stop.tourLink })}>
          {strings.keypadLink}
        </a>
      )}
    </nav>
  );
}
