import type { TranslationStatus } from "~/translation/translate.server";
import type { VisitorStrings } from "../strings.server";
import { OfflineControl } from "../pages/offline-control";
import { href, LanguageButton, MuseumBar, Shell, uiLang } from "../pages/shell";
import type { ListedStop } from "./load.server";
import { fill, stopOf, stopPath } from "./nav";

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** "About 45 min"; the numbers-only fallback (an engine lost the placeholder) reads left to right everywhere. */
function Minutes({ template, minutes }: { template: string; minutes: number }) {
  const fallback = `${minutes} min`;
  const text = fill(template, { minutes }, fallback);
  return <span dir={text === fallback ? "ltr" : undefined}>{text}</span>;
}

export interface TourPageProps {
  museumName: string;
  /** The language of the tour's texts (the translation's, or the source's when it failed). */
  lang: string;
  visitorLang: string;
  strings: VisitorStrings;
  stringsLang: string;
  name: string;
  description: string;
  minutes: number | null;
  cover: { src: string; width?: number; height?: number } | null;
  stops: (ListedStop & { shownName: string })[];
  status: TranslationStatus;
  /** The tour's link, for "Save this tour for offline" (decision 087). */
  offlineLink?: string;
  /** `/t/{link}`. */
  base: string;
  keep: string;
  /** The keypad's path when the museum numbers its labels (decision 086). */
  keypad?: string;
  /** The tour's link: the keypad opened from here leads to this tour's stops (decision 113). */
  tourLink?: string;
  canonical: string;
  nonce?: string;
}

/**
 * The tour page (`/t/{link}`): cover, name, description, duration, the numbered stops with their first
 * image, and in `#v-offline` "Save this tour for offline" (decision 087: its small script is the page's only one).
 */
export function TourPage(props: TourPageProps) {
  const { strings, lang, base, keep } = props;
  const ui = uiLang(props.stringsLang, lang);
  const paragraphs = props.description
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  return (
    <Shell
      lang={lang}
      canonical={props.canonical}
      title={`${clip(props.name, 60)} – ${props.museumName}`}
      description={clip(props.description.trim() || props.name, 155)}
      nonce={props.nonce}
      bodyClass="v-page v-tour-page"
    >
      <MuseumBar name={props.museumName} {...ui} />
      <main id="tour" className="v-main">
        {props.cover && <img className="v-cover" src={props.cover.src} alt="" width={props.cover.width} height={props.cover.height} decoding="async" />}
        <h1>{props.name}</h1>
        {props.status === "failed" && (
          <p className="v-notice" role="status" {...ui}>
            {strings.failed}
          </p>
        )}
        {paragraphs.map((p, i) => (
          <p key={i} className="v-description">
            {p}
          </p>
        ))}
        {(props.minutes !== null || props.stops.length > 0) && (
          <p className="v-facts" {...ui}>
            {props.minutes !== null && <Minutes template={strings.tourMinutes} minutes={props.minutes} />}
            {props.stops.length > 0 && (
              <span>
                {props.stops.length} {strings.tourStops.toLocaleLowerCase(props.stringsLang)}
              </span>
            )}
          </p>
        )}
        <div id="v-offline" className="v-offline" {...ui}>
          {props.offlineLink && props.stops.length > 0 && (
            <OfflineControl strings={strings} link={props.offlineLink} lang={props.visitorLang} nonce={props.nonce} />
          )}
        </div>
        {props.stops.length === 0 ? (
          <p className="v-notice" role="status" {...ui}>
            {strings.tourEmpty}
          </p>
        ) : (
          <>
            <p>
              <a className="v-button" href={href(stopPath(base, 1), keep, {})} {...ui}>
                {strings.tourStart}
              </a>
            </p>
            <h2 {...ui}>{strings.tourStops}</h2>
            <ol className="v-stops">
              {props.stops.map((stop) => (
                <li key={stop.position}>
                  <a href={href(stopPath(base, stop.position), keep, {})}>
                    <span className="v-stop-n" aria-hidden="true">
                      {stop.position}
                    </span>
                    {stop.image ? (
                      <img
                        className="v-thumb"
                        src={stop.image.src}
                        alt=""
                        width={stop.image.width ?? 64}
                        height={stop.image.height ?? 64}
                        loading="lazy"
                        decoding="async"
                      />
                    ) : (
                      <span className="v-thumb" aria-hidden="true" />
                    )}
                    {/* A stop whose article shows no title is named by its place, never by the private name (decision 113). */}
                    <span className="v-stop-name" {...(stop.shownName ? {} : ui)}>
                      {stop.shownName || stopOf(strings, stop.position, props.stops.length)}
                    </span>
                  </a>
                </li>
              ))}
            </ol>
          </>
        )}
      </main>
      <footer className="v-footer" {...ui}>
        <LanguageButton strings={strings} stringsLang={props.stringsLang} lang={props.visitorLang} base={base} keep={keep} />
        {props.keypad && (
          <a className="v-button v-button--light" href={href(props.keypad, keep, props.tourLink ? { tour: props.tourLink } : {})}>
            {strings.keypadLink}
          </a>
        )}
      </footer>
    </Shell>
  );
}

export interface KeypadPageProps {
  museumName: string;
  strings: VisitorStrings;
  /** The interface's language (the visitor's, or English while its words are not translated). */
  stringsLang: string;
  visitorLang: string;
  /** `/v/{museum}/n`. */
  base: string;
  keep: string;
  /** The `?lang=` the keypad was opened with, kept through the form to the article. */
  keptLang?: string;
  /** What the visitor typed, shown again with the message. */
  value: string;
  error?: "unknown" | "invalid";
  nonce?: string;
}

/** The keypad (`/v/{museum}/n`): a form that GETs `?number=`, answered by a redirect to that stop's article. */
export function KeypadPage(props: KeypadPageProps) {
  const { strings, error } = props;
  const message = error === "unknown" ? strings.keypadUnknown : error === "invalid" ? strings.keypadInvalid : undefined;
  const keep = new URLSearchParams(props.keep);
  return (
    <Shell
      lang={props.stringsLang}
      title={`${strings.keypadTitle} – ${props.museumName}`}
      description={strings.keypadTitle}
      nonce={props.nonce}
      bodyClass="v-page"
    >
      <MuseumBar name={props.museumName} />
      <main className="v-main">
        <form className="v-keypad" method="get" action={props.base} noValidate>
          <h1>
            <label htmlFor="v-number">{strings.keypadTitle}</label>
          </h1>
          {[...keep].map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {props.keptLang && <input type="hidden" name="lang" value={props.keptLang} />}
          <div className="v-keypad-row">
            <input
              id="v-number"
              name="number"
              type="text"
              inputMode="numeric"
              pattern="[0-9]*"
              autoComplete="off"
              maxLength={12}
              size={6}
              defaultValue={props.value}
              aria-describedby={message ? "v-number-error" : undefined}
              aria-invalid={message ? true : undefined}
              autoFocus={message !== undefined}
            />
            <button type="submit" className="v-button">
              {strings.keypadSubmit}
            </button>
          </div>
          {message && (
            <p className="v-error" id="v-number-error" role="alert">
              {message}
            </p>
          )}
        </form>
      </main>
      <footer className="v-footer">
        <LanguageButton strings={strings} stringsLang={props.stringsLang} lang={props.visitorLang} base={props.base} keep={props.keep} />
      </footer>
    </Shell>
  );
}
